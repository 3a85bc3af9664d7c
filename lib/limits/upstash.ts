import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import { failOpen } from './redis';
import { retryAfterSeconds, type RateLimiter, type RateLimitRule } from './types';

/** Upstash for serverless deployments; its sliding window is a two-bucket approximation, not an exact log (README). */
export function createUpstashRateLimiter(options: { url: string; token: string; prefix?: string }): RateLimiter {
  const redis = new Redis({ url: options.url, token: options.token, enableTelemetry: false, retry: { retries: 1, backoff: () => 50 } });
  const prefix = options.prefix ?? 'almanac:rl';
  const limiters = new Map<string, Ratelimit>();

  function limiterFor(rule: RateLimitRule): Ratelimit {
    const id = `${rule.limit}:${rule.windowMs}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = new Ratelimit({
        redis,
        limiter: Ratelimit.slidingWindow(rule.limit, `${rule.windowMs} ms`),
        prefix,
        // No per-instance memory of blocked keys: every decision comes from Redis, so instances agree.
        ephemeralCache: false,
        analytics: false,
        timeout: 3_000,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  }

  return {
    kind: 'upstash',
    exact: false,
    async consume(id, rule) {
      try {
        const now = Date.now();
        const result = await limiterFor(rule).limit(id);
        if (result.reason === 'timeout') return failOpen(rule, new Error('upstash timeout'));
        return {
          allowed: result.success,
          limit: rule.limit,
          remaining: Math.max(0, result.remaining),
          resetAtMs: result.reset,
          retryAfterSeconds: result.success ? 0 : retryAfterSeconds(result.reset, now),
        };
      } catch (err) {
        return failOpen(rule, err);
      }
    },
    async peek(id, rule) {
      try {
        const now = Date.now();
        const { remaining, reset } = await limiterFor(rule).getRemaining(id);
        const allowed = remaining > 0;
        return {
          allowed,
          limit: rule.limit,
          remaining: Math.max(0, remaining),
          resetAtMs: reset,
          retryAfterSeconds: allowed ? 0 : retryAfterSeconds(reset, now),
        };
      } catch (err) {
        return failOpen(rule, err);
      }
    },
    async close() {
      limiters.clear();
    },
  };
}

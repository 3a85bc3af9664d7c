import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { log } from '@/lib/platform/log';
import { retryAfterSeconds, type RateLimiter, type RateLimitRule, type RateLimitState } from './types';

/**
 * Exact sliding log in Redis, shared by every instance. One Lua script prunes, counts and adds atomically, using
 * the Redis server's clock (TIME) so instances with skewed clocks still agree. Returns
 * {allowed, count after, oldest score, server now} in milliseconds.
 */
const SLIDING_LOG_SCRIPT = `
local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local consume = ARGV[3] == '1'
local member = ARGV[4]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  allowed = 1
  if consume then
    redis.call('ZADD', key, now, member)
    redis.call('PEXPIRE', key, window)
    count = count + 1
  end
end
local oldest = now
local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
if first[2] then oldest = tonumber(first[2]) end
return {allowed, count, oldest, now}
`;

type ScriptResult = [number, number, number, number];

interface SlidingLogRedis extends Redis {
  almanacSlidingLog(key: string, windowMs: number, limit: number, consume: '0' | '1', member: string): Promise<ScriptResult>;
}

export function createRedisRateLimiter(options: { url: string; prefix?: string }): RateLimiter {
  const redis = new Redis(options.url, {
    // Fail fast instead of queueing requests for seconds while Redis is away; see failOpen below.
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    enableAutoPipelining: true,
  }) as SlidingLogRedis;
  redis.on('error', (err) => log.warn({ err: err.message }, 'redis rate limiter connection error'));
  redis.defineCommand('almanacSlidingLog', { numberOfKeys: 1, lua: SLIDING_LOG_SCRIPT });
  const prefix = options.prefix ?? 'almanac:rl:';
  const instance = randomBytes(6).toString('hex');
  let sequence = 0;

  async function run(id: string, rule: RateLimitRule, consume: boolean): Promise<RateLimitState> {
    const member = `${instance}:${++sequence}`;
    try {
      const [allowed, count, oldest, now] = await redis.almanacSlidingLog(prefix + id, rule.windowMs, rule.limit, consume ? '1' : '0', member);
      const resetAtMs = Number(oldest) + rule.windowMs;
      const ok = Number(allowed) === 1;
      return {
        allowed: ok,
        limit: rule.limit,
        remaining: Math.max(0, rule.limit - Number(count)),
        resetAtMs,
        retryAfterSeconds: ok ? 0 : retryAfterSeconds(resetAtMs, Number(now)),
      };
    } catch (err) {
      return failOpen(rule, err);
    }
  }

  return {
    kind: 'redis',
    exact: true,
    consume: (id, rule) => run(id, rule, true),
    peek: (id, rule) => run(id, rule, false),
    async close() {
      redis.disconnect();
    },
  };
}

let failOpenCount = 0;

/** One uncounted `peek` that did not fail open: health reports it, as failing open is otherwise invisible. */
export async function probeRateLimiter(limiter: RateLimiter): Promise<boolean> {
  const before = failOpenCount;
  await limiter.peek('health:probe', { limit: 1, windowMs: 1_000 });
  return failOpenCount === before;
}

/** An unreachable store lets the request pass (logged): the limit guards capacity; the paid cap is metered in the database. */
export function failOpen(rule: RateLimitRule, err: unknown): RateLimitState {
  failOpenCount++;
  log.warn({ err: err instanceof Error ? err.message : String(err) }, 'rate limit store unavailable; allowing the request');
  return { allowed: true, limit: rule.limit, remaining: rule.limit, resetAtMs: Date.now() + rule.windowMs, retryAfterSeconds: 0 };
}

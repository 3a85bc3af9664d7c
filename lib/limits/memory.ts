import { retryAfterSeconds, type RateLimiter, type RateLimitRule, type RateLimitState } from './types';

/**
 * Exact sliding log in this process: one array of request times per key. Right for a single instance (the
 * default); with several instances each would count only its own requests, which is what REDIS_URL is for.
 */
export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const logs = new Map<string, number[]>();
  let sweeps = 0;

  function prune(id: string, windowMs: number, at: number): number[] {
    const log = logs.get(id) ?? [];
    let drop = 0;
    while (drop < log.length && log[drop] <= at - windowMs) drop++;
    if (drop > 0) log.splice(0, drop);
    return log;
  }

  function sweep(at: number) {
    // Bound memory: forget keys whose newest request is older than any window we use (1 hour is generous).
    if (++sweeps % 10_000 !== 0) return;
    for (const [id, log] of logs) if (log.length === 0 || log[log.length - 1] < at - 3_600_000) logs.delete(id);
  }

  function state(log: number[], rule: RateLimitRule, at: number, allowed: boolean): RateLimitState {
    const resetAtMs = log.length > 0 ? log[0] + rule.windowMs : at + rule.windowMs;
    return {
      allowed,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - log.length),
      resetAtMs,
      retryAfterSeconds: allowed ? 0 : retryAfterSeconds(resetAtMs, at),
    };
  }

  return {
    kind: 'memory',
    exact: true,
    async consume(id, rule) {
      const at = now();
      sweep(at);
      const log = prune(id, rule.windowMs, at);
      if (log.length >= rule.limit) return state(log, rule, at, false);
      log.push(at);
      logs.set(id, log);
      return state(log, rule, at, true);
    },
    async peek(id, rule) {
      const at = now();
      const log = prune(id, rule.windowMs, at);
      return state(log, rule, at, log.length < rule.limit);
    },
    async close() {
      logs.clear();
    },
  };
}

import { retryAfterSeconds, type RateLimiter, type RateLimitRule, type RateLimitState } from './types';

/**
 * Exact sliding log in this process: the request times of each key, oldest first. Right for a single instance (the
 * default); with several instances each would count only its own requests, which is what REDIS_URL is for.
 *
 * Expired times are skipped by moving a start index and cut off in bulk once they are the larger half: removing
 * them one by one from the front of an array moves the whole log on every request (a key allowed 10,000 a minute
 * carries a 10,000-entry log).
 */
interface Log {
  times: number[];
  /** Index of the oldest time still inside the window. */
  start: number;
}

const count = (log: Log) => log.times.length - log.start;

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const logs = new Map<string, Log>();
  let sweeps = 0;

  function prune(id: string, windowMs: number, at: number): Log {
    let log = logs.get(id);
    if (!log) {
      log = { times: [], start: 0 };
      logs.set(id, log);
    }
    const { times } = log;
    while (log.start < times.length && times[log.start] <= at - windowMs) log.start++;
    if (log.start > 64 && log.start * 2 > times.length) {
      log.times = times.slice(log.start);
      log.start = 0;
    }
    return log;
  }

  function sweep(at: number) {
    // Bound memory: forget keys whose newest request is older than any window we use (1 hour is generous).
    if (++sweeps % 10_000 !== 0) return;
    for (const [id, log] of logs) if (count(log) === 0 || log.times[log.times.length - 1] < at - 3_600_000) logs.delete(id);
  }

  function state(log: Log, rule: RateLimitRule, at: number, allowed: boolean): RateLimitState {
    const size = count(log);
    const resetAtMs = size > 0 ? log.times[log.start] + rule.windowMs : at + rule.windowMs;
    return {
      allowed,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - size),
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
      if (count(log) >= rule.limit) return state(log, rule, at, false);
      log.times.push(at);
      return state(log, rule, at, true);
    },
    async peek(id, rule) {
      const at = now();
      const log = prune(id, rule.windowMs, at);
      return state(log, rule, at, count(log) < rule.limit);
    },
    async close() {
      logs.clear();
    },
  };
}

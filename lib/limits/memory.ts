import { retryAfterSeconds, type RateLimiter, type RateLimitRule, type RateLimitState } from './types';

/**
 * Exact sliding log in this process, right for one instance (with several, each counts only its own: use REDIS_URL).
 * Expired times are skipped by a start index and cut off in bulk; logs past their window are forgotten a few per call,
 * since one pass over every per-address log at once would stall the thread.
 */
interface Log {
  times: number[];
  /** Index of the oldest time still inside the window. */
  start: number;
  /** The window of the rule it was last counted with. */
  windowMs: number;
}

/** Logs examined for expiry per call: more than the one log a call can add, so the map follows the active keys. */
const SWEEP_PER_CALL = 2;

const count = (log: Log) => log.times.length - log.start;

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter & { readonly size: number } {
  const logs = new Map<string, Log>();
  // Map iterators are live: entries added after the cursor was made are reached too, deleted ones are skipped.
  let cursor: Iterator<[string, Log]> | undefined;

  function prune(id: string, windowMs: number, at: number): Log {
    let log = logs.get(id);
    if (!log) {
      log = { times: [], start: 0, windowMs };
      logs.set(id, log);
    }
    log.windowMs = windowMs;
    const { times } = log;
    while (log.start < times.length && times[log.start]! <= at - windowMs) log.start++;
    if (log.start > 64 && log.start * 2 > times.length) {
      log.times = times.slice(log.start);
      log.start = 0;
    }
    return log;
  }

  function sweep(at: number) {
    for (let i = 0; i < SWEEP_PER_CALL; i++) {
      cursor ??= logs.entries();
      const next = cursor.next();
      if (next.done) {
        cursor = undefined;
        return;
      }
      const [id, log] = next.value;
      // Nothing of it is inside its window any more: an empty log, which is what a missing one means.
      if (count(log) === 0 || (log.times.at(-1) ?? -Infinity) <= at - log.windowMs) logs.delete(id);
    }
  }

  function state(log: Log, rule: RateLimitRule, at: number, allowed: boolean): RateLimitState {
    const size = count(log);
    const oldest = log.times[log.start];
    const resetAtMs = size > 0 && oldest !== undefined ? oldest + rule.windowMs : at + rule.windowMs;
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
    /** Keys with a log (tests: memory follows the active keys). */
    get size() {
      return logs.size;
    },
  };
}

/**
 * A bound on how much public catalogue work reaches the database at once (docs/api.md §2.7): at most `concurrency`
 * loads run, up to `maxQueue` more wait their turn in arrival order, and any beyond that are refused at once
 * (`GateBusyError`; the routes answer 503 `service_unavailable` with `Retry-After: 1`).
 *
 * Why: the database is shared with the paid API. Embedded PGlite runs every statement one at a time on the server's
 * own thread, and PostgreSQL's pool has a few connections per instance; without a bound, 200 concurrent listing
 * misses put 200 loads' statements in front of every paid query's key lookup and cap reservation (the issue measured
 * /query going from 10–15 ms to 1.2–2.6 s). With it, a paid statement waits behind at most `concurrency` listing
 * loads, and the listings queue among themselves.
 */
export class GateBusyError extends Error {
  constructor() {
    super('too many catalogue loads are waiting');
    this.name = 'GateBusyError';
  }
}

export interface LoadGate {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly queued: number;
}

export interface LoadGateOptions {
  concurrency: number;
  maxQueue: number;
  /**
   * After a load that took t ms, its slot rests `restRatio × t` ms before the next load may use it, so loads can
   * take at most 1 / (1 + restRatio) of the time. For the embedded database, whose statements run on the server's own
   * thread: with 1, public loads leave at least half of that thread to everything else. 0 (default): no rest.
   */
  restRatio?: number;
  now?: () => number;
}

export function createLoadGate(options: LoadGateOptions): LoadGate {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const restRatio = options.restRatio ?? 0;
  const now = options.now ?? performance.now.bind(performance);
  const waiting: (() => void)[] = [];
  let active = 0;

  function release() {
    const next = waiting.shift();
    if (next) next();
    else active--;
  }

  return {
    async run(task) {
      if (active >= concurrency) {
        if (waiting.length >= options.maxQueue) throw new GateBusyError();
        // The slot is handed over by release() without being given back, so no newcomer can overtake the queue.
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else active++;
      const started = now();
      try {
        return await task();
      } finally {
        const rest = restRatio * (now() - started);
        if (rest >= 1) setTimeout(release, rest);
        else release();
      }
    },
    get active() {
      return active;
    },
    get queued() {
      return waiting.length;
    },
  };
}

/**
 * A bound on how much public catalog work reaches the database at once (docs/api.md §2.7): at most `concurrency`
 * loads run, up to `maxQueue` more wait in arrival order, and any beyond that are refused at once (`GateBusyError`:
 * 503 with `Retry-After: 1`). The database is shared with the paid API: with the bound, a paid statement waits behind
 * at most `concurrency` listing loads instead of every concurrent miss (bench/listing/README.md).
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

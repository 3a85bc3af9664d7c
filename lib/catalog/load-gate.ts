/** A bound on concurrent public catalog loads (docs/api.md §2.7), so a paid statement waits behind at most `concurrency`. */
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
  /** A slot rests `restRatio × duration` after a load, so loads take at most 1 / (1 + restRatio) of the thread. */
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

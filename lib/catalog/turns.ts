/**
 * Public requests take turns with the rest of the server (docs/api.md §2.7): each waits for a turn of the event loop
 * (`setImmediate`), and one turn serves one public request, so a paid query's next step waits behind at most one
 * public request instead of every one that is ready (bench/listing/README.md measured /query going from ~10 ms to
 * seconds without it). Once `maxWaiting` are in line, further ones are refused (GateBusyError → 503).
 */
import { GateBusyError } from './load-gate';

export interface TurnQueue {
  /** Resolves when it is this request's turn. Throws GateBusyError when `maxWaiting` requests are already waiting. */
  take(): Promise<void>;
  readonly waiting: number;
}

export interface TurnQueueOptions {
  maxWaiting: number;
  /**
   * While this says so (paid work in flight), turns are a timer apart (about a millisecond) instead of one per turn of
   * the loop: public requests then take at most about a thousand turns a second, and the thread, the cores and the
   * allocation rate they would take go to the paid requests.
   */
  yieldNow?: () => boolean;
}

export function createTurnQueue(options: TurnQueueOptions): TurnQueue {
  const waiting: (() => void)[] = [];
  let scheduled = false;

  function turn() {
    scheduled = false;
    waiting.shift()?.();
    if (waiting.length > 0) schedule();
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    if (options.yieldNow?.()) setTimeout(turn, 1);
    else setImmediate(turn);
  }

  return {
    take() {
      if (waiting.length >= options.maxWaiting) return Promise.reject(new GateBusyError());
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        schedule();
      });
    },
    get waiting() {
      return waiting.length;
    },
  };
}

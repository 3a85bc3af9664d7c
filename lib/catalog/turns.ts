/**
 * Public requests take turns with the rest of the server (docs/api.md §2.7): one turn of the event loop serves one
 * public request, so a paid query waits behind at most one. Beyond `maxWaiting` they are refused (503).
 */
import { GateBusyError } from './load-gate';

export interface TurnQueue {
  take(): Promise<void>;
  readonly waiting: number;
}

export interface TurnQueueOptions {
  maxWaiting: number;
  /** While true (paid work in flight), turns are a timer apart, about a thousand a second, leaving the thread to paid work. */
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

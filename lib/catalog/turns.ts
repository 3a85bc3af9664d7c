/**
 * Public requests take turns with the rest of the server (docs/api.md §2.7): each one waits for a turn of the event
 * loop (`setImmediate`), and one turn serves one public request. Node handles every socket that has something to say
 * between two turns, so a paid query's next step (its key lookup returning, its cap reservation, its publisher's
 * answer) waits behind at most one public request, not behind every public request that happens to be ready.
 *
 * Why: the server runs all JavaScript on one thread. Measured (bench/listing/README.md), 200 connections asking for
 * cached listings kept ~200 requests ready at every turn of the loop; Node served them all, ~0.6 ms of Next's
 * machinery each, before the paid query's next I/O callback ran, so /query went from ~10 ms to seconds. Taking turns
 * costs an idle server one setImmediate per public request; a busy one serves public requests one per turn, in
 * arrival order, and refuses them (GateBusyError → 503) once `maxWaiting` are in line.
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

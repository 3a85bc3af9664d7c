import { processSingleton } from './singleton';

// Paid work in flight in this process: the keyed API marks each request, and the public catalogue's turns
// (lib/catalog/turns.ts) slow down meanwhile, so public traffic yields the one thread to paying clients.
const state = processSingleton('priority-work', () => ({ inFlight: 0 }));

/** Marks one piece of paid work as started; call the returned function once when it ends. */
export function beginPriorityWork(): () => void {
  state.inFlight++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    state.inFlight--;
  };
}

export function priorityWorkInFlight(): number {
  return state.inFlight;
}

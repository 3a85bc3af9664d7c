import { ApiError } from '@/lib/platform/errors';
import { priorityWorkInFlight } from '@/lib/platform/priority-work';
import { processSingleton } from '@/lib/platform/singleton';
import { GateBusyError } from './load-gate';
import { admitPublicRequest } from './public-limit';
import { createTurnQueue } from './turns';

/** Public requests that may wait for their turn before further ones are refused (turns.ts). */
const PUBLIC_TURNS_MAX_WAITING = 1_000;

// One line for the whole process, whichever copy of this module a request comes through (Next's bundles, the Node face).
const turns = processSingleton('public-turns', () => createTurnQueue({ maxWaiting: PUBLIC_TURNS_MAX_WAITING, yieldNow: () => priorityWorkInFlight() > 0 }));

/** 503 `service_unavailable` with `Retry-After: 1`: more public work is waiting than the server keeps in line. */
export function catalogBusyError(): ApiError {
  return new ApiError('service_unavailable', 'The catalogue is busy; retry in a moment.', { headers: { 'Retry-After': '1' } });
}

/** Waits for this public request's turn on the server's thread (turns.ts); 503 when too many are waiting. */
export async function takePublicTurn(): Promise<void> {
  try {
    await turns.take();
  } catch (error) {
    throw error instanceof GateBusyError ? catalogBusyError() : error;
  }
}

/**
 * Wraps the handler of a public endpoint that Next serves alone (the OpenAPI document), inside `withApiRoute` which
 * answers its errors: it takes its turn, is counted against its client's limit (429 over it), and its answer carries
 * the limit's headers. The listing and the detail do the same in `answerPublicCatalog`.
 */
export function withPublicEndpoint<C>(handler: (request: Request, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    await takePublicTurn();
    const headers = await admitPublicRequest(request.headers);
    const response = await handler(request, context);
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };
}

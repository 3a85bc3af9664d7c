import { ApiError } from '@/lib/platform/errors';
import { priorityWorkInFlight } from '@/lib/platform/priority-work';
import { processSingleton } from '@/lib/platform/singleton';
import { GateBusyError } from './load-gate';
import { admitPublicRequest } from './public-limit';
import { createTurnQueue } from './turns';

/** Public endpoints take turns on the server's thread and are counted per client (docs/api.md §2.7, §2.8). */

const PUBLIC_TURNS_MAX_WAITING = 1_000;

// One line for the whole process, whichever copy of this module a request comes through (Next's bundles, the Node face).
const turns = processSingleton('public-turns', () => createTurnQueue({ maxWaiting: PUBLIC_TURNS_MAX_WAITING, yieldNow: () => priorityWorkInFlight() > 0 }));

export function catalogBusyError(): ApiError {
  return new ApiError('service_unavailable', 'The catalogue is busy; retry in a moment.', { headers: { 'Retry-After': '1' } });
}

export async function takePublicTurn(): Promise<void> {
  try {
    await turns.take();
  } catch (error) {
    throw error instanceof GateBusyError ? catalogBusyError() : error;
  }
}

export function withPublicEndpoint<C>(handler: (request: Request, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    await takePublicTurn();
    const headers = await admitPublicRequest(request.headers);
    const response = await handler(request, context);
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };
}

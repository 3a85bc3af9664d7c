import { NextRequest } from 'next/server.js';
import { errorResponse, methodNotAllowed, readBodyWithin, withApiRoute } from './http';

/**
 * Every route handler answers every method (docs/api.md §7.1), so none is left to Next's default (an empty 405 without
 * `Allow`). `HEAD` follows `GET` (RFC 9110 §9.3.2); `OPTIONS` is served only where a route gives it. Usage:
 *   export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: listing, OPTIONS: preflight });
 */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

// The context is whatever Next passes a route of this shape (`{ params: Promise<…> }`); the wrappers type their own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route's context type must be assignable here, which `unknown` would refuse
export type RouteHandler = (request: Request, context?: any) => Promise<Response>;

function allowedMethods(served: Partial<Record<HttpMethod, RouteHandler>>): HttpMethod[] {
  return HTTP_METHODS.filter((method) => served[method] !== undefined || (method === 'HEAD' && served.GET !== undefined));
}

/** The body limit of a route that sets none: sign-in posts, forms and console calls are a few KB at most. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

export interface RouteOptions {
  /** The 405 answer (the catalogue's carries its CORS headers). */
  refuse?: (allow: string[]) => RouteHandler;
  /** Body bytes read before the handler (DEFAULT_BODY_LIMIT), or `'own'` for one that reads its own (the keyed API, an upload). */
  bodyLimit?: number | 'own';
}

const payloadTooLarge = (limit: number) =>
  withApiRoute(async (_request, { requestId }) =>
    errorResponse('payload_too_large', `The request body is larger than ${limit} bytes, the limit of this endpoint.`, requestId),
  );

/** A chunked body declares no length, so the limit holds on the bytes themselves, before any handler sees them. */
function withBodyWithin(handler: RouteHandler, limit: number): RouteHandler {
  const refuse = payloadTooLarge(limit);
  return async (request, context) => {
    if (!request.body) return handler(request, context);
    const bytes = await readBodyWithin(request, limit);
    if (bytes === null) return refuse(request, context);
    return handler(new NextRequest(request.url, { method: request.method, headers: request.headers, body: bytes, signal: request.signal }), context);
  };
}

const CARRIES_BODY = new Set<HttpMethod>(['POST', 'PUT', 'PATCH', 'DELETE']);

export function routeMethods(served: Partial<Record<HttpMethod, RouteHandler>>, options: RouteOptions = {}): Record<HttpMethod, RouteHandler> {
  const allow = allowedMethods(served);
  const notAllowed = (options.refuse ?? methodNotAllowed)(allow);
  const limit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const handlers = {} as Record<HttpMethod, RouteHandler>;
  for (const method of HTTP_METHODS) {
    const handler = served[method];
    if (handler && CARRIES_BODY.has(method) && limit !== 'own') handlers[method] = withBodyWithin(handler, limit);
    else handlers[method] = handler ?? (method === 'HEAD' ? served.GET : undefined) ?? notAllowed;
  }
  return handlers;
}

/** For the catch-all routes under /api and /kb: a JSON 404 on every method instead of Next's HTML page. */
export function unknownPathMethods(): Record<HttpMethod, RouteHandler> {
  const notFound = withApiRoute(async (request, { requestId }) =>
    errorResponse(
      'not_found',
      `No endpoint has the path ${new URL(request.url).pathname.slice(0, 200)}. The API is described at /api/openapi.json.`,
      requestId,
    ),
  );
  return Object.fromEntries(HTTP_METHODS.map((method) => [method, notFound])) as Record<HttpMethod, RouteHandler>;
}

import { NextRequest } from 'next/server.js';
import { errorResponse, methodNotAllowed, readBodyWithin, withApiRoute } from './http';

/**
 * Every route handler answers every method (docs/api.md §7.1): a route file exports the whole set this builds from the
 * methods it serves, so none can be left to Next's default answer (an empty 405 without `Allow`, or Next's own
 * `OPTIONS`). `HEAD` follows `GET` wherever `GET` is served (RFC 9110 §9.3.2); `OPTIONS` is served only where a route
 * gives it (the catalogue's CORS preflight) and is otherwise a 405 like any other method it does not serve.
 *
 *   export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: listing, OPTIONS: preflight });
 */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

// The context is whatever Next passes a route of this shape (`{ params: Promise<…> }`); the wrappers type their own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route's context type must be assignable here, which `unknown` would refuse
export type RouteHandler = (request: Request, context?: any) => Promise<Response>;

/** The methods a route serves, in a stable order: its `Allow` header. */
function allowedMethods(served: Partial<Record<HttpMethod, RouteHandler>>): HttpMethod[] {
  return HTTP_METHODS.filter((method) => served[method] !== undefined || (method === 'HEAD' && served.GET !== undefined));
}

/** The body limit of a route that sets none: sign-in posts, forms and console calls are a few KB at most. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

export interface RouteOptions {
  /** The 405 answer (the catalogue's carries its CORS headers). */
  refuse?: (allow: string[]) => RouteHandler;
  /**
   * The most bytes of body this route reads (DEFAULT_BODY_LIMIT unless set), or `'own'` for a handler that reads its
   * body itself with readBodyWithin (the keyed API, whose checks come before its body; an upload, streamed).
   */
  bodyLimit?: number | 'own';
}

const payloadTooLarge = (limit: number) =>
  withApiRoute(async (_request, { requestId }) =>
    errorResponse('payload_too_large', `The request body is larger than ${limit} bytes, the limit of this endpoint.`, requestId),
  );

/**
 * Reads the body within `limit` before the handler runs, whatever Content-Length says (a chunked body declares
 * none), so that no sign-in callback, form parser or signature check ever holds more than `limit` bytes; the handler
 * gets the same request over those bytes. A larger body is 413 `payload_too_large`.
 */
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

/**
 * The catch-all routes under /api and /kb (docs/api.md §7.1): a path no route serves is a JSON 404 `not_found`, on
 * every method, instead of Next's HTML page.
 */
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

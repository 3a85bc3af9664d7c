import { errorResponse, methodNotAllowed, withApiRoute } from './http';

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
export type RouteHandler = (request: Request, context?: any) => Promise<Response>;

/** The methods a route serves, in a stable order: its `Allow` header. */
export function allowedMethods(served: Partial<Record<HttpMethod, RouteHandler>>): HttpMethod[] {
  return HTTP_METHODS.filter((method) => served[method] !== undefined || (method === 'HEAD' && served.GET !== undefined));
}

export function routeMethods(
  served: Partial<Record<HttpMethod, RouteHandler>>,
  refuse: (allow: string[]) => RouteHandler = methodNotAllowed,
): Record<HttpMethod, RouteHandler> {
  const allow = allowedMethods(served);
  const notAllowed = refuse(allow);
  const handlers = {} as Record<HttpMethod, RouteHandler>;
  for (const method of HTTP_METHODS) handlers[method] = served[method] ?? (method === 'HEAD' ? served.GET : undefined) ?? notAllowed;
  return handlers;
}

/**
 * The catch-all routes under /api and /kb (docs/api.md §7.1): a path no route serves is a JSON 404 `not_found`, on
 * every method, instead of Next's HTML page.
 */
export function unknownPathMethods(): Record<HttpMethod, RouteHandler> {
  const notFound = withApiRoute(async (request, { requestId }) =>
    errorResponse('not_found', `No endpoint has the path ${new URL(request.url).pathname.slice(0, 200)}. The API is described at /api/openapi.json.`, requestId),
  );
  return Object.fromEntries(HTTP_METHODS.map((method) => [method, notFound])) as Record<HttpMethod, RouteHandler>;
}

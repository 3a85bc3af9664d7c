import { REQUEST_ID_HEADER, methodNotAllowed } from '@/lib/platform/http';

/**
 * HTTP conventions of the public catalogue endpoints (docs/api.md §2.7): readable from any origin (no credentials
 * involved), and briefly cacheable by browsers and CDNs because the catalogue changes slowly.
 */
export const CATALOG_CACHE_CONTROL = 'public, max-age=30, stale-while-revalidate=300';
const CATALOG_METHODS = ['GET', 'HEAD', 'OPTIONS'];
/** What a browser script may read besides the simple headers: the request id and the public limit's state (§2.8). */
export const CATALOG_EXPOSED_HEADERS = [REQUEST_ID_HEADER, 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'].join(', ');

type Handler<C> = (request: Request, context?: C) => Promise<Response>;

/**
 * Adds CORS to every answer (errors included, so browser clients can read the error body) and the public cache to
 * every answer that is a pure function of the URL (2xx and 4xx). Never cached: our own faults (5xx) and a 429, which
 * is about one client's request rate, not about the URL (a CDN must not serve one client's 429 to everyone).
 */
export function withCatalogHeaders<C>(handler: Handler<C>, options: { cacheControl?: string } = {}): Handler<C> {
  const cacheControl = options.cacheControl ?? CATALOG_CACHE_CONTROL;
  return async (request, context) => {
    const response = await handler(request, context);
    response.headers.set('Access-Control-Allow-Origin', '*');
    response.headers.set('Access-Control-Expose-Headers', CATALOG_EXPOSED_HEADERS);
    response.headers.set('Cache-Control', response.status >= 500 || response.status === 429 ? 'no-store' : cacheControl);
    return response;
  };
}

/** A JSON answer whose body is already serialised (the OpenAPI document, serialised once per base URL). */
export function catalogJson(body: string): Response {
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}

/** CORS preflight: only simple GETs are served, so any origin may ask and the answer can be cached for a day. */
export function catalogPreflight(): Handler<unknown> {
  return async (request) => {
    const headers = new Headers({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': CATALOG_METHODS.join(', '),
      'Access-Control-Allow-Headers': request.headers.get('Access-Control-Request-Headers') ?? '*',
      'Access-Control-Max-Age': '86400',
      Allow: CATALOG_METHODS.join(', '),
    });
    return new Response(null, { status: 204, headers });
  };
}

/** 405 `method_not_allowed` with `Allow` (and CORS, so a browser sees why). */
export function catalogMethodNotAllowed(allow: string[] = CATALOG_METHODS): Handler<unknown> {
  return withCatalogHeaders(methodNotAllowed(allow) as Handler<unknown>);
}

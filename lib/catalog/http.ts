import { REQUEST_ID_HEADER, methodNotAllowed } from '@/lib/platform/http';

/** Public catalog endpoints: any origin may read them, and browsers and CDNs may cache them briefly (docs/api.md §2.7). */
export const CATALOG_CACHE_CONTROL = 'public, max-age=30, stale-while-revalidate=300';
const CATALOG_METHODS = ['GET', 'HEAD', 'OPTIONS'];
export const CATALOG_EXPOSED_HEADERS = [REQUEST_ID_HEADER, 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'].join(', ');

type Handler<C> = (request: Request, context?: C) => Promise<Response>;

/** CORS on every answer, errors included; the public cache only on 2xx and 4xx: a 5xx is ours and a 429 one client's. */
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

export function catalogJson(body: string): Response {
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}

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

export function catalogMethodNotAllowed(allow: string[] = CATALOG_METHODS): Handler<unknown> {
  return withCatalogHeaders(methodNotAllowed(allow) as Handler<unknown>);
}

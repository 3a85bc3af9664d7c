import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT } from '@/lib/platform/route-methods';
import { APP, routeFiles, urlOf } from '../support/app-routes';

/**
 * docs/api.md §7.1: every route reads at most its limit of a body, whatever Content-Length says, before it
 * authenticates, checks a signature or parses a form. Each route file of app/ gets, on every method it serves that
 * carries a body, a chunked body with no length that would go on for 256 MB: the route must stop pulling within its
 * limit and answer in JSON, never 500.
 */
const CHUNK = 64 * 1024;
const ENDLESS = 256 * 1024 * 1024;
/** The largest limit of a route that reads a body before anything else (the Stripe webhook's). */
const LARGEST_EARLY_LIMIT = 512 * 1024;

/** A request whose body is an endless stream of chunks (no Content-Length), and how many bytes were pulled from it. */
function endlessPost(url: string, method: string, headers: Record<string, string>): { request: Request; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= ENDLESS) return controller.close();
      pulled += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK).fill(0x61));
    },
  });
  const request = new Request(url, { method, headers, body, duplex: 'half' } as RequestInit);
  return { request, pulled: () => pulled };
}

type Handler = (request: Request, context?: { params: Promise<Record<string, unknown>> }) => Promise<Response>;
const PARAMS = { nextauth: ['callback', 'credentials'], id: 'x', kbId: 'x', docId: 'x', path: ['x'], rest: ['x'] };
const SAME_ORIGIN = { origin: 'http://localhost:3000', 'content-type': 'application/x-www-form-urlencoded' };

describe('every route bounds a chunked body before reading it (docs/api.md §7.1)', () => {
  const cases = routeFiles().flatMap((file) => ['POST', 'PUT', 'PATCH', 'DELETE'].map((method) => [path.relative(APP, file), method, file] as const));

  it.each(cases)('%s %s', async (_name, method, file) => {
    const route = (await import(file)) as Record<string, Handler>;
    const { request, pulled } = endlessPost(urlOf(file), method, SAME_ORIGIN);
    const response = await route[method]!(request, { params: Promise.resolve(PARAMS) });
    expect(pulled(), 'bytes read').toBeLessThanOrEqual(LARGEST_EARLY_LIMIT + 2 * CHUNK);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = await response.json();
    expect(body).toMatchObject({ error: expect.any(String), request_id: response.headers.get('x-request-id') });
    if (response.status === 413) expect(body.error).toBe('payload_too_large');
  });

  it.each([
    ['the sign-in callback', 'api/auth/[...nextauth]/route.ts', 'http://localhost:3000/api/auth/callback/credentials', DEFAULT_BODY_LIMIT],
    ['the test checkout and Stripe checkout start', 'checkout/start/route.ts', 'http://localhost:3000/checkout/start', DEFAULT_BODY_LIMIT],
    ['the Stripe webhook', 'api/stripe/webhook/route.ts', 'http://localhost:3000/api/stripe/webhook', LARGEST_EARLY_LIMIT],
    ['the console’s Try-it', 'publish/listings/[kbId]/content/try/route.ts', 'http://localhost:3000/publish/listings/x/content/try', DEFAULT_BODY_LIMIT],
  ])('%s answers 413 payload_too_large after reading at most its limit', async (_name, file, url, limit) => {
    const route = (await import(path.join(APP, file))) as Record<string, Handler>;
    const { request, pulled } = endlessPost(url, 'POST', SAME_ORIGIN);
    const response = await route.POST!(request, { params: Promise.resolve(PARAMS) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: 'payload_too_large',
      message: `The request body is larger than ${limit} bytes, the limit of this endpoint.`,
      request_id: response.headers.get('x-request-id'),
    });
    expect(pulled()).toBeLessThanOrEqual(limit + 2 * CHUNK);
  });

  it('hands the handler the same body when it is within the limit', async () => {
    const route = (await import(path.join(APP, 'api/auth/[...nextauth]/route.ts'))) as Record<string, Handler>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('callbackUrl=tides'));
        controller.close();
      },
    });
    const request = new Request('http://localhost:3000/api/auth/signin/credentials', {
      method: 'POST',
      headers: SAME_ORIGIN,
      body,
      duplex: 'half',
    } as RequestInit);
    // The body was read by the limit and given on: next-auth's guard sees its callbackUrl and refuses it.
    const response = await route.POST!(request, { params: Promise.resolve({ nextauth: ['signin', 'credentials'] }) });
    expect([response.status, (await response.json()).message]).toEqual([400, 'callbackUrl must be a path on this site or an http(s) URL.']);
  });
});

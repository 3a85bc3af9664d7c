import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getKnowledgeBaseView, getPublisher, listPublisherKnowledgeBases } from '@/lib/catalog';
import { findPurchasablePlan, getCheckoutOutcome, revealHandoff } from '@/lib/billing';
import type { Executor } from '@/lib/platform/db';
import { HTTP_METHODS } from '@/lib/platform/route-methods';
import { getSubscriberStanding, getSubscriptionForUser } from '@/lib/subscriptions';
import { APP, routeFiles, urlOf } from '../support/app-routes';

/**
 * docs/api.md §7.1: every route answers every method itself, in JSON, and the paths no route serves under /api and
 * /kb are a JSON 404. Checked on every route file of app/, so a new route cannot forget a method.
 */

type Handler = (request: Request, context?: { params: Promise<Record<string, unknown>> }) => Promise<Response>;

describe('route handlers answer every method (docs/api.md §7.1)', () => {
  const files = routeFiles();

  it('finds the routes', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  it.each(files.map((file) => [path.relative(APP, file), file]))(
    '%s exports all seven methods; those it does not serve are a JSON 405 with one Allow',
    async (_name, file) => {
      const route = (await import(file)) as Record<string, Handler | undefined>;
      for (const method of HTTP_METHODS) expect(typeof route[method], `${method} of ${file}`).toBe('function');
      if (file.includes('[[...') || /app\/kb\/route\.ts$/.test(file)) return; // catch-alls: 404 on every method, below
      const allow = new Set<string>();
      const served: string[] = [];
      for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
        const response = await route[method]!(new Request(urlOf(file), { method }), { params: Promise.resolve({ nextauth: ['session'], id: 'x', kbId: 'x' }) });
        if (response.status !== 405) {
          served.push(method);
          continue;
        }
        expect(response.headers.get('x-request-id')).toMatch(/^req_/);
        expect(await response.json()).toEqual({ error: 'method_not_allowed', message: expect.any(String), request_id: response.headers.get('x-request-id') });
        allow.add(response.headers.get('allow') ?? '');
      }
      expect(allow.size, 'one Allow for every refused method').toBe(1);
      for (const method of served) expect([...allow][0]!.split(', '), `${method} is served, so Allow lists it`).toContain(method);
      expect([...allow][0]).toMatch(/^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)(, (GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS))*$/);
    },
  );
});

describe('paths no route serves under /api and /kb', () => {
  it.each([
    ['app/api/[[...path]]/route.ts', 'http://localhost/api/nope', { path: ['nope'] }],
    ['app/kb/route.ts', 'http://localhost/kb', {}],
    // OAuth and MCP clients probe these for metadata and registration.
    ['app/.well-known/[[...path]]/route.ts', 'http://localhost/.well-known/oauth-authorization-server', { path: ['oauth-authorization-server'] }],
    ['app/register/[[...path]]/route.ts', 'http://localhost/register', {}],
    ['app/kb/[kbId]/[[...rest]]/route.ts', 'http://localhost/kb/kb_x/search', { kb_id: 'kb_x', rest: ['search'] }],
  ])('%s answers %s with a JSON 404 not_found on every method', async (file, url, params) => {
    const route = (await import(path.resolve(APP, '..', file))) as Record<string, Handler>;
    for (const method of HTTP_METHODS) {
      const response = await route[method]!(new Request(url, { method }), { params: Promise.resolve(params) });
      expect([method, response.status]).toEqual([method, 404]);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      if (method !== 'HEAD')
        expect(await response.json()).toEqual({
          error: 'not_found',
          message: expect.stringContaining(new URL(url).pathname),
          request_id: response.headers.get('x-request-id'),
        });
    }
  });

  it('answers an action next-auth does not have with a JSON 404, and the wrong method for one it has with a 405', async () => {
    const route = (await import('@/app/api/auth/[...nextauth]/route')) as unknown as Record<'GET' | 'POST', Handler>;
    const unknown = await route.GET(new Request('http://localhost/api/auth/nope'), { params: Promise.resolve({ nextauth: ['nope'] }) });
    expect([unknown.status, (await unknown.json()).error]).toEqual([404, 'not_found']);
    const wrong = await route.POST(new Request('http://localhost/api/auth/providers', { method: 'POST' }), {
      params: Promise.resolve({ nextauth: ['providers'] }),
    });
    expect([wrong.status, wrong.headers.get('allow'), (await wrong.json()).error]).toEqual([405, 'GET, HEAD', 'method_not_allowed']);
  });

  it.each<[string, string, RequestInit, string[]]>([
    ['a query string that does not decode', 'http://localhost/api/auth/error?error=x%ED%A0%80', {}, ['error']],
    ['an error that is not a code (next-auth copies it into Location)', 'http://localhost/api/auth/error?error=a%0D%0ASet-Cookie:x', {}, ['error']],
    ['a callbackUrl that is neither a path nor an http(s) URL', 'http://localhost/api/auth/signin?callbackUrl=%252Faccount', {}, ['signin']],
    [
      'a callback-url cookie next-auth would refuse',
      'http://localhost/api/auth/session',
      { headers: { cookie: 'next-auth.callback-url=javascript:alert(1)' } },
      ['session'],
    ],
    [
      'a JSON body that does not parse',
      'http://localhost/api/auth/session',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' },
      ['session'],
    ],
    [
      'a body callbackUrl that is not a URL',
      'http://localhost/api/auth/signin/credentials',
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'callbackUrl=tides' },
      ['signin', 'credentials'],
    ],
  ])("refuses %s with 400 invalid_request instead of next-auth's 500", async (_name, url, init, nextauth) => {
    const route = (await import('@/app/api/auth/[...nextauth]/route')) as unknown as Record<'GET' | 'POST', Handler>;
    const response = await route[(init.method ?? 'GET') as 'GET' | 'POST'](new Request(url, init), { params: Promise.resolve({ nextauth }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_request', message: expect.any(String), request_id: response.headers.get('x-request-id') });
  });

  it('answers a provider or error segment that is not a word with 404 (next-auth would copy it into a Location header)', async () => {
    const route = (await import('@/app/api/auth/[...nextauth]/route')) as unknown as Record<'GET' | 'POST', Handler>;
    const response = await route.GET(new Request('http://localhost/api/auth/error/%3Cscript%3E%1B'), {
      params: Promise.resolve({ nextauth: ['error', '<script>\u001b'] }),
    });
    expect([response.status, (await response.json()).error]).toEqual([404, 'not_found']);
  });

  it("answers a GET of the password provider's callback with 405 (next-auth answers 500)", async () => {
    const route = (await import('@/app/api/auth/[...nextauth]/route')) as unknown as Record<'GET' | 'POST', Handler>;
    const response = await route.GET(new Request('http://localhost/api/auth/callback/credentials'), {
      params: Promise.resolve({ nextauth: ['callback', 'credentials'] }),
    });
    expect([response.status, response.headers.get('allow')]).toEqual([405, 'POST']);
  });
});

describe('lookups by an id from a URL or a form (docs/api.md §7.2)', () => {
  /** A database whose every use throws: an id no row can have must be answered without one. */
  const poisoned = new Proxy(
    {},
    {
      get: () => {
        throw new Error('the database was touched');
      },
    },
  ) as unknown as Executor;

  it.each(['kb_\u0000', 'x\u001b', 'sub_\u007f', 'a\ud800'])('answers %j as "not found" without touching the database', async (id) => {
    expect(await getKnowledgeBaseView(id, poisoned)).toBeNull();
    expect(await getPublisher(id, poisoned)).toBeNull();
    expect(await listPublisherKnowledgeBases(id, poisoned)).toEqual([]);
    expect(await findPurchasablePlan(poisoned, id)).toBeNull();
    expect(await revealHandoff(poisoned, 'usr_x', id)).toBeNull();
    expect(await getCheckoutOutcome(poisoned, { userId: 'usr_x', handoffId: id })).toEqual({ status: 'pending' });
    expect(await getCheckoutOutcome(poisoned, { userId: 'usr_x', checkoutSessionId: id })).toEqual({ status: 'pending' });
    expect(await getSubscriptionForUser(poisoned, 'usr_x', id)).toMatchObject({ ok: false, code: 'not_found' });
    expect(await getSubscriberStanding(poisoned, 'usr_x', id)).toBeNull();
  });
});

import { readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_HANDLERS, screenNodeRequest, screenRequest, type ScreenedRequest } from './front-door';

const get = (target: string, extra: Partial<ScreenedRequest> = {}): ScreenedRequest => ({ method: 'GET', target, headers: { host: 'almanac.test' }, ...extra });
const code = (request: ScreenedRequest) => screenRequest(request)?.code ?? null;
const json = (request: ScreenedRequest) => screenRequest(request)?.json;

describe('the front door (docs/api.md §7.1)', () => {
  it.each(['/kb/%ZZ/query', '/kb/%C3%28/query', '/kb/%/query', '/api/%ZZ', '/api/marketplace/knowledge-bases/%ED%A0%80', '/kb/a%E2%82/query'])(
    'refuses the undecodable API path %s with a JSON invalid_path',
    (target) => {
      expect(screenRequest(get(target))).toEqual({ code: 'invalid_path', message: expect.any(String), json: true });
    },
  );

  it('refuses undecodable page paths too, as a page', () => {
    expect(screenRequest(get('/knowledge-bases/%ZZ'))).toMatchObject({ code: 'invalid_path', json: false });
    expect(screenRequest(get('/%C3%28'))).toMatchObject({ code: 'invalid_path', json: false });
  });

  it('classifies by the path Next routes: dot segments resolved', () => {
    expect(json(get('/api/../%ZZ'))).toBe(false);
    expect(json(get('/knowledge-bases/../api/%ZZ'))).toBe(true);
    expect(json(get('/api/%2e%2e/%ZZ'))).toBe(false);
  });

  it('passes well-formed requests on, query strings untouched (the routes judge them)', () => {
    for (const target of ['/', '/api/health', '/kb/kb_abc/query', '/api/marketplace/knowledge-bases?query=%ZZ', '/knowledge-bases/', '/api/./health', '/kb/%00/query', '/signin?callbackUrl=%2F']) {
      expect(code(get(target)), target).toBeNull();
    }
  });

  it('refuses request targets that are not paths', () => {
    expect(screenRequest(get('*', { method: 'OPTIONS' }))).toMatchObject({ code: 'invalid_path', json: true });
    expect(screenRequest(get('http://evil.example/api/health'))).toMatchObject({ code: 'invalid_path', json: true });
    expect(screenRequest(get('http://evil.example/signin'))).toMatchObject({ code: 'invalid_path', json: false });
  });

  it('answers methods outside the seven with 501', () => {
    for (const method of ['TRACE', 'PROPFIND', 'CONNECT', 'M-SEARCH']) {
      expect(screenRequest(get('/api/health', { method }))).toMatchObject({ code: 'not_implemented', json: true });
      expect(screenRequest(get('/signin', { method }))).toMatchObject({ code: 'not_implemented', json: false });
    }
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) expect(code(get('/api/health', { method }))).toBeNull();
  });

  it('answers empty segments, backslashes and trailing slashes under /api and /kb with 404 instead of a redirect', () => {
    for (const target of ['/kb//query', '/kb/x/query/', '/api/health/', '/api//health', '//api/health', '/api\\health', '/api/marketplace/knowledge-bases/?page=2']) {
      expect(screenRequest(get(target, { method: 'POST' })), target).toMatchObject({ code: 'not_found', json: true });
    }
    for (const target of ['/knowledge-bases/', '/account//keys', '/']) expect(code(get(target)), target).toBeNull();
  });

  describe('cross-site posts Next would take for server actions', () => {
    const post = (headers: http.IncomingHttpHeaders, target = '/signup'): ScreenedRequest => ({ method: 'POST', target, headers: { host: 'almanac.test', ...headers } });
    const form = { 'content-type': 'multipart/form-data; boundary=x' };

    it.each<[string, http.IncomingHttpHeaders]>([
      ['a foreign Origin, multipart', { ...form, origin: 'https://evil.example' }],
      ['a foreign Origin, urlencoded', { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }],
      ['a foreign Origin, Next-Action', { 'next-action': 'abc', 'content-type': 'text/plain;charset=UTF-8', origin: 'http://evil.example' }],
      ['Origin: null', { ...form, origin: 'null' }],
      ['an unreadable Origin', { ...form, origin: 'not a url' }],
      ['the same host on another port', { ...form, origin: 'http://almanac.test:8080' }],
      ['no Host at all', { ...form, origin: 'http://almanac.test', host: undefined }],
    ])('refuses %s with a 403 page', (_name, headers) => {
      expect(screenRequest(post(headers))).toEqual({ code: 'forbidden', message: expect.any(String), json: false });
    });

    it.each<[string, http.IncomingHttpHeaders, string?]>([
      ['the same host', { ...form, origin: 'http://almanac.test' }],
      ['no Origin (Next lets it through with a warning)', { ...form }],
      ['X-Forwarded-Host naming the Origin', { ...form, origin: 'https://almanac.example', 'x-forwarded-host': 'almanac.example, proxy' }],
      ['a JSON post (not an action)', { 'content-type': 'application/json', origin: 'https://evil.example' }],
      ['a route handler that checks its own posts', { ...form, origin: 'https://evil.example' }, '/checkout/start'],
      ['an API path (JSON, judged by its route)', { ...form, origin: 'https://evil.example' }, '/api/stripe/webhook'],
    ])('passes %s on', (_name, headers, target) => {
      expect(code(post(headers, target))).toBeNull();
    });
  });

  it('lists every route handler outside app/api and app/kb in FORM_HANDLERS', () => {
    const app = path.resolve(import.meta.dirname, '..', '..', 'app');
    const routes: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (/^route\.(ts|tsx|js)$/.test(name)) routes.push(path.relative(app, dir));
      }
    };
    walk(app);
    const outside = routes
      .filter((route) => !/^(api|kb)(\/|$)/.test(route))
      .map((route) => `/${route.split(path.sep).filter((segment) => !/^\(.*\)$/.test(segment)).join('/')}`);
    expect(outside.sort()).toEqual([...FORM_HANDLERS].sort());
  });
});

describe('screenNodeRequest over HTTP', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (!screenNodeRequest(req, res)) res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (method: string, target: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const request = http.request(`${base}${target}`, { method, headers, path: target }, (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      });
      request.on('error', reject);
      request.end();
    });

  it('answers API refusals as JSON error bodies with X-Request-Id', async () => {
    const reply = await send('POST', '/kb/%ZZ/query');
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.headers['x-request-id']).toMatch(/^req_[0-9A-Za-z]{16}$/);
    expect(JSON.parse(reply.body)).toEqual({ error: 'invalid_path', message: expect.any(String), request_id: reply.headers['x-request-id'] });
    const slash = await send('GET', '/kb//query');
    expect([slash.status, JSON.parse(slash.body).error]).toEqual([404, 'not_found']);
    const trace = await send('TRACE', '/api/health');
    expect([trace.status, JSON.parse(trace.body).error]).toEqual([501, 'not_implemented']);
  });

  it('answers page refusals as a page, HEAD without a body, and passes the rest', async () => {
    const page = await send('POST', '/signup', { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(page.status).toBe(403);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['x-request-id']).toMatch(/^req_/);
    expect(page.body).toContain('another site');
    const head = await send('HEAD', '/knowledge-bases/%ZZ');
    expect([head.status, head.body]).toEqual([400, '']);
    expect((await send('GET', '/api/health')).status).toBe(204);
  });
});

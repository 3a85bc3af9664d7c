import { readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_BODY_LIMIT, actionBodyProblem } from './action-body';
import { FORM_HANDLERS, isFormHandlerPath, screenNodeRequest, screenRequest, type ScreenedRequest } from './front-door';

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

  it('answers in JSON for a path that is under /api or /kb as sent or as Next routes it', () => {
    expect(json(get('/api/../%ZZ'))).toBe(true);
    expect(json(get('/knowledge-bases/../api/%ZZ'))).toBe(true);
    expect(json(get('/api/%2e%2e/%ZZ'))).toBe(true);
    expect(json(get('/knowledge-bases/%ZZ'))).toBe(false);
  });

  it.each(['/kb/../query', '/kb/%2e%2e/query', '/kb/x/../../signin', '/api/../knowledge-bases', '/api/%2E%2E/%2e%2e/account', '/dify/../x'])(
    'refuses %s, which climbs out of the API, with a JSON not_found',
    (target) => {
      expect(screenRequest(get(target, { method: 'POST' }))).toEqual({ code: 'not_found', message: expect.stringContaining('..'), json: true });
    },
  );

  it('passes well-formed requests on, query strings untouched (the routes judge them)', () => {
    for (const target of [
      '/',
      '/api/health',
      '/kb/kb_abc/query',
      '/api/marketplace/knowledge-bases?query=%ZZ',
      '/knowledge-bases/',
      '/api/./health',
      '/kb/%00/query',
      '/signin?callbackUrl=%2F',
    ]) {
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

  it('answers empty segments, a final dot segment, backslashes and trailing slashes under /api and /kb with 404 instead of a redirect', () => {
    const dots = ['/kb/x/query/.', '/kb/x/query/%2e', '/kb/x/%2E%2e', '/api/health/.', '/api/marketplace/knowledge-bases/..', '/api/openapi.json/.'];
    for (const target of [
      '/kb//query',
      '/kb/x/query/',
      '/api/health/',
      '/api//health',
      '//api/health',
      '/api\\health',
      '/api/marketplace/knowledge-bases/?page=2',
      ...dots,
    ]) {
      expect(screenRequest(get(target, { method: 'POST' })), target).toMatchObject({ code: 'not_found', json: true });
    }
    for (const target of ['/knowledge-bases/', '/account//keys', '/', '/kb/x/query.json', '/api/.well', '/knowledge-bases/./x']) {
      expect(code(get(target)), target).toBeNull();
    }
  });

  it('refuses an RSC request whose router state Next cannot read (it would answer a 500)', () => {
    const rsc = (tree: string, extra: http.IncomingHttpHeaders = {}) =>
      get('/nope', { headers: { host: 'almanac.test', rsc: '1', 'next-router-state-tree': tree, ...extra } });
    for (const tree of ['[', 'garbage', '%ZZ', encodeURIComponent('{"a":1}'), 'x'.repeat(50_000)]) {
      expect(screenRequest(rsc(tree)), tree.slice(0, 20)).toMatchObject({ code: 'invalid_request', json: false });
    }
    expect(code(rsc(encodeURIComponent('["",{"children":["__PAGE__",{}]}]')))).toBeNull();
    expect(code(get('/nope', { headers: { host: 'almanac.test', 'next-router-state-tree': '[' } }))).toBeNull(); // not an RSC request: not read
  });

  describe('cross-site posts Next would take for server actions', () => {
    const post = (headers: http.IncomingHttpHeaders, target = '/signup'): ScreenedRequest => ({
      method: 'POST',
      target,
      headers: { host: 'almanac.test', ...headers },
    });
    const form = { 'content-type': 'multipart/form-data; boundary=x' };

    it.each<[string, http.IncomingHttpHeaders]>([
      ['a foreign Origin, multipart', { ...form, origin: 'https://evil.example' }],
      ['a foreign Origin, urlencoded', { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }],
      ['a foreign Origin, Next-Action', { 'next-action': 'abc', 'content-type': 'text/plain;charset=UTF-8', origin: 'http://evil.example' }],
      ['Origin: null', { ...form, origin: 'null' }],
      ['an unreadable Origin', { ...form, origin: 'not a url' }],
      ['the same host on another port', { ...form, origin: 'http://almanac.test:8080' }],
      ['no Host at all', { ...form, origin: 'http://almanac.test', host: undefined }],
      ['no Origin and no Referer', { ...form }],
      ['no Origin and a foreign Referer', { ...form, referer: 'https://evil.example/page' }],
      ['no Origin, urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }],
    ])('refuses %s with a 403 page', (_name, headers) => {
      expect(screenRequest(post(headers))).toEqual({ code: 'forbidden', message: expect.any(String), json: false });
    });

    it.each<[string, http.IncomingHttpHeaders, string?]>([
      ['the same host', { ...form, origin: 'http://almanac.test' }],
      ['no Origin but a Referer on this site', { ...form, referer: 'http://almanac.test/signup' }],
      ['X-Forwarded-Host naming the Origin', { ...form, origin: 'https://almanac.example', 'x-forwarded-host': 'almanac.example, proxy' }],
      ['a JSON post (not an action)', { 'content-type': 'application/json', origin: 'https://evil.example' }],
      ['a route handler that checks its own posts', { ...form, origin: 'https://evil.example' }, '/checkout/start'],
      ['an API path (JSON, judged by its route)', { ...form, origin: 'https://evil.example' }, '/api/stripe/webhook'],
    ])('passes %s on', (_name, headers, target) => {
      expect(code(post(headers, target))).toBeNull();
    });
  });

  it('matches form handlers by their folder patterns, catch-all segments included', () => {
    for (const path of [
      '/oauth/token',
      '/.well-known/oauth-protected-resource/kb/kb_1/mcp',
      '/.well-known/anything',
      '/register',
      '/register/a/b',
      '/publish/listings/kb_1/content/try',
    ]) {
      expect(isFormHandlerPath(path), path).toBe(true);
    }
    for (const path of ['/publish/listings/a/b/content/try', '/oauth/authorize', '/checkout']) expect(isFormHandlerPath(path), path).toBe(false);
  });

  it('lists every route handler outside app/api, app/kb and app/dify in FORM_HANDLERS', () => {
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
      .filter((route) => !/^(api|kb|dify)(\/|$)/.test(route))
      .map(
        (route) =>
          `/${route
            .split(path.sep)
            .filter((segment) => !/^\(.*\)$/.test(segment))
            .join('/')}`,
      );
    expect(outside.sort()).toEqual([...FORM_HANDLERS].sort());
  });

  it.each([
    ['/checkout/start', true],
    ['/publish/listings/kb_abc123/content/documents', true],
    ['/publish/listings/kb_abc123/content/documents/doc_9', true],
    ['/publish/listings/kb_abc123/content', false],
    ['/publish/listings/kb_a/b/content/try', false],
    ['/checkout/start/x', false],
  ])('isFormHandlerPath(%s) is %s (dynamic segments match one segment)', (routed, expected) => {
    expect(isFormHandlerPath(routed)).toBe(expected);
  });
});

const ID = 'a'.repeat(42);
const BOUNDARY = 'b0undary';
const multipart = (fields: [string, string][], end = `--${BOUNDARY}--\r\n`) =>
  Buffer.from(fields.map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') + end);
const formType = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
const fetchText = { 'next-action': ID, 'content-type': 'text/plain;charset=UTF-8' };
const fetchForm = { 'next-action': ID, ...formType };

describe('server-action bodies Next could not decode (it answers them with a 500)', () => {
  it.each<[string, http.IncomingHttpHeaders, Buffer]>([
    ['a multipart body cut short', formType, multipart([['a', 'b']], `--${BOUNDARY}`)],
    ['a multipart body with another boundary', formType, Buffer.from('--other\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--other--\r\n')],
    [
      'a descriptor that is not JSON',
      formType,
      multipart([
        ['$ACTION_REF_1', ''],
        ['$ACTION_1:0', '{"id":"' + ID + '",'],
        ['$ACTION_1:1', '[]'],
      ]),
    ],
    [
      'an action id of the wrong length',
      formType,
      multipart([
        ['$ACTION_REF_1', ''],
        ['$ACTION_1:0', '{"id":"1e309","bound":null}'],
      ]),
    ],
    ['a direct action id of the wrong length', formType, multipart([['$ACTION_ID_abc', '']])],
    [
      'bound arguments that are not a list',
      formType,
      multipart([
        ['$ACTION_REF_1', ''],
        ['$ACTION_1:0', `{"id":"${ID}","bound":"$@1"}`],
        ['$ACTION_1:1', 'null'],
      ]),
    ],
    [
      'inline bound arguments that are not a list',
      formType,
      multipart([
        ['$ACTION_REF_1', ''],
        ['$ACTION_1:0', `{"id":"${ID}","bound":42}`],
      ]),
    ],
    [
      'bound arguments that are missing',
      formType,
      multipart([
        ['$ACTION_REF_1', ''],
        ['$ACTION_1:0', `{"id":"${ID}","bound":"$@1"}`],
      ]),
    ],
    [
      'a reference sent as a file, with a descriptor that is not JSON',
      formType,
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="$ACTION_REF_2"; filename="a.txt"\r\n\r\n\r\n` +
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="$ACTION_2:0"\r\n\r\n{"id":"${ID}","bound":null}\u0000\r\n--${BOUNDARY}--\r\n`,
      ),
    ],
    [
      'a descriptor sent as a file',
      formType,
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="$ACTION_REF_1"\r\n\r\n\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="$ACTION_1:0"; filename="d"\r\n\r\n{}\r\n--${BOUNDARY}--\r\n`,
      ),
    ],
    ['a fetch reply without its root part', fetchForm, multipart([['1_name', 'x']])],
    ['a fetch reply whose root is not JSON', fetchForm, multipart([['0', '[']])],
    ['a fetch reply naming a part it lacks', fetchForm, multipart([['0', '["$@5"]']])],
    ['a text reply that is not JSON', fetchText, Buffer.from('[')],
    ['a text reply that is not an array', fetchText, Buffer.from('{}')],
    ['a text reply with a part reference', fetchText, Buffer.from('["$K1"]')],
    ['a text reply that is not UTF-8', fetchText, Buffer.from([0x5b, 0x22, 0xc3, 0x28, 0x22, 0x5d])],
    ['a text reply nested thousands deep (React would overflow its stack)', fetchText, Buffer.from(`${'['.repeat(5_000)}${']'.repeat(5_000)}`)],
  ])('refuses %s', async (_name, headers, body) => {
    expect(await actionBodyProblem(headers, body)).toMatch(/\S/);
  });

  it.each<[string, http.IncomingHttpHeaders, Buffer]>([
    [
      'a form posted without JavaScript',
      formType,
      multipart([
        ['$ACTION_REF_1', ''],
        ['$ACTION_1:0', `{"id":"${ID}","bound":"$@1"}`],
        ['$ACTION_1:1', '[{}]'],
        ['$ACTION_KEY', 'k1'],
        ['email', 'a@b.c'],
      ]),
    ],
    [
      'a direct action id',
      formType,
      multipart([
        [`$ACTION_ID_${ID}`, ''],
        ['planId', 'plan_x'],
      ]),
    ],
    [
      'a fetch reply with its form data',
      fetchForm,
      multipart([
        ['1_subscriptionId', 'sub_x'],
        ['0', '["$K1"]'],
      ]),
    ],
    [
      'a fetch reply with a state and a form',
      fetchForm,
      multipart([
        ['1_query', 'tides'],
        ['0', '[{"status":"idle","note":"$$5"},"$K1"]'],
      ]),
    ],
    ['a text reply of plain values', fetchText, Buffer.from('[{"a":1},"$undefined","$D2026-01-01"]')],
  ])('passes %s on', async (_name, headers, body) => {
    expect(await actionBodyProblem(headers, body)).toBeNull();
  });
});

describe('screenNodeRequest over HTTP', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const screened = screenNodeRequest(req, res);
      if (screened === false) res.writeHead(204).end();
      else if (screened !== true) {
        // What Next does with the copy: read its body.
        void screened.then(async (copy) => {
          if (!copy) return;
          const chunks: Buffer[] = [];
          for await (const chunk of copy) chunks.push(chunk as Buffer);
          res.writeHead(200).end(Buffer.concat(chunks));
        });
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (method: string, target: string, headers: Record<string, string> = {}, body?: Buffer) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const request = http.request(`${base}${target}`, { method, headers, path: target }, (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      });
      request.on('error', reject);
      request.end(body);
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

  it('reads a server action body once, refuses it when Next could not decode it, else hands over the same bytes', async () => {
    const good = multipart([
      [`$ACTION_ID_${ID}`, ''],
      ['planId', 'plan_x'],
    ]);
    const passed = await send('POST', '/checkout/test?planId=plan_x', { Origin: base, 'Content-Type': formType['content-type'] }, good);
    expect([passed.status, passed.body]).toEqual([200, good.toString()]);
    const broken = await send('POST', '/signup', { Origin: base, 'Content-Type': formType['content-type'] }, multipart([['a', 'b']], `--${BOUNDARY}`));
    expect([broken.status, broken.headers['content-type']]).toEqual([400, 'text/html; charset=utf-8']);
    const large = await send('POST', '/signup', { Origin: base, 'Content-Type': formType['content-type'] }, Buffer.alloc(ACTION_BODY_LIMIT + 1, 0x61));
    expect(large.status).toBe(413);
    const notAction = await send('POST', '/signup', { Origin: base, 'Content-Type': 'application/x-www-form-urlencoded' }, Buffer.from('a=b'));
    expect(notAction.status).toBe(204);
    // A route handler reads its own body under its own limit: a document upload (up to MAX_UPLOAD_BYTES) is no action.
    const upload = await send(
      'POST',
      '/publish/listings/kb_abc123/content/documents',
      { Origin: base, 'Content-Type': formType['content-type'] },
      Buffer.alloc(ACTION_BODY_LIMIT + 1, 0x61),
    );
    expect(upload.status).toBe(204);
  });
});

import '../support/gateway-env';
import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryLog, usagePeriods } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import { getUsageRecorder } from '@/lib/gateway/usage-recorder';
import { createTestDatabase } from '../support/db';
import { LOG_FILE } from '../support/gateway-env';
import { callGatewayOverHttp, jsonQuery } from '../support/gateway-client';
import { listenGatewayServer } from '../support/gateway-server';
import {
  buyKey,
  createHttpKnowledgeBase,
  createPublisher,
  startExamplePublisher,
  startMisbehavingPublisher,
  type BoughtKey,
  type RunningPublisher,
} from '../support/gateway-fixtures';
import { expectLogsFreeOfSecrets, rememberSecret } from '../support/log-scan';
import { OpenApiChecker } from '../support/openapi-check';

/**
 * What only the fast lane (lib/server/keyed-lane.ts, served by `npm start`) does on the wire: HEAD, gzip, a buyer who
 * hangs up, repeated headers. The check order (docs/api.md §3.2) runs on both faces in gateway-security.test.ts.
 */
const openapi = new OpenApiChecker();
let handle: DatabaseHandle;
let server: Awaited<ReturnType<typeof listenGatewayServer>>;
let publisher: RunningPublisher;
let bad: Awaited<ReturnType<typeof startMisbehavingPublisher>>;
let pub: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  server = await listenGatewayServer();
  publisher = await startExamplePublisher();
  bad = await startMisbehavingPublisher({ slowMs: 5_000 });
  rememberSecret(publisher.infraKey, publisher.signingSecret);
  pub = await createPublisher(handle.db);
});

afterAll(async () => {
  await server?.close();
  await publisher?.stop();
  await bad?.stop();
});

async function knowledgeBaseAt(path: string, timeoutMs = 10_000): Promise<string> {
  return createHttpKnowledgeBase(handle.db, pub, {
    endpointUrl: `${bad.base}${path}`,
    infraKey: publisher.infraKey,
    signingSecret: publisher.signingSecret,
    timeoutMs,
  });
}

async function buy(kbId: string, cap = 100): Promise<BoughtKey> {
  const k = await buyKey(handle.db, kbId, { cap, perMinute: 1_000 });
  rememberSecret(k.key);
  return k;
}

const ask = (k: BoughtKey, headers: Record<string, string> = {}) =>
  callGatewayOverHttp(server.url, { kbId: k.kbId, authorization: `Bearer ${k.key}`, body: jsonQuery('When does the tide turn?'), headers });

/** A POST with these headers (an array value goes out as repeated header lines), answered with status, headers and body text. */
function rawPost(
  path: string,
  headers: Record<string, string | string[]>,
  body: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${server.url}${path}`,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('the fast lane on the wire', () => {
  it('a method outside the seven is 501 not_implemented on every keyed path, as the front door answers elsewhere', async () => {
    for (const path of ['/kb/kb_any/query', '/kb/kb_any/search', '/kb/kb_any/usage', '/kb/kb_any/mcp']) {
      const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .request(`${server.url}${path}`, { method: 'PROPFIND' }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          })
          .on('error', reject)
          .end();
      });
      expect(reply.status, path).toBe(501);
      expect(JSON.parse(reply.body)).toMatchObject({ error: 'not_implemented', request_id: expect.stringMatching(/^req_/) });
    }
  });

  it('HEAD is 405 with Allow: POST and no body', async () => {
    const reply = await new Promise<http.IncomingMessage & { bytes: number }>((resolve, reject) => {
      http
        .request(`${server.url}/kb/kb_any/query`, { method: 'HEAD' }, (res) => {
          let bytes = 0;
          res.on('data', (c: Buffer) => (bytes += c.length));
          res.on('end', () => resolve(Object.assign(res, { bytes })));
        })
        .on('error', reject)
        .end();
    });
    expect(reply.statusCode).toBe(405);
    expect(reply.headers.allow).toBe('POST');
    expect(reply.headers['x-request-id']).toMatch(/^req_/);
    expect(reply.bytes).toBe(0);
  });

  it('gzips an answer of 1 KiB or more when the client accepts gzip, and only then', async () => {
    const k = await buy(await knowledgeBaseAt('/long'));
    const plain = await ask(k);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    const plainLength = Number(plain.headers.get('Content-Length'));
    expect(plainLength).toBeGreaterThan(1_024);

    const zipped = await ask(k, { 'Accept-Encoding': 'br;q=1, gzip;q=0.8' });
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get('Content-Encoding')).toBe('gzip');
    expect(zipped.headers.get('Vary')).toBe('Accept-Encoding');
    expect(Number(zipped.headers.get('Content-Length'))).toBeLessThan(plainLength / 4);
    expect(zipped.body).toEqual(plain.body);
    openapi.expectConforms('/kb/{kb_id}/query', 'POST', zipped);

    for (const refused of ['identity', 'gzip;q=0', '*;q=0', 'br']) {
      expect((await ask(k, { 'Accept-Encoding': refused })).headers.get('Content-Encoding'), refused).toBeNull();
    }
    expect((await ask(k, { 'Accept-Encoding': '*' })).headers.get('Content-Encoding')).toBe('gzip');
  });

  it('sends a short answer as it is, even when gzip is accepted', async () => {
    const k = await buy(await knowledgeBaseAt('/ok'));
    const reply = await ask(k, { 'Accept-Encoding': 'gzip' });
    expect(reply.status).toBe(200);
    expect(Number(reply.headers.get('Content-Length'))).toBeLessThan(1_024);
    expect(reply.headers.get('Content-Encoding')).toBeNull();
  });

  it('a buyer who hangs up stops the publisher call and gets the cap unit back', async () => {
    const k = await buy(await knowledgeBaseAt('/slow'), 5);
    const hangUp = new AbortController();
    const call = callGatewayOverHttp(server.url, { kbId: k.kbId, authorization: `Bearer ${k.key}`, body: jsonQuery('tides') }, { signal: hangUp.signal });
    // Wait until the unit is reserved (the publisher is holding the call), then hang up.
    const used = async () =>
      (await handle.db.select({ used: usagePeriods.used }).from(usagePeriods).where(eq(usagePeriods.subscriptionId, k.subscriptionId)))[0]?.used ?? 0;
    const deadline = Date.now() + 3_000;
    while ((await used()) < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await used()).toBe(1);
    const hungUpAt = Date.now();
    hangUp.abort();
    await expect(call).rejects.toThrow();
    // Long before the publisher's 5 s answer, the unit is back and the log says why.
    while ((await used()) > 0 && Date.now() - hungUpAt < 2_000) await new Promise((r) => setTimeout(r, 20));
    expect(await used()).toBe(0);
    expect(Date.now() - hungUpAt).toBeLessThan(2_000);
    await getUsageRecorder().flush();
    const logged = await handle.db.select().from(queryLog).where(eq(queryLog.subscriptionId, k.subscriptionId));
    expect(logged.map((l) => [l.status, l.errorCode])).toEqual([[502, 'publisher_error']]);
  });

  it('reads repeated Authorization headers as the fetch API does (joined), so two keys are no key', async () => {
    const k = await buy(await knowledgeBaseAt('/ok'));
    const once = await rawPost(`/kb/${k.kbId}/query`, { Authorization: `Bearer ${k.key}`, 'Content-Type': 'application/json' }, jsonQuery('tides'));
    expect(once.status).toBe(200);
    const twice = await rawPost(
      `/kb/${k.kbId}/query`,
      { Authorization: [`Bearer ${k.key}`, `Bearer ${k.key}`], 'Content-Type': 'application/json' },
      jsonQuery('tides'),
    );
    expect(twice.status).toBe(401);
    expect(JSON.parse(twice.text).error).toBe('invalid_api_key');
  });

  it('serves the path with a query string, and leaves every other path alone', async () => {
    const k = await buy(await knowledgeBaseAt('/ok'));
    const withQuery = await rawPost(
      `/kb/${k.kbId}/query?trace=1`,
      { Authorization: `Bearer ${k.key}`, 'Content-Type': 'application/json' },
      jsonQuery('tides'),
    );
    expect(withQuery.status).toBe(200);
    // Not the gateway's: the test server answers a bare 404 (under npm start, Next answers these paths).
    for (const path of [`/kb/${k.kbId}/query/`, `/kb/${k.kbId}/queries`, `/kb/${k.kbId}/query/extra`, '/kb//query']) {
      expect((await rawPost(path, { Authorization: `Bearer ${k.key}` }, '')).status, path).toBe(404);
    }
  });

  it('logs hold no issued key and no publisher secret', () => {
    expectLogsFreeOfSecrets([LOG_FILE]);
  });
});

describe('streaming on the fast lane (docs/api.md §10.4)', () => {
  it('streams citations, deltas and done over HTTP, and counts once', async () => {
    const kbId = await knowledgeBaseAt('/ok');
    const k = await buy(kbId, 5);
    const reply = await rawPost(
      `/kb/${kbId}/query`,
      { Authorization: `Bearer ${k.key}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      jsonQuery('When does the tide turn?'),
    );
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(reply.headers['x-request-id']).toMatch(/^req_/);
    const events = reply.text
      .split('\n\n')
      .filter((f) => f.startsWith('event:'))
      .map((f) => f.split('\n')[0]!.slice(7));
    expect(events[0]).toBe('citations');
    expect(events.at(-1)).toBe('done');
    expect(events.slice(1, -1).every((e) => e === 'delta')).toBe(true);
    const [row] = await handle.db.select({ used: usagePeriods.used }).from(usagePeriods).where(eq(usagePeriods.subscriptionId, k.subscriptionId));
    expect(row!.used).toBe(1);
  });

  it('a refusal before the stream is JSON', async () => {
    const kbId = await knowledgeBaseAt('/ok');
    const reply = await rawPost(`/kb/${kbId}/query`, { 'Content-Type': 'application/json', Accept: 'text/event-stream' }, jsonQuery('tides'));
    expect(reply.status).toBe(401);
    expect(reply.headers['content-type']).toContain('application/json');
    expect(JSON.parse(reply.text).error).toBe('missing_api_key');
  });
});

describe('the agent endpoints on the fast lane (docs/api.md §10)', () => {
  it('serves search, usage, Dify retrieval and MCP with the same answers as the route handlers', async () => {
    const kbId = await knowledgeBaseAt('/ok');
    const k = await buy(kbId, 10);
    const auth = { Authorization: `Bearer ${k.key}`, 'Content-Type': 'application/json' };
    const search = await rawPost(`/kb/${kbId}/search`, auth, JSON.stringify({ query: 'tides', top_k: 2 }));
    expect(search.status).toBe(200);
    expect(JSON.parse(search.text).results.length).toBeGreaterThan(0);
    const usage = await fetch(`${server.url}/kb/${kbId}/usage`, { headers: { Authorization: `Bearer ${k.key}` } });
    expect(usage.status).toBe(200);
    expect(await usage.json()).toMatchObject({ used: 1, cap: 10 });
    const dify = await rawPost('/dify/retrieval', auth, JSON.stringify({ knowledge_id: kbId, query: 'tides', retrieval_setting: { top_k: 1 } }));
    expect(dify.status).toBe(200);
    expect(JSON.parse(dify.text).records).toHaveLength(1);
    const mcp = await rawPost(
      `/kb/${kbId}/mcp`,
      { ...auth, Accept: 'application/json, text/event-stream' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: { query: 'tides' } } }),
    );
    expect(mcp.status).toBe(200);
    expect(mcp.headers['x-request-id']).toMatch(/^req_/);
    expect(JSON.parse(mcp.text).result.structuredContent.usage.used).toBe(3);
    // Anything but a tool call goes to the SDK through the Request bridge, with the body already read.
    const init = await rawPost(
      `/kb/${kbId}/mcp`,
      { ...auth, Accept: 'application/json, text/event-stream' },
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
      }),
    );
    expect(init.status).toBe(200);
    expect(JSON.parse(init.text).result.protocolVersion).toBe('2025-06-18');
    // A refused key is a JSON-RPC error carrying the error body, with its status and challenge, on this lane too.
    const refused = await rawPost(
      `/kb/${kbId}/mcp`,
      { ...auth, Authorization: 'Bearer alm_sk_live_nope', Accept: 'application/json, text/event-stream' },
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    );
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(JSON.parse(refused.text)).toMatchObject({ jsonrpc: '2.0', id: 3, error: { code: -32001, data: { error: 'invalid_api_key' } } });
    // The Dify endpoint's path as a base URL with a trailing slash makes it.
    expect((await rawPost('/dify//retrieval', auth, JSON.stringify({ knowledge_id: kbId, query: 'tides', retrieval_setting: { top_k: 1 } }))).status).toBe(200);
    const huge = await rawPost(`/kb/${kbId}/mcp`, { ...auth, Accept: 'application/json, text/event-stream' }, JSON.stringify({ pad: 'x'.repeat(17 * 1024) }));
    expect(huge.status).toBe(413);
    const wrong = await fetch(`${server.url}/kb/${kbId}/search`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    // No server stream on GET (docs/api.md §10.1): a 405 in the standard shape, not an event stream.
    const stream = await fetch(`${server.url}/kb/${kbId}/mcp`, { headers: { ...auth, Accept: 'text/event-stream' } });
    expect(stream.status).toBe(405);
    expect(stream.headers.get('allow')).toBe('POST');
    expect((await stream.json()).error).toBe('method_not_allowed');
  });
});

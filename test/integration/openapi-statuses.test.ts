import '../support/gateway-env';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/db/client';
import { MAX_BODY_BYTES } from '@/lib/gateway';
import { createTestDatabase } from '../support/db';
import { buyKey, createKnowledgeBase, createPublisher, type BoughtKey } from '../support/gateway-fixtures';
import { listenGatewayServer } from '../support/gateway-server';
import { rememberSecret } from '../support/log-scan';
import { OpenApiChecker } from '../support/openapi-check';

/**
 * Statuses the OpenAPI document must state that the other suites do not reach (docs/api.md §2.10): a body over the
 * limit on every operation that reads one, sent chunked with no Content-Length as well as declared, with a good key
 * and with none; an id with a control character on the usage endpoint; MCP's Origin check and unknown method. Each
 * answer is validated against the document (status, headers, body), over the fast lane that `npm start` serves.
 */
let handle: DatabaseHandle;
let server: Awaited<ReturnType<typeof listenGatewayServer>>;
let k: BoughtKey;
const checker = new OpenApiChecker();

beforeAll(async () => {
  handle = await createTestDatabase();
  const kb = await createKnowledgeBase(handle.db, await createPublisher(handle.db));
  k = await buyKey(handle.db, kb, { cap: 100, perMinute: 1_000 });
  rememberSecret(k.key);
  server = await listenGatewayServer();
});

afterAll(async () => {
  await server?.close();
});

/** A raw request, so the body can be sent chunked (no Content-Length) or declared. */
function send(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; chunked?: boolean },
): Promise<{ status: number; headers: Headers; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${path}`, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
        resolve({ status: res.statusCode!, headers, body: text ? JSON.parse(text) : null });
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || err.code === 'EPIPE' ? undefined : reject(err)));
    if (options.body !== undefined) {
      if (options.chunked) {
        // Two writes with no Content-Length: Node sends Transfer-Encoding: chunked.
        const half = Math.floor(options.body.length / 2);
        req.write(options.body.slice(0, half));
        req.end(options.body.slice(half));
      } else req.end(options.body);
    } else req.end();
  });
}

const oversized = JSON.stringify({ query: 'x'.repeat(MAX_BODY_BYTES + 10) });

describe('statuses the OpenAPI document states', () => {
  const operations = [
    ['/kb/{kb_id}/query', (kb: string) => `/kb/${kb}/query`, { 'Content-Type': 'application/json' }],
    ['/kb/{kb_id}/search', (kb: string) => `/kb/${kb}/search`, { 'Content-Type': 'application/json' }],
    ['/kb/{kb_id}/mcp', (kb: string) => `/kb/${kb}/mcp`, { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }],
    ['/dify/retrieval', () => '/dify/retrieval', { 'Content-Type': 'application/json' }],
  ] as const;

  for (const [template, path, headers] of operations) {
    it(`${template}: a body over ${MAX_BODY_BYTES} bytes is a documented 413, declared or chunked`, async () => {
      for (const chunked of [false, true]) {
        const reply = await send(path(k.kbId), { headers: { ...headers, Authorization: `Bearer ${k.key}` }, body: oversized, chunked });
        expect([template, chunked, reply.status]).toEqual([template, chunked, 413]);
        checker.expectConforms(template, 'POST', reply);
      }
    });
  }

  it('/kb/{kb_id}/usage: an id with a control character is a documented 400', async () => {
    const reply = await send(`/kb/kb_a%01b/usage`, { method: 'GET', headers: { Authorization: `Bearer ${k.key}` } });
    expect(reply.status).toBe(400);
    checker.expectConforms('/kb/{kb_id}/usage', 'GET', reply);
  });

  it('/kb/{kb_id}/mcp: another site’s Origin (403), an unknown method (404) and the 2026-07-28 refusals (400) are documented', async () => {
    const meta = (version: string) => ({
      'io.modelcontextprotocol/protocolVersion': version,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
    });
    const rpc = (method: string, version: string, headers: Record<string, string> = {}, envelope = meta(version)) =>
      send(`/kb/${k.kbId}/mcp`, {
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Authorization: `Bearer ${k.key}`,
          'MCP-Protocol-Version': version,
          'Mcp-Method': method,
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { _meta: envelope } }),
      });
    const cases: Array<[number, Promise<{ status: number; headers: Headers; body: unknown }>]> = [
      [403, rpc('tools/list', '2026-07-28', { Origin: 'https://evil.example' })],
      [404, rpc('no/such/method', '2026-07-28')],
      [400, rpc('tools/list', '2099-01-01')],
      [400, rpc('tools/list', '2026-07-28', { 'MCP-Protocol-Version': '2025-11-25' })],
      [400, rpc('tools/list', '2026-07-28', {}, { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } as ReturnType<typeof meta>)],
    ];
    for (const [status, pending] of cases) {
      const reply = await pending;
      expect([status, reply.status]).toEqual([status, status]);
      checker.expectConforms('/kb/{kb_id}/mcp', 'POST', reply);
    }
  });
});

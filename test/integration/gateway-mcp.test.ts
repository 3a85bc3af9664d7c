import '../support/gateway-env';
import http from 'node:http';
import { Readable } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usagePeriods } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import * as mcpRoute from '@/app/kb/[kbId]/mcp/route';
import { ingestDocument } from '@/lib/engine';
import { revokeKeyAsOperator } from '@/lib/keys';
import { createTestDatabase } from '../support/db';
import {
  buyKey,
  createHttpKnowledgeBase,
  createKnowledgeBase,
  createPublisher,
  startExamplePublisher,
  type BoughtKey,
  type RunningPublisher,
} from '../support/gateway-fixtures';
import { listenOnLoopback } from '../support/listen';
import { rememberSecret } from '../support/log-scan';
import { OpenApiChecker } from '../support/openapi-check';

const openapi = new OpenApiChecker();

/**
 * /kb/{kb_id}/mcp (docs/api.md §10.1) driven by the official MCP SDK's client (v2) over real HTTP, pinned to each
 * revision the server speaks: a loopback server hands each request to the route handler, as Next does.
 */
let handle: DatabaseHandle;
let publisher: RunningPublisher;
let server: { url: string; close(): Promise<void> };
let hostedKb: string;
let httpKb: string;

const handlers = mcpRoute as unknown as Record<string, (request: Request, context: { params: Promise<{ kbId: string }> }) => Promise<Response>>;

beforeAll(async () => {
  handle = await createTestDatabase();
  publisher = await startExamplePublisher();
  rememberSecret(publisher.infraKey, publisher.signingSecret);
  const pub = await createPublisher(handle.db);
  hostedKb = await createKnowledgeBase(handle.db, pub, { title: 'Lighthouse Handbook' });
  const text =
    'Lighthouse Handbook\n\nThe Fresnel lens concentrates the beam of a lighthouse so that it can be seen far out at sea.\n\nA foghorn sounds at fixed intervals when fog hides the light.';
  expect((await ingestDocument(handle.db, hostedKb, { sourceName: 'lighthouses.txt', bytes: new TextEncoder().encode(text), mimeType: 'text/plain' })).ok).toBe(
    true,
  );
  httpKb = await createHttpKnowledgeBase(handle.db, pub, { endpointUrl: publisher.url, infraKey: publisher.infraKey, signingSecret: publisher.signingSecret });
  server = await listenOnLoopback(
    http.createServer(async (req, res) => {
      const kbId = decodeURIComponent(/^\/kb\/([^/]+)\/mcp/.exec(req.url ?? '')?.[1] ?? '');
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
      const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body, duplex: 'half' } as RequestInit);
      const response = await handlers[req.method ?? 'GET']!(request, { params: Promise.resolve({ kbId: kbId }) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    }),
  );
});

afterAll(async () => {
  await server?.close();
  await publisher?.stop();
});

async function buy(kbId: string, options: { cap?: number; perMinute?: number } = {}): Promise<BoughtKey> {
  const k = await buyKey(handle.db, kbId, { perMinute: 1_000, ...options });
  rememberSecret(k.key);
  return k;
}

/** The three revisions a client may be pinned to: the 2026-07-28 one by `server/discover`, the older ones by `initialize`. */
const REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18'] as const;

function pinnedClient(revision: (typeof REVISIONS)[number] = '2026-07-28'): Client {
  return new Client(
    { name: 'almanac-test', version: '1.0.0' },
    revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: revision } } } : { supportedProtocolVersions: [revision] },
  );
}

async function connect(kbId: string, key: string, revision: (typeof REVISIONS)[number] = '2026-07-28'): Promise<Client> {
  const client = pinnedClient(revision);
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/kb/${kbId}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

const used = async (k: BoughtKey) =>
  (await handle.db.select({ used: usagePeriods.used }).from(usagePeriods).where(eq(usagePeriods.subscriptionId, k.subscriptionId))).reduce(
    (s, r) => s + r.used,
    0,
  );

describe('MCP over Streamable HTTP', () => {
  it('introduces the knowledge base and lists the ask and search tools', async () => {
    const k = await buy(hostedKb);
    const client = await connect(hostedKb, k.key);
    expect(client.getServerVersion()?.name).toBe('Lighthouse Handbook');
    expect(client.getInstructions()).toContain('Tides, knots and lights.');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['ask', 'search']);
    const search = tools.find((t) => t.name === 'search')!;
    expect(search.inputSchema.required).toEqual(['query']);
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(['query', 'top_k']);
    expect(await used(k)).toBe(0);
    await client.close();
  });

  it('ask answers with citations and counts once; search returns passages; nothing found is free', async () => {
    const k = await buy(hostedKb, { cap: 10 });
    const client = await connect(hostedKb, k.key);
    const asked = await client.callTool({ name: 'ask', arguments: { query: 'What does the Fresnel lens do?' } });
    expect(asked.isError).toBeFalsy();
    const answer = asked.structuredContent as { answer: string; citations: { excerpt: string }[]; usage: { used: number } };
    expect(answer.citations.length).toBeGreaterThan(0);
    expect(answer.usage.used).toBe(1);
    const searched = await client.callTool({ name: 'search', arguments: { query: 'foghorn fog', top_k: 2 } });
    const results = (searched.structuredContent as { results: { score: number; excerpt: string }[] }).results;
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]!.score).toBe(1);
    const nothing = await client.callTool({ name: 'ask', arguments: { query: 'What is the boiling point of mercury?' } });
    expect((nothing.structuredContent as { citations: unknown[] }).citations).toEqual([]);
    expect(await used(k)).toBe(2);
    await client.close();
  });

  it('works for an http knowledge base too', async () => {
    const k = await buy(httpKb);
    const client = await connect(httpKb, k.key);
    const asked = await client.callTool({ name: 'ask', arguments: { query: 'Which light does a vessel at anchor show?' } });
    expect((asked.structuredContent as { citations: { document_id: string }[] }).citations[0]!.document_id).toBe('lights');
    await client.close();
  });

  it('the cap and the rate limit are tool errors with the API code; 8 concurrent calls over a cap of 3 give exactly 3 answers', async () => {
    const k = await buy(hostedKb, { cap: 3 });
    const client = await connect(hostedKb, k.key);
    const calls = await Promise.all(Array.from({ length: 8 }, () => client.callTool({ name: 'ask', arguments: { query: 'Fresnel lens beam' } })));
    expect(calls.filter((c) => !c.isError)).toHaveLength(3);
    const capped = calls.filter((c) => c.isError);
    expect(capped).toHaveLength(5);
    expect(capped[0]!.structuredContent).toMatchObject({ error: 'query_cap_exceeded', usage: { used: 3, cap: 3 }, resets_at: expect.any(String) });
    expect(await used(k)).toBe(3);

    const slow = await buy(hostedKb, { cap: 100, perMinute: 1 });
    const limitedClient = await connect(hostedKb, slow.key);
    expect((await limitedClient.callTool({ name: 'search', arguments: { query: 'lens' } })).isError).toBeFalsy();
    const limited = await limitedClient.callTool({ name: 'search', arguments: { query: 'lens' } });
    expect(limited.isError).toBe(true);
    expect(limited.structuredContent).toMatchObject({ error: 'rate_limit_exceeded', retry_after: expect.any(Number) });
    await client.close();
    await limitedClient.close();
  });

  it('a blank, over-long or out-of-range argument is a tool error with the API body, as on /query, and is not counted', async () => {
    const k = await buy(hostedKb);
    const client = await connect(hostedKb, k.key);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['ask', { query: '' }, '"query" must not be blank.'],
      ['ask', { query: 'x'.repeat(2_001) }, '"query" must be at most 2000 characters.'],
      ['search', { query: 'lens', top_k: 0 }, '"top_k" must be an integer from 1 to 20.'],
      ['search', { query: 'lens', top_k: 2.5 }, '"top_k" must be an integer from 1 to 20.'],
    ];
    for (const [name, args, message] of cases) {
      const reply = await client.callTool({ name, arguments: args });
      expect(reply.isError, `${name} ${JSON.stringify(args).slice(0, 40)}`).toBe(true);
      expect(reply.structuredContent).toEqual({ error: 'invalid_query', message, request_id: expect.stringMatching(/^req_/) });
    }
    // 2,000 characters are counted as characters: 2,000 emoji (4,000 UTF-16 units) are within the limit.
    expect((await client.callTool({ name: 'search', arguments: { query: '🔦'.repeat(2_000) } })).isError).toBeFalsy();
    expect(await used(k)).toBe(0);
    await client.close();
  });

  it('refuses a missing, unknown, revoked or foreign key as HTTP errors before the MCP exchange', async () => {
    const k = await buy(hostedKb);
    const post = (kbId: string, authorization?: string) =>
      fetch(`${server.url}/kb/${kbId}/mcp`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(authorization ? { Authorization: authorization } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    // Each refusal is a JSON-RPC error (what MCP clients show) with the HTTP status and challenge kept, and Almanac's
    // error body as its data.
    const rpcError = async (reply: Response, status: number, code: number, error: string) => {
      expect(reply.status).toBe(status);
      const body = await reply.json();
      expect(body).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code, message: body.error.data.message, data: { error, message: expect.any(String), request_id: reply.headers.get('X-Request-Id') } },
      });
      openapi.expectConforms('/kb/{kb_id}/mcp', 'POST', { status: reply.status, headers: reply.headers, body });
    };
    const missing = await post(hostedKb);
    // The challenge names the resource's OAuth metadata, where agent platforms find how to sign in (§10.7).
    expect(missing.headers.get('WWW-Authenticate')).toBe(
      `Bearer realm="almanac", resource_metadata="http://almanac.test/.well-known/oauth-protected-resource/kb/${hostedKb}/mcp", scope="kb:query"`,
    );
    await rpcError(missing, 401, -32001, 'missing_api_key');
    const unknown = await post(hostedKb, 'Bearer alm_sk_live_notakeyatall');
    expect(unknown.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
    await rpcError(unknown, 401, -32001, 'invalid_api_key');
    await rpcError(await post(httpKb, `Bearer ${k.key}`), 403, -32003, 'key_scope_mismatch');
    await rpcError(await post('kb_nothing_here', `Bearer ${k.key}`), 404, -32004, 'knowledge_base_not_found');
    await revokeKeyAsOperator(handle.db, k.keyId);
    await new Promise((r) => setTimeout(r, 600));
    await rpcError(await post(hostedKb, `Bearer ${k.key}`), 403, -32003, 'key_revoked');
    // The SDK's client surfaces the message, not an opaque status.
    await expect(connect(hostedKb, k.key, '2025-11-25')).rejects.toThrow(/revoked/);
  });

  it('offers no server stream: GET and DELETE are 405 with Allow: POST, and a connected client does not poll for one', async () => {
    const k = await buy(hostedKb);
    for (const method of ['GET', 'DELETE']) {
      const reply = await fetch(`${server.url}/kb/${hostedKb}/mcp`, { method, headers: { Accept: 'text/event-stream', Authorization: `Bearer ${k.key}` } });
      expect(reply.status).toBe(405);
      expect(reply.headers.get('Allow')).toBe('POST');
      expect(await reply.json()).toMatchObject({ error: 'method_not_allowed', request_id: expect.stringMatching(/^req_/) });
    }
    // The SDK's client asks for a server stream once after initializing. A stream that opened and closed at once made
    // it reconnect every second for as long as it stayed connected; a 405 tells it there is none.
    const requests: string[] = [];
    const counting: typeof fetch = async (input, init) => {
      const reply = await fetch(input, init);
      requests.push(`${init?.method ?? 'GET'} ${reply.status}`);
      return reply;
    };
    const client = pinnedClient('2025-11-25');
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/kb/${hostedKb}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${k.key}` } },
        fetch: counting,
      }),
    );
    expect((await client.listTools()).tools).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(requests.filter((r) => r.startsWith('GET'))).toEqual(['GET 405']);
    await client.close();
  });

  it.each(REVISIONS)('a client pinned to %s lists the tools with their bounds and output schemas, and calls them', async (revision) => {
    const k = await buy(hostedKb, { cap: 10 });
    const client = await connect(hostedKb, k.key, revision);
    expect(client.getNegotiatedProtocolVersion()).toBe(revision);
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === 'search')!;
    expect(search.inputSchema.properties).toMatchObject({
      query: { type: 'string', minLength: 1, maxLength: 2000 },
      top_k: { type: 'integer', minimum: 1, maximum: 20 },
    });
    expect(search.outputSchema?.required).toEqual(['results', 'usage']);
    expect(tools.find((t) => t.name === 'ask')!.outputSchema?.required).toEqual(['answer', 'citations', 'tokens_used', 'usage']);
    const asked = await client.callTool({ name: 'ask', arguments: { query: 'What does the Fresnel lens do?' } });
    expect(asked.isError).toBeFalsy();
    expect((asked.structuredContent as { usage: { used: number } }).usage.used).toBe(1);
    const blank = await client.callTool({ name: 'search', arguments: { query: '   ' } });
    expect(blank.structuredContent).toMatchObject({ error: 'invalid_query' });
    expect(await used(k)).toBe(1);
    await client.close();
  });

  it('answers what the 2026-07-28 revision requires of a server: discover, version errors, header checks, 404s, Origin', async () => {
    const k = await buy(hostedKb);
    const meta = (version: string) => ({
      'io.modelcontextprotocol/protocolVersion': version,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
    });
    const rpc = (method: string, version: string, headers: Record<string, string> = {}, params: Record<string, unknown> = {}) =>
      fetch(`${server.url}/kb/${hostedKb}/mcp`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Authorization: `Bearer ${k.key}`,
          'MCP-Protocol-Version': version,
          'Mcp-Method': method,
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: meta(version) } }),
      });
    const discover = await rpc('server/discover', '2026-07-28');
    expect(discover.status, await discover.clone().text()).toBe(200);
    const discovered = await discover.json();
    expect(discovered.result).toMatchObject({
      supportedVersions: expect.arrayContaining(['2026-07-28']),
      resultType: 'complete',
      ttlMs: 3_600_000,
      cacheScope: 'private',
    });
    expect(JSON.stringify(discovered.result)).toContain('Lighthouse Handbook'); // the server's info, under _meta on this revision
    expect(discovered.result.capabilities.tools?.listChanged).toBeFalsy();
    const unsupported = await rpc('tools/list', '2099-01-01');
    expect(unsupported.status).toBe(400);
    expect((await unsupported.json()).error).toMatchObject({ code: -32022, data: { supported: expect.arrayContaining(['2026-07-28']) } });
    const mismatch = await rpc('tools/list', '2026-07-28', { 'MCP-Protocol-Version': '2025-11-25' });
    expect(mismatch.status).toBe(400);
    expect((await mismatch.json()).error.code).toBe(-32020);
    const unknownMethod = await rpc('no/such/method', '2026-07-28');
    expect(unknownMethod.status).toBe(404);
    expect((await unknownMethod.json()).error.code).toBe(-32601);
    const foreign = await rpc('tools/list', '2026-07-28', { Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).jsonrpc).toBe('2.0');
    expect(await used(k)).toBe(0);
  });

  it('speaks the two protocol revisions before the current one too', async () => {
    const k = await buy(hostedKb);
    for (const version of ['2025-03-26', '2025-06-18']) {
      const reply = await fetch(`${server.url}/kb/${hostedKb}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${k.key}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'old', version: '0' } },
        }),
      });
      expect(reply.status).toBe(200);
      const body = await reply.json();
      expect(body.result.protocolVersion).toBe(version);
    }
  });
});

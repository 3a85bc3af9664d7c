import '../support/gateway-env';
import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions, knowledgeBases } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import { useDatabase } from '@/lib/platform/db';
import { clearGatewayCaches } from '@/lib/gateway/pipeline';
import { generateApiKey } from '@/lib/keys';
import { revokeKeyAsOperator } from '@/lib/keys';
import { createTestDatabase } from '../support/db';
import { LOG_FILE } from '../support/gateway-env';
import { callGateway, callGatewayOverHttp, jsonQuery, type GatewayCall, type GatewayReply } from '../support/gateway-client';
import { listenGatewayServer } from '../support/gateway-server';
import {
  buyKey,
  createHttpKnowledgeBase,
  createKnowledgeBase,
  createPublisher,
  startExamplePublisher,
  type BoughtKey,
  type RunningPublisher,
} from '../support/gateway-fixtures';
import { expectLogsFreeOfSecrets, rememberSecret } from '../support/log-scan';
import { OpenApiChecker } from '../support/openapi-check';

/**
 * The shared security suite for POST /kb/{kb_id}/query: every row of the check order (docs/api.md §3.2) with its exact
 * status, whole body and headers, the precedence between rows, and the framing rules (bearer scheme, 413, 405,
 * no CORS). It runs on both faces of the gateway: the Next route handler (in-process) and the fast lane that
 * `npm start` serves (real HTTP). Every response is validated against the served OpenAPI document.
 */
const openapi = new OpenApiChecker();
let server: Awaited<ReturnType<typeof listenGatewayServer>>;
let handle: DatabaseHandle;
let publisher: RunningPublisher;
let kb: string;
let otherKb: string;
let draftKb: string;
let suspendedKb: string;
let unpublishedKb: string;
type KeyName = 'good' | 'revoked' | 'other' | 'cancelled' | 'pastDue' | 'suspended' | 'unpublished' | 'draft';
/** Filled in beforeAll, one key per case below. */
const keys = {} as Record<KeyName, BoughtKey>;

beforeAll(async () => {
  handle = await createTestDatabase();
  const db = handle.db;
  publisher = await startExamplePublisher();
  server = await listenGatewayServer();
  rememberSecret(publisher.infraKey, publisher.signingSecret);
  const backend = { endpointUrl: publisher.url, infraKey: publisher.infraKey, signingSecret: publisher.signingSecret };
  const pub = await createPublisher(db);
  kb = await createHttpKnowledgeBase(db, pub, backend);
  otherKb = await createHttpKnowledgeBase(db, pub, backend);
  draftKb = await createKnowledgeBase(db, pub, { status: 'draft' });
  suspendedKb = await createHttpKnowledgeBase(db, pub, backend);
  unpublishedKb = await createHttpKnowledgeBase(db, pub, backend);
  keys.good = await buyKey(db, kb, { cap: 1_000, perMinute: 1_000 });
  keys.revoked = await buyKey(db, kb);
  keys.other = await buyKey(db, otherKb);
  keys.cancelled = await buyKey(db, kb);
  keys.pastDue = await buyKey(db, kb);
  keys.suspended = await buyKey(db, suspendedKb);
  keys.unpublished = await buyKey(db, unpublishedKb, { cap: 1_000, perMinute: 1_000 });
  keys.draft = await buyKey(db, draftKb);
  for (const k of Object.values(keys)) rememberSecret(k.key);
  await revokeKeyAsOperator(db, keys.revoked.keyId);
  await db.update(subscriptions).set({ status: 'cancelled' }).where(eq(subscriptions.id, keys.cancelled.subscriptionId));
  await db.update(subscriptions).set({ status: 'past_due' }).where(eq(subscriptions.id, keys.pastDue.subscriptionId));
  await db.update(knowledgeBases).set({ status: 'suspended' }).where(eq(knowledgeBases.id, suspendedKb));
  await db.update(knowledgeBases).set({ status: 'unpublished' }).where(eq(knowledgeBases.id, unpublishedKb));
  await db.update(knowledgeBases).set({ status: 'draft' }).where(eq(knowledgeBases.id, draftKb));
});

afterAll(async () => {
  await publisher?.stop();
  await server?.close();
});

interface Face {
  name: string;
  call(call: GatewayCall): Promise<GatewayReply>;
}

const FACES: Face[] = [
  { name: 'the route handler', call: callGateway },
  { name: 'the fast lane over HTTP', call: (c) => callGatewayOverHttp(server.url, c) },
];

const bearer = (k: BoughtKey | string) => `Bearer ${typeof k === 'string' ? k : k.key}`;
const good = (extra: Partial<GatewayCall> = {}): GatewayCall => ({
  kbId: kb,
  authorization: bearer(keys.good),
  body: jsonQuery('How do spring tides work?'),
  ...extra,
});

/** A well-formed key with a valid checksum that was never issued. */
const unknownKey = generateApiKey('live').key;
/** One character changed: the checksum no longer matches. */
function corrupt(key: string): string {
  const i = 20;
  return key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
}

async function keyExhausted(): Promise<BoughtKey> {
  const k = await buyKey(handle.db, kb, { cap: 1, perMinute: 1_000 });
  rememberSecret(k.key);
  const first = await callGateway({ kbId: kb, authorization: bearer(k), body: jsonQuery('bowline knot') });
  expect(first.status).toBe(200);
  return k;
}

async function keyRateLimited(options: { cap?: number } = {}): Promise<BoughtKey> {
  const k = await buyKey(handle.db, kb, { cap: options.cap ?? 100, perMinute: 1 });
  rememberSecret(k.key);
  const first = await callGateway({ kbId: kb, authorization: bearer(k), body: jsonQuery('bowline knot') });
  expect(first.status).toBe(200);
  return k;
}

interface Case {
  name: string;
  call: () => Promise<GatewayCall> | GatewayCall;
  status: number;
  error: string | null;
  /** 'none': only X-Request-Id; 'keyed': rate-limit and usage headers too. */
  headers: 'none' | 'keyed';
  extras?: string[];
  check?: (reply: GatewayReply) => void;
}

const bad =
  (body: string | null, contentType: string | null = 'application/json') =>
  (): GatewayCall =>
    good({ body, contentType });
/** Raw bytes as the body (a stream, so neither face sees a string first). */
function bytes(data: Buffer): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(data));
      controller.close();
    },
  });
}

const CASES: Case[] = [
  // Row 1
  { name: 'no Authorization header', call: () => good({ authorization: null }), status: 401, error: 'missing_api_key', headers: 'none' },
  { name: 'empty Authorization header', call: () => good({ authorization: '' }), status: 401, error: 'missing_api_key', headers: 'none' },
  { name: 'blank Authorization header', call: () => good({ authorization: '   ' }), status: 401, error: 'missing_api_key', headers: 'none' },
  {
    name: 'missing key on an unknown knowledge base (row 1 first)',
    call: () => good({ authorization: null, kbId: 'kb_nope' }),
    status: 401,
    error: 'missing_api_key',
    headers: 'none',
  },
  // Row 2
  { name: 'Basic scheme', call: () => good({ authorization: `Basic ${keys.good.key}` }), status: 401, error: 'invalid_api_key', headers: 'none' },
  { name: 'Bearer without a token', call: () => good({ authorization: 'Bearer' }), status: 401, error: 'invalid_api_key', headers: 'none' },
  { name: 'key without the scheme', call: () => good({ authorization: keys.good.key }), status: 401, error: 'invalid_api_key', headers: 'none' },
  {
    name: 'wrong prefix',
    call: () => good({ authorization: bearer(keys.good.key.replace('alm_sk_live_', 'alm_pk_live_')) }),
    status: 401,
    error: 'invalid_api_key',
    headers: 'none',
  },
  { name: 'too short', call: () => good({ authorization: bearer(keys.good.key.slice(0, -1)) }), status: 401, error: 'invalid_api_key', headers: 'none' },
  {
    name: 'bad alphabet',
    call: () => good({ authorization: bearer(keys.good.key.slice(0, -8) + '-' + keys.good.key.slice(-7)) }),
    status: 401,
    error: 'invalid_api_key',
    headers: 'none',
  },
  { name: 'checksum wrong', call: () => good({ authorization: bearer(corrupt(keys.good.key)) }), status: 401, error: 'invalid_api_key', headers: 'none' },
  { name: 'well-formed but unknown key', call: () => good({ authorization: bearer(unknownKey) }), status: 401, error: 'invalid_api_key', headers: 'none' },
  { name: 'two tokens', call: () => good({ authorization: `Bearer ${keys.good.key} extra` }), status: 401, error: 'invalid_api_key', headers: 'none' },
  {
    name: 'invalid key on an unknown knowledge base (row 2 first)',
    call: () => good({ authorization: bearer(unknownKey), kbId: 'kb_nope' }),
    status: 401,
    error: 'invalid_api_key',
    headers: 'none',
  },
  // Row 3
  { name: 'revoked key', call: () => good({ authorization: bearer(keys.revoked) }), status: 403, error: 'key_revoked', headers: 'keyed' },
  {
    name: 'revoked key for another knowledge base (row 3 before 5)',
    call: () => good({ authorization: bearer(keys.revoked), kbId: otherKb }),
    status: 403,
    error: 'key_revoked',
    headers: 'keyed',
  },
  {
    name: 'revoked key on an unknown knowledge base (row 3 before 4)',
    call: () => good({ authorization: bearer(keys.revoked), kbId: 'kb_nope' }),
    status: 403,
    error: 'key_revoked',
    headers: 'keyed',
  },
  // Row 4
  { name: 'unknown knowledge base', call: () => good({ kbId: 'kb_doesnotexist' }), status: 404, error: 'knowledge_base_not_found', headers: 'keyed' },
  {
    name: 'unknown knowledge base with a key of another one (row 4 before 5)',
    call: () => good({ authorization: bearer(keys.other), kbId: 'kb_doesnotexist' }),
    status: 404,
    error: 'knowledge_base_not_found',
    headers: 'keyed',
  },
  {
    name: 'draft knowledge base, even with its own key',
    call: () => good({ authorization: bearer(keys.draft), kbId: draftKb }),
    status: 404,
    error: 'knowledge_base_not_found',
    headers: 'keyed',
  },
  {
    name: 'a NUL byte in the knowledge-base id (never reaches the database)',
    call: () => good({ kbId: `${kb}\u0000` }),
    status: 400,
    error: 'invalid_query',
    headers: 'keyed',
  },
  { name: 'a control character in the knowledge-base id', call: () => good({ kbId: 'kb_\u001b[31m' }), status: 400, error: 'invalid_query', headers: 'keyed' },
  {
    name: 'a NUL byte in the id with a revoked key (row 3 first)',
    call: () => good({ authorization: bearer(keys.revoked), kbId: 'kb_\u0000' }),
    status: 403,
    error: 'key_revoked',
    headers: 'keyed',
  },
  // Row 5
  {
    name: 'key of another knowledge base',
    call: () => good({ authorization: bearer(keys.other) }),
    status: 403,
    error: 'key_scope_mismatch',
    headers: 'keyed',
  },
  {
    name: 'cancelled key on another knowledge base (row 5 before 6)',
    call: () => good({ authorization: bearer(keys.cancelled), kbId: otherKb }),
    status: 403,
    error: 'key_scope_mismatch',
    headers: 'keyed',
  },
  // Row 6
  { name: 'cancelled subscription', call: () => good({ authorization: bearer(keys.cancelled) }), status: 403, error: 'forbidden', headers: 'keyed' },
  { name: 'unpaid (past_due) subscription', call: () => good({ authorization: bearer(keys.pastDue) }), status: 403, error: 'forbidden', headers: 'keyed' },
  {
    name: 'suspended knowledge base',
    call: () => good({ authorization: bearer(keys.suspended), kbId: suspendedKb }),
    status: 403,
    error: 'forbidden',
    headers: 'keyed',
  },
  {
    name: 'cancelled subscription with a bad body (row 6 before 8)',
    call: () => good({ authorization: bearer(keys.cancelled), body: '[]' }),
    status: 403,
    error: 'forbidden',
    headers: 'keyed',
  },
  // Row 7
  {
    name: 'rate limit exceeded',
    call: async () => good({ authorization: bearer(await keyRateLimited()) }),
    status: 429,
    error: 'rate_limit_exceeded',
    headers: 'keyed',
    extras: ['retry_after'],
    check: (r) => {
      expect(Number.isInteger(r.body.retry_after)).toBe(true);
      expect(r.body.retry_after).toBeGreaterThanOrEqual(1);
      expect(r.headers.get('Retry-After')).toBe(String(r.body.retry_after));
      expect(r.headers.get('X-RateLimit-Limit')).toBe('1');
      expect(r.headers.get('X-RateLimit-Remaining')).toBe('0');
    },
  },
  {
    name: 'rate limited with a bad body (row 7 before 8)',
    call: async () => good({ authorization: bearer(await keyRateLimited()), body: '{"nope":1}' }),
    status: 429,
    error: 'rate_limit_exceeded',
    headers: 'keyed',
    extras: ['retry_after'],
  },
  {
    name: 'rate limited with the cap used up (row 7 before 9)',
    call: async () => good({ authorization: bearer(await keyRateLimited({ cap: 1 })) }),
    status: 429,
    error: 'rate_limit_exceeded',
    headers: 'keyed',
    extras: ['retry_after'],
  },
  // Row 8
  { name: 'no Content-Type', call: bad(jsonQuery('tides'), null), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'text/plain', call: bad(jsonQuery('tides'), 'text/plain'), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'application/jsonp is not JSON', call: bad(jsonQuery('tides'), 'application/jsonp'), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'empty body', call: bad(''), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'not JSON', call: bad('query=tides'), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'JSON array', call: bad('[{"query":"tides"}]'), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'JSON null', call: bad('null'), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'JSON string', call: bad('"tides"'), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'query missing', call: bad('{"question":"tides"}'), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'query not a string', call: bad('{"query":42}'), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'query null', call: bad('{"query":null}'), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'query blank', call: bad(jsonQuery(' \n\t ')), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'query over 2,000 characters', call: bad(jsonQuery('a'.repeat(2_001))), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'a NUL character in the query', call: bad(jsonQuery('spring\u0000tides')), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'an escape character in the query', call: bad(jsonQuery('spring \u001b tides')), status: 400, error: 'invalid_query', headers: 'keyed' },
  { name: 'a lone surrogate in the query (escaped in JSON)', call: bad('{"query":"tides \\ud800"}'), status: 400, error: 'invalid_query', headers: 'keyed' },
  {
    name: 'a body that is not UTF-8',
    call: () => good({ body: bytes(Buffer.concat([Buffer.from('{"query":"tides '), Buffer.from([0xc3, 0x28]), Buffer.from('"}')])) }),
    status: 400,
    error: 'invalid_query',
    headers: 'keyed',
  },
  {
    name: 'a body with a lone surrogate encoded as bytes',
    call: () => good({ body: bytes(Buffer.concat([Buffer.from('{"query":"tides '), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')])) }),
    status: 400,
    error: 'invalid_query',
    headers: 'keyed',
  },
  {
    name: 'bad body with the cap used up (row 8 before 9)',
    call: async () => good({ authorization: bearer(await keyExhausted()), body: '{}' }),
    status: 400,
    error: 'invalid_query',
    headers: 'keyed',
  },
  // Row 9
  {
    name: 'cap used up',
    call: async () => good({ authorization: bearer(await keyExhausted()) }),
    status: 429,
    error: 'query_cap_exceeded',
    headers: 'keyed',
    extras: ['usage', 'resets_at', 'upgrade_url'],
    check: (r) => {
      expect(r.body.usage).toEqual({ used: 1, cap: 1 });
      expect(new Date(r.body.resets_at).toISOString()).toBe(r.body.resets_at);
      expect(new Date(r.body.resets_at).getTime()).toBeGreaterThan(Date.now());
      expect(r.body.upgrade_url).toMatch(/^http:\/\/almanac\.test\/account\/subscriptions\/sub_[0-9A-Za-z]+$/);
      expect(r.headers.get('X-Usage-Used')).toBe('1');
      expect(r.headers.get('X-Usage-Cap')).toBe('1');
      expect(r.headers.get('X-Usage-Remaining')).toBe('0');
      expect(r.headers.get('Retry-After')).toBeNull();
    },
  },
  // Framing
  { name: 'body over 16 KiB', call: bad(jsonQuery('x'.repeat(17 * 1024))), status: 413, error: 'payload_too_large', headers: 'keyed' },
  {
    name: 'body over 16 KiB streamed without Content-Length',
    call: () => {
      const chunk = new TextEncoder().encode('{"query":"' + 'x'.repeat(4_000));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 6) controller.enqueue(chunk);
          else controller.close();
        },
      });
      return good({ body: stream });
    },
    status: 413,
    error: 'payload_too_large',
    headers: 'keyed',
  },
  {
    name: 'GET',
    call: () => good({ method: 'GET', body: null }),
    status: 405,
    error: 'method_not_allowed',
    headers: 'none',
    check: (r) => expect(r.headers.get('Allow')).toBe('POST'),
  },
  {
    name: 'PUT',
    call: () => good({ method: 'PUT' }),
    status: 405,
    error: 'method_not_allowed',
    headers: 'none',
    check: (r) => expect(r.headers.get('Allow')).toBe('POST'),
  },
  {
    name: 'PATCH',
    call: () => good({ method: 'PATCH' }),
    status: 405,
    error: 'method_not_allowed',
    headers: 'none',
    check: (r) => expect(r.headers.get('Allow')).toBe('POST'),
  },
  {
    name: 'DELETE',
    call: () => good({ method: 'DELETE', body: null }),
    status: 405,
    error: 'method_not_allowed',
    headers: 'none',
    check: (r) => expect(r.headers.get('Allow')).toBe('POST'),
  },
  {
    name: 'OPTIONS (no CORS preflight)',
    call: () => good({ method: 'OPTIONS', body: null }),
    status: 405,
    error: 'method_not_allowed',
    headers: 'none',
    check: (r) => expect(r.headers.get('Allow')).toBe('POST'),
  },
  // Success variants
  { name: 'success', call: () => good(), status: 200, error: null, headers: 'keyed' },
  // docs/api.md §9.1: an unpublished listing still answers the subscriptions bought before, until their period ends.
  {
    name: 'unpublished knowledge base, existing subscriber',
    call: () => good({ authorization: bearer(keys.unpublished), kbId: unpublishedKb }),
    status: 200,
    error: null,
    headers: 'keyed',
  },
  { name: 'bearer scheme in lower case', call: () => good({ authorization: `bearer ${keys.good.key}` }), status: 200, error: null, headers: 'keyed' },
  {
    name: 'bearer scheme in upper case with extra spaces',
    call: () => good({ authorization: `BEARER   ${keys.good.key}  ` }),
    status: 200,
    error: null,
    headers: 'keyed',
  },
  { name: 'Content-Type with charset', call: () => good({ contentType: 'application/json; charset=utf-8' }), status: 200, error: null, headers: 'keyed' },
  {
    name: 'tabs and line breaks inside the query',
    call: () => good({ body: jsonQuery('spring\ttides\r\nneap tides') }),
    status: 200,
    error: null,
    headers: 'keyed',
  },
  {
    name: 'a UTF-8 body with a byte order mark',
    call: () => good({ body: bytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(jsonQuery('spring tides'))])) }),
    status: 200,
    error: null,
    headers: 'keyed',
  },
  {
    name: 'query exactly 2,000 characters after trimming',
    call: () => good({ body: jsonQuery(`  ${'tide '.repeat(400).slice(0, 1_999)}s  `) }),
    status: 200,
    error: null,
    headers: 'keyed',
  },
];

describe.each(FACES)('POST /kb/{kb_id}/query through $name — check order (security suite)', ({ call }) => {
  it.each(CASES)('$name → $status $error', async (c) => {
    const reply = await call(await c.call());
    expect(reply.status).toBe(c.status);
    const requestId = reply.headers.get('X-Request-Id');
    expect(requestId).toMatch(/^req_[0-9A-Za-z]+$/);
    for (const [name] of reply.headers) expect(name.toLowerCase().startsWith('access-control-')).toBe(false);
    if (c.error) {
      const extras = Object.fromEntries((c.extras ?? []).map((k) => [k, reply.body[k]]));
      for (const k of c.extras ?? []) expect(reply.body[k], `extra ${k}`).toBeDefined();
      expect(reply.body).toEqual({ error: c.error, message: expect.stringMatching(/\S/), request_id: requestId, ...extras });
    } else {
      expect(Object.keys(reply.body).sort()).toEqual(['answer', 'citations', 'tokens_used']);
      expect(reply.body.citations.length).toBeGreaterThan(0);
      for (const citation of reply.body.citations) expect(Object.keys(citation).sort()).toEqual(['document_id', 'excerpt', 'page', 'title']);
    }
    const keyed = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Usage-Used', 'X-Usage-Cap', 'X-Usage-Remaining'];
    for (const name of keyed) {
      if (c.headers === 'keyed') expect(reply.headers.get(name), name).toMatch(/^[0-9]+$/);
      else expect(reply.headers.get(name), name).toBeNull();
    }
    if (c.headers === 'keyed') {
      const used = Number(reply.headers.get('X-Usage-Used'));
      const cap = Number(reply.headers.get('X-Usage-Cap'));
      expect(Number(reply.headers.get('X-Usage-Remaining'))).toBe(Math.max(0, cap - used));
      const reset = Number(reply.headers.get('X-RateLimit-Reset'));
      expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    }
    // docs/api.md §7.3 (RFC 6750): every 401 names the scheme; when a key was sent, it says the key is the problem.
    const challenge = reply.headers.get('WWW-Authenticate');
    if (c.error === 'missing_api_key') expect(challenge).toBe('Bearer realm="almanac"');
    else if (c.error === 'invalid_api_key') expect(challenge).toBe('Bearer realm="almanac", error="invalid_token"');
    else expect(challenge).toBeNull();
    c.check?.(reply);
    const method = (await c.call()).method ?? 'POST';
    openapi.expectConforms('/kb/{kb_id}/query', method, reply);
  });

  it('counts only the answered query: X-Usage-Used grows by one per 200 and not for refusals', async () => {
    const k = await buyKey(handle.db, kb, { cap: 10 });
    rememberSecret(k.key);
    const first = await call({ kbId: kb, authorization: bearer(k), body: jsonQuery('neap tides') });
    expect(first.headers.get('X-Usage-Used')).toBe('1');
    expect(first.headers.get('X-Usage-Remaining')).toBe('9');
    const refused = await call({ kbId: kb, authorization: bearer(k), body: '{}' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('X-Usage-Used')).toBe('1');
    const second = await call({ kbId: kb, authorization: bearer(k), body: jsonQuery('clove hitch') });
    expect(second.headers.get('X-Usage-Used')).toBe('2');
    openapi.expectConforms('/kb/{kb_id}/query', 'POST', second);
  });

  it('rejects a malformed key without touching the database', async () => {
    // Swap in a database whose every use throws: a malformed key must still get its 401, not a 500.
    const poisoned = new Proxy(
      {},
      {
        get: () => {
          throw new Error('the database was touched');
        },
      },
    );
    useDatabase({ db: poisoned as never, kind: handle.kind, close: async () => {} });
    try {
      for (const token of [corrupt(keys.good.key), keys.good.key.slice(1), 'alm_sk_live_short', `x${keys.good.key.slice(1)}`]) {
        const reply = await call(good({ authorization: bearer(token) }));
        expect(reply.status).toBe(401);
        expect(reply.body.error).toBe('invalid_api_key');
      }
      // Control: a well-formed key does reach the database (and so fails here with 500).
      clearGatewayCaches();
      const control = await call(good({ authorization: bearer(unknownKey) }));
      expect(control.status).toBe(500);
      expect(control.body.error).toBe('internal_error');
    } finally {
      useDatabase(handle);
    }
  });

  it('sees a revocation within half a second (no longer-lived key cache)', async () => {
    const k = await buyKey(handle.db, kb, { cap: 10_000, perMinute: 10_000 });
    rememberSecret(k.key);
    expect((await call({ kbId: kb, authorization: bearer(k), body: jsonQuery('tides') })).status).toBe(200);
    await revokeKeyAsOperator(handle.db, k.keyId);
    const revokedAt = Date.now();
    let reply: GatewayReply;
    do {
      reply = await call({ kbId: kb, authorization: bearer(k), body: jsonQuery('tides') });
      if (reply.status !== 200) break;
      await new Promise((r) => setTimeout(r, 25));
    } while (Date.now() - revokedAt < 2_000);
    expect(reply.status).toBe(403);
    expect(reply.body.error).toBe('key_revoked');
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
  });

  it('documents every status it answered, and the logs hold no key or publisher secret', () => {
    const statuses = new Set(openapi.checked.map((c) => c.split(' ').pop()));
    for (const s of ['200', '400', '401', '403', '404', '405', '413', '429']) expect(statuses.has(s), s).toBe(true);
    expectLogsFreeOfSecrets([LOG_FILE]);
  });
});

describe('POST /kb/{kb_id}/query paths as npm start serves them (the front door before the fast lane)', () => {
  /** A raw request: the path goes on the wire exactly as written. */
  function raw(path: string): Promise<{ status: number; headers: Headers; body: any }> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        `${server.url}/`,
        { method: 'POST', path, headers: { Authorization: bearer(keys.good), 'Content-Type': 'application/json' } },
        (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
            resolve({ status: response.statusCode!, headers, body: JSON.parse(text) });
          });
        },
      );
      request.on('error', reject);
      request.end(jsonQuery('tides'));
    });
  }

  it.each([
    ['/kb/%ZZ/query', 400, 'invalid_path'],
    ['/kb/%C3%28/query', 400, 'invalid_path'],
    ['/kb/%/query', 400, 'invalid_path'],
    ['/kb//query', 404, 'not_found'],
    ['/kb/kb_x/query/', 404, 'not_found'],
  ] as const)('%s → %i %s, a JSON error body with X-Request-Id', async (path, status, error) => {
    const reply = await raw(path);
    expect(reply.status).toBe(status);
    expect(reply.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(reply.body).toEqual({ error, message: expect.stringMatching(/\S/), request_id: reply.headers.get('X-Request-Id') });
  });

  it('decodes the knowledge-base id once: an escaped NUL reaches row 4 as a NUL and is refused there', async () => {
    const reply = await raw(`/kb/${kb}%00/query`);
    expect([reply.status, reply.body.error]).toEqual([400, 'invalid_query']);
  });
});

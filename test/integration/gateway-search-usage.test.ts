import '../support/gateway-env';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knowledgeBases, publishers, usagePeriods } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import { POST as searchRoute } from '@/app/kb/[kbId]/search/route';
import { GET as usageRoute, POST as usagePost } from '@/app/kb/[kbId]/usage/route';
import { POST as difyRoute } from '@/app/dify/retrieval/route';
import { ingestDocument } from '@/lib/engine';
import { getUsageRecorder } from '@/lib/gateway';
import { revokeKeyAsOperator } from '@/lib/keys';
import { createTestDatabase } from '../support/db';
import { callGateway, jsonQuery } from '../support/gateway-client';
import {
  buyKey,
  createHttpKnowledgeBase,
  createKnowledgeBase,
  createPublisher,
  startExamplePublisher,
  startMisbehavingPublisher,
  type BoughtKey,
  type RunningPublisher,
} from '../support/gateway-fixtures';
import { rememberSecret } from '../support/log-scan';
import { OpenApiChecker } from '../support/openapi-check';

const openapi = new OpenApiChecker();

/** POST /kb/{kb_id}/search, GET /kb/{kb_id}/usage and POST /dify/retrieval (docs/api.md §10.2, §10.3, §10.5): the same key, check order and metering as /query. */
let handle: DatabaseHandle;
let publisher: RunningPublisher;
let bad: Awaited<ReturnType<typeof startMisbehavingPublisher>>;
let hostedKb: string;
let httpKb: string;
let pub: string;

const HANDBOOK = [
  'Lighthouse Handbook',
  '',
  'The Fresnel lens concentrates the beam of a lighthouse so that it can be seen far out at sea.',
  '',
  'Keepers trimmed the wick of the lamp every four hours through the night.',
  '',
  'A foghorn sounds at fixed intervals when fog hides the light from passing ships.',
].join('\n');

beforeAll(async () => {
  handle = await createTestDatabase();
  publisher = await startExamplePublisher();
  bad = await startMisbehavingPublisher();
  rememberSecret(publisher.infraKey, publisher.signingSecret);
  pub = await createPublisher(handle.db);
  hostedKb = await createKnowledgeBase(handle.db, pub, { title: 'Lighthouse Handbook' });
  const ingested = await ingestDocument(handle.db, hostedKb, {
    sourceName: 'lighthouses.txt',
    bytes: new TextEncoder().encode(HANDBOOK),
    mimeType: 'text/plain',
  });
  expect(ingested.ok).toBe(true);
  httpKb = await createHttpKnowledgeBase(handle.db, pub, { endpointUrl: publisher.url, infraKey: publisher.infraKey, signingSecret: publisher.signingSecret });
});

afterAll(async () => {
  await publisher?.stop();
  await bad?.stop();
});

async function buy(kbId: string, options: { cap?: number; perMinute?: number } = {}): Promise<BoughtKey> {
  const k = await buyKey(handle.db, kbId, options);
  rememberSecret(k.key);
  return k;
}

async function search(kbId: string, key: string | null, body: unknown, contentType = 'application/json') {
  const headers = new Headers({ 'Content-Type': contentType });
  if (key) headers.set('Authorization', `Bearer ${key}`);
  const response = await searchRoute(
    new Request(`http://localhost/kb/${kbId}/search`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) }),
    {
      params: Promise.resolve({ kbId: kbId }),
    },
  );
  return { status: response.status, headers: response.headers, body: await response.json() };
}

async function usage(kbId: string, key: string | null) {
  const headers = new Headers();
  if (key) headers.set('Authorization', `Bearer ${key}`);
  const response = await usageRoute(new Request(`http://localhost/kb/${kbId}/usage`, { headers }), { params: Promise.resolve({ kbId: kbId }) });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const usedInDb = async (subscriptionId: string) =>
  (await handle.db.select({ used: usagePeriods.used }).from(usagePeriods).where(eq(usagePeriods.subscriptionId, subscriptionId))).reduce(
    (s, r) => s + r.used,
    0,
  );

describe('POST /kb/{kb_id}/search', () => {
  it('returns scored passages from a hosted knowledge base and counts like a query', async () => {
    const k = await buy(hostedKb, { cap: 10 });
    const reply = await search(hostedKb, k.key, { query: 'What does the Fresnel lens do?', top_k: 2 });
    expect(reply.status).toBe(200);
    expect(reply.body.results.length).toBeGreaterThan(0);
    expect(reply.body.results.length).toBeLessThanOrEqual(2);
    const [first] = reply.body.results;
    expect(Object.keys(first).sort()).toEqual(['document_id', 'excerpt', 'page', 'score', 'title']);
    expect(first.score).toBe(1);
    expect(HANDBOOK).toContain(first.excerpt);
    expect(first.excerpt).toContain('Fresnel');
    for (const r of reply.body.results) expect(r.score).toBeGreaterThan(0);
    expect(reply.headers.get('X-Usage-Used')).toBe('1');
    expect(await usedInDb(k.subscriptionId)).toBe(1);
    openapi.expectConforms('/kb/{kb_id}/search', 'POST', reply);
  });

  it('nothing relevant: 200 with no results, and free', async () => {
    const k = await buy(hostedKb, { cap: 10 });
    const reply = await search(hostedKb, k.key, { query: 'What is the boiling point of mercury?' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ results: [] });
    expect(reply.headers.get('X-Usage-Used')).toBe('0');
    expect(await usedInDb(k.subscriptionId)).toBe(0);
  });

  it("an http knowledge base's passages are its answer's citations, scored by rank", async () => {
    const k = await buy(httpKb, { cap: 10 });
    const reply = await search(httpKb, k.key, { query: 'Which light does a vessel at anchor show?' });
    expect(reply.status).toBe(200);
    expect(reply.body.results[0]).toMatchObject({ document_id: 'lights', title: 'Navigation Lights at Night', page: null, score: 1 });
    expect(reply.headers.get('X-Usage-Used')).toBe('1');
  });

  it('refuses top_k outside 1–20 and bad bodies with 400 invalid_query, uncounted', async () => {
    const k = await buy(hostedKb, { cap: 10 });
    for (const body of [
      { query: 'lens', top_k: 0 },
      { query: 'lens', top_k: 21 },
      { query: 'lens', top_k: 2.5 },
      { query: 'lens', top_k: '3' },
      { query: '  ' },
      { top_k: 3 },
    ]) {
      const reply = await search(hostedKb, k.key, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error).toBe('invalid_query');
    }
    expect((await search(hostedKb, k.key, 'not json')).status).toBe(400);
    expect((await search(hostedKb, k.key, { query: 'lens' }, 'text/plain')).status).toBe(400);
    expect(await usedInDb(k.subscriptionId)).toBe(0);
  });

  it('follows the check order of /query: no key, unknown key, other knowledge base, cap reached, publisher failure', async () => {
    const k = await buy(hostedKb, { cap: 1 });
    expect(await search(hostedKb, null, { query: 'lens' })).toMatchObject({ status: 401, body: { error: 'missing_api_key' } });
    expect((await search(hostedKb, null, { query: 'lens' })).headers.get('WWW-Authenticate')).toContain('Bearer');
    expect((await search(httpKb, k.key, { query: 'lens' })).body.error).toBe('key_scope_mismatch');
    expect((await search(hostedKb, k.key, { query: 'Fresnel lens' })).status).toBe(200);
    const capped = await search(hostedKb, k.key, { query: 'Fresnel lens' });
    expect(capped.status).toBe(429);
    expect(capped.body).toMatchObject({ error: 'query_cap_exceeded', usage: { used: 1, cap: 1 } });
    openapi.expectConforms('/kb/{kb_id}/search', 'POST', capped);
    const failing = await createHttpKnowledgeBase(handle.db, pub, {
      endpointUrl: `${bad.base}/status-500`,
      infraKey: publisher.infraKey,
      signingSecret: publisher.signingSecret,
    });
    const f = await buy(failing, { cap: 5 });
    const failed = await search(failing, f.key, { query: 'tides' });
    expect(failed).toMatchObject({ status: 502, body: { error: 'publisher_error' } });
    expect(await usedInDb(f.subscriptionId)).toBe(0);
  });

  it('cap of 5, 20 concurrent searches: exactly 5 answered', async () => {
    const k = await buy(hostedKb, { cap: 5, perMinute: 1_000 });
    const replies = await Promise.all(Array.from({ length: 20 }, () => search(hostedKb, k.key, { query: 'Fresnel lens beam' })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(5);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(15);
    expect(await usedInDb(k.subscriptionId)).toBe(5);
  });
});

describe('GET /kb/{kb_id}/usage', () => {
  it('reports the period and the query limit, and is never counted', async () => {
    const k = await buy(httpKb, { cap: 7, perMinute: 40 });
    expect((await callGateway({ kbId: httpKb, authorization: `Bearer ${k.key}`, body: jsonQuery('Which light does a vessel at anchor show?') })).status).toBe(
      200,
    );
    const first = await usage(httpKb, k.key);
    const second = await usage(httpKb, k.key);
    expect(first.status).toBe(200);
    expect(second.body).toMatchObject({ used: 1, cap: 7, remaining: 6, rate_limit: { limit: 40, remaining: 39 } });
    expect(new Date(second.body.resets_at).getTime()).toBeGreaterThan(Date.now());
    expect(typeof second.body.rate_limit.reset).toBe('number');
    openapi.expectConforms('/kb/{kb_id}/usage', 'GET', second);
    expect(second.headers.get('X-RateLimit-Limit')).toBe('30');
    expect(Number(second.headers.get('X-RateLimit-Remaining'))).toBe(28);
    expect(await usedInDb(k.subscriptionId)).toBe(1);
    await getUsageRecorder().flush();
    const [row] = await handle.db.select({ v: knowledgeBases.queryVolume }).from(knowledgeBases).where(eq(knowledgeBases.id, httpKb));
    expect(row!.v).toBeGreaterThanOrEqual(1);
  });

  it('has its own limit of 30 per minute per key, and the key errors of /query', async () => {
    const k = await buy(httpKb, { cap: 5, perMinute: 60 });
    const replies = await Promise.all(Array.from({ length: 32 }, () => usage(httpKb, k.key)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(30);
    const limited = replies.filter((r) => r.status === 429);
    expect(limited).toHaveLength(2);
    expect(limited[0]!.body.error).toBe('rate_limit_exceeded');
    openapi.expectConforms('/kb/{kb_id}/usage', 'GET', limited[0]!);
    // The query limit was not touched.
    expect((await callGateway({ kbId: httpKb, authorization: `Bearer ${k.key}`, body: jsonQuery('tides') })).headers.get('X-RateLimit-Remaining')).toBe('59');
    expect((await usage(httpKb, null)).body.error).toBe('missing_api_key');
    await revokeKeyAsOperator(handle.db, k.keyId);
    await new Promise((r) => setTimeout(r, 600));
    expect((await usage(httpKb, k.key)).body.error).toBe('key_revoked');
    const wrongMethod = await usagePost(new Request(`http://localhost/kb/${httpKb}/usage`, { method: 'POST' }), { params: Promise.resolve({ kbId: httpKb }) });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('Allow')).toBe('GET, HEAD');
  });
});

async function dify(key: string | null, body: unknown, authorization?: string) {
  // `undefined` is Dify's endpoint check: a POST with no body and no Content-Type.
  const headers = new Headers(body === undefined ? {} : { 'Content-Type': 'application/json' });
  if (authorization !== undefined) headers.set('Authorization', authorization);
  else if (key) headers.set('Authorization', `Bearer ${key}`);
  const response = await difyRoute(
    new Request('http://localhost/dify/retrieval', { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('POST /dify/retrieval (Dify External Knowledge API)', () => {
  it('answers records {content, score, title, metadata} for knowledge_id, honouring top_k and score_threshold', async () => {
    const k = await buy(hostedKb, { cap: 10 });
    const reply = await dify(k.key, {
      knowledge_id: hostedKb,
      query: 'Fresnel lens beam of the lighthouse',
      retrieval_setting: { top_k: 3, score_threshold: 0 },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.records.length).toBeGreaterThan(0);
    expect(reply.body.records.length).toBeLessThanOrEqual(3);
    const [first] = reply.body.records;
    expect(Object.keys(first).sort()).toEqual(['content', 'metadata', 'score', 'title']);
    expect(first.metadata).toEqual({ document_id: expect.any(String), page: null });
    expect(first.content).toContain('Fresnel');
    expect(first.score).toBe(1);
    openapi.expectConforms('/dify/retrieval', 'POST', reply);
    const strict = await dify(k.key, {
      knowledge_id: hostedKb,
      query: 'Fresnel lens beam of the lighthouse',
      retrieval_setting: { top_k: 3, score_threshold: 1 },
    });
    expect(strict.body.records.every((r: { score: number }) => r.score >= 1)).toBe(true);
    const one = await dify(k.key, { knowledge_id: hostedKb, query: 'lighthouse', retrieval_setting: { top_k: 1 } });
    expect(one.body.records.length).toBeLessThanOrEqual(1);
    expect(await usedInDb(k.subscriptionId)).toBe(3);
  });

  it('no relevant record: 200 with records [] and free; metadata_condition is accepted', async () => {
    const k = await buy(hostedKb, { cap: 10 });
    const reply = await dify(k.key, {
      knowledge_id: hostedKb,
      query: 'boiling point of mercury',
      retrieval_setting: { top_k: 5, score_threshold: 0.5 },
      metadata_condition: { logical_operator: 'and', conditions: [] },
    });
    expect(reply).toMatchObject({ status: 200, body: { records: [] } });
    expect(await usedInDb(k.subscriptionId)).toBe(0);
  });

  it("answers errors in Dify's {error_code, error_msg} shape with the HTTP status and Almanac's code", async () => {
    const k = await buy(hostedKb, { cap: 10 });
    const body = { knowledge_id: hostedKb, query: 'lens', retrieval_setting: { top_k: 2, score_threshold: 0.2 } };
    // 1001 and 1002 are 403, as Dify's API states them: its endpoint check fails a registration only on 403, 404, 502.
    expect(await dify(null, body)).toMatchObject({ status: 403, body: { error_code: 1001, error: 'missing_api_key', error_msg: expect.any(String) } });
    expect(await dify(null, body, 'Token abc')).toMatchObject({ status: 403, body: { error_code: 1001, error: 'invalid_api_key' } });
    expect(await dify(null, body, 'Bearer alm_sk_live_nonsense')).toMatchObject({ status: 403, body: { error_code: 1002, error: 'invalid_api_key' } });
    expect(await dify(k.key, { ...body, knowledge_id: httpKb })).toMatchObject({ status: 403, body: { error_code: 2001, error: 'key_scope_mismatch' } });
    expect(await dify(k.key, { ...body, knowledge_id: 'kb_missing' })).toMatchObject({
      status: 404,
      body: { error_code: 2001, error: 'knowledge_base_not_found' },
    });
    // A malformed id is named where the caller wrote it: in the body's "knowledge_id", not in a path.
    const controlId = await dify(k.key, { ...body, knowledge_id: 'kb_\u0007bell' });
    expect(controlId).toMatchObject({ status: 400, body: { error: 'invalid_query', error_msg: expect.stringMatching(/^"knowledge_id" is refused: /) } });
    const badThreshold = await dify(k.key, { ...body, retrieval_setting: { top_k: 2, score_threshold: 2 } });
    expect(badThreshold).toMatchObject({ status: 400, body: { error: 'invalid_query', error_code: 400 } });
    expect(badThreshold.body.request_id).toBe(badThreshold.headers.get('X-Request-Id'));
    openapi.expectConforms('/dify/retrieval', 'POST', badThreshold);
    openapi.expectConforms('/dify/retrieval', 'POST', await dify(null, body));
  });

  it("Dify's endpoint check (a body-less POST) judges the key first: a good key gets no records, a refused one 403 1002", async () => {
    const k = await buy(hostedKb, { cap: 10 });
    const check = await dify(k.key, undefined);
    expect(check).toMatchObject({ status: 200, body: { records: [] } });
    expect(check.headers.get('X-Usage-Used')).toBe('0');
    openapi.expectConforms('/dify/retrieval', 'POST', check);
    expect(await dify(null, undefined, 'Bearer alm_sk_live_nonsense')).toMatchObject({ status: 403, body: { error_code: 1002, error: 'invalid_api_key' } });
    await revokeKeyAsOperator(handle.db, k.keyId);
    await new Promise((r) => setTimeout(r, 600)); // the key cache's 500 ms
    expect(await dify(k.key, undefined)).toMatchObject({ status: 403, body: { error_code: 1002, error: 'key_revoked' } });
    expect(await usedInDb(k.subscriptionId)).toBe(0);
  });

  it('accepts the slug and publisher/slug as knowledge_id', async () => {
    const k = await buy(hostedKb, { cap: 10 });
    const [row] = await handle.db
      .select({ slug: knowledgeBases.slug, publisherSlug: publishers.slug })
      .from(knowledgeBases)
      .innerJoin(publishers, eq(publishers.id, knowledgeBases.publisherId))
      .where(eq(knowledgeBases.id, hostedKb));
    const query = { query: 'Fresnel lens beam of the lighthouse', retrieval_setting: { top_k: 2 } };
    for (const knowledgeId of [row!.slug, `${row!.publisherSlug}/${row!.slug}`]) {
      const reply = await dify(k.key, { ...query, knowledge_id: knowledgeId });
      expect(reply.status).toBe(200);
      expect(reply.body.records[0].content).toContain('Fresnel');
    }
    expect(await dify(k.key, { ...query, knowledge_id: `${row!.publisherSlug}/no-such-slug` })).toMatchObject({ status: 404, body: { error_code: 2001 } });
  });
});

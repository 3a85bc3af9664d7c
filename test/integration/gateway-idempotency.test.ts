import '../support/gateway-env';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyRecords, knowledgeBases, usagePeriods } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import { claimIdempotencyKey, purgeExpiredIdempotencyRecords, requestFingerprint } from '@/lib/gateway/idempotency';
import { getUsageRecorder } from '@/lib/gateway/usage-recorder';
import { createTestDatabase, firstRow } from '../support/db';
import { callGateway, jsonQuery } from '../support/gateway-client';
import {
  buyKey,
  createHttpKnowledgeBase,
  createPublisher,
  startExamplePublisher,
  startMisbehavingPublisher,
  type BoughtKey,
  type RunningPublisher,
} from '../support/gateway-fixtures';
import { rememberSecret } from '../support/log-scan';
import { OpenApiChecker } from '../support/openapi-check';

/** Idempotency-Key on POST /kb/{kb_id}/query (docs/api.md §3.8): stored answers, no double counting, exact under concurrency. */
const openapi = new OpenApiChecker();
let handle: DatabaseHandle;
let publisher: RunningPublisher;
let slow: Awaited<ReturnType<typeof startMisbehavingPublisher>>;
let kb: string;
let slowKb: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  publisher = await startExamplePublisher();
  slow = await startMisbehavingPublisher({ slowMs: 1_500 });
  rememberSecret(publisher.infraKey, publisher.signingSecret);
  const pub = await createPublisher(handle.db);
  kb = await createHttpKnowledgeBase(handle.db, pub, { endpointUrl: publisher.url, infraKey: publisher.infraKey, signingSecret: publisher.signingSecret });
  slowKb = await createHttpKnowledgeBase(handle.db, pub, {
    endpointUrl: `${slow.base}/slow`,
    infraKey: publisher.infraKey,
    signingSecret: publisher.signingSecret,
    timeoutMs: 5_000,
  });
});

afterAll(async () => {
  await publisher?.stop();
  await slow?.stop();
});

async function buy(kbId: string, options: { cap?: number; perMinute?: number } = {}): Promise<BoughtKey> {
  const k = await buyKey(handle.db, kbId, options);
  rememberSecret(k.key);
  return k;
}

const ask = (k: BoughtKey, idempotencyKey: string | null, query = 'When do spring tides occur?', kbId = k.kbId) =>
  callGateway({
    kbId,
    authorization: `Bearer ${k.key}`,
    body: jsonQuery(query),
    headers: idempotencyKey === null ? {} : { 'Idempotency-Key': idempotencyKey },
  });

async function used(subscriptionId: string): Promise<number> {
  const rows = await handle.db.select({ used: usagePeriods.used }).from(usagePeriods).where(eq(usagePeriods.subscriptionId, subscriptionId));
  return rows.reduce((sum, r) => sum + r.used, 0);
}

async function volume(kbId: string): Promise<number> {
  await getUsageRecorder().flush();
  const row = firstRow(await handle.db.select({ v: knowledgeBases.queryVolume }).from(knowledgeBases).where(eq(knowledgeBases.id, kbId)));
  return row.v;
}

describe('Idempotency-Key', () => {
  it('a retry of the same request gets the stored answer, marked as replayed, and is not counted again', async () => {
    const k = await buy(kb, { cap: 10, perMinute: 1_000 });
    const volumeBefore = await volume(kb);
    const first = await ask(k, 'retry-1');
    expect(first.status).toBe(200);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    expect(first.headers.get('X-Usage-Used')).toBe('1');

    const again = await ask(k, 'retry-1');
    expect(again.status).toBe(200);
    // The same bytes, not only the same JSON: a client may compare bodies byte for byte.
    expect(again.text).toBe(first.text);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.headers.get('X-Usage-Used')).toBe('1');
    expect(again.headers.get('X-RateLimit-Remaining')).toBe(String(Number(first.headers.get('X-RateLimit-Remaining')) - 1));
    openapi.expectConforms('/kb/{kb_id}/query', 'POST', again);

    expect(await used(k.subscriptionId)).toBe(1);
    expect(await volume(kb)).toBe(volumeBefore + 1);
    // A request without the header, or with another key, is a new request.
    expect((await ask(k, null)).headers.get('X-Usage-Used')).toBe('2');
    expect((await ask(k, 'retry-2')).headers.get('X-Usage-Used')).toBe('3');
  });

  it('the same Idempotency-Key with another body is 422 idempotency_key_reused, and counts nothing', async () => {
    const k = await buy(kb, { cap: 10 });
    expect((await ask(k, 'reuse', 'When do spring tides occur?')).status).toBe(200);
    const reused = await ask(k, 'reuse', 'What is a neap tide?');
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ error: 'idempotency_key_reused', message: expect.any(String), request_id: expect.stringMatching(/^req_/) });
    expect(reused.headers.get('X-Usage-Used')).toBe('1');
    openapi.expectConforms('/kb/{kb_id}/query', 'POST', reused);
    expect(await used(k.subscriptionId)).toBe(1);
  });

  it('keys are scoped to the API key: another buyer may use the same Idempotency-Key', async () => {
    const one = await buy(kb, { cap: 10 });
    const two = await buy(kb, { cap: 10 });
    expect((await ask(one, 'shared-name')).headers.get('Idempotent-Replayed')).toBeNull();
    const other = await ask(two, 'shared-name', 'What is a neap tide?');
    expect(other.status).toBe(200);
    expect(other.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await used(two.subscriptionId)).toBe(1);
  });

  it('20 concurrent copies of one request: one is answered and counted, the others are 409 in progress or replays', async () => {
    const k = await buy(slowKb, { cap: 100, perMinute: 1_000 });
    const replies = await Promise.all(Array.from({ length: 20 }, () => ask(k, 'burst', 'slow question', slowKb)));
    const answered = replies.filter((r) => r.status === 200 && r.headers.get('Idempotent-Replayed') === null);
    const inFlight = replies.filter((r) => r.status === 409);
    expect(answered).toHaveLength(1);
    expect(answered.length + inFlight.length + replies.filter((r) => r.headers.get('Idempotent-Replayed') === 'true').length).toBe(20);
    for (const r of inFlight) {
      expect(r.body.error).toBe('idempotency_key_in_progress');
      expect(r.headers.get('Retry-After')).toBe('1');
    }
    openapi.expectConforms('/kb/{kb_id}/query', 'POST', inFlight[0]!);
    expect(await used(k.subscriptionId)).toBe(1);
    // Once the first has answered, a retry is a replay.
    const later = await ask(k, 'burst', 'slow question', slowKb);
    expect(later.headers.get('Idempotent-Replayed')).toBe('true');
    expect(later.body).toEqual(answered[0]!.body);
  });

  it('stores an error found from row 8 on (and replays it), but not one found before row 7', async () => {
    const k = await buy(kb, { cap: 10 });
    const blank = await ask(k, 'blank', '   ');
    expect(blank.status).toBe(400);
    const replayed = await ask(k, 'blank', '   ');
    expect(replayed.status).toBe(400);
    expect(replayed.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replayed.text).toBe(blank.text);

    const wrongKb = await callGateway({ kbId: 'kb_nope', authorization: `Bearer ${k.key}`, body: jsonQuery('x'), headers: { 'Idempotency-Key': 'early' } });
    expect(wrongKb.status).toBe(404);
    const rows = await handle.db
      .select()
      .from(idempotencyRecords)
      .where(and(eq(idempotencyRecords.keyId, k.keyId), eq(idempotencyRecords.idempotencyKey, 'early')));
    expect(rows).toHaveLength(0);
  });

  it('refuses a malformed Idempotency-Key with 400 invalid_request', async () => {
    const k = await buy(kb, { cap: 10 });
    for (const bad of ['x'.repeat(256), 'caf\u00e9', 'tab\there']) {
      const reply = await callGateway({ kbId: kb, authorization: `Bearer ${k.key}`, body: jsonQuery('tides'), headers: { 'Idempotency-Key': bad } });
      expect(reply.status, JSON.stringify(bad)).toBe(400);
      expect(reply.body.error).toBe('invalid_request');
    }
    expect(await used(k.subscriptionId)).toBe(0);
  });

  it('a claim whose instance died is taken over once its lease is over; records expire after 24 hours', async () => {
    const k = await buy(kb, { cap: 10 });
    const fingerprint = requestFingerprint('application/json', jsonQuery('When do spring tides occur?'));
    const past = new Date(Date.now() - 60_000);
    // A claim made a minute ago with a 1 s lease and no answer: its instance is gone.
    expect(await claimIdempotencyKey(handle.db, { keyId: k.keyId, idempotencyKey: 'orphan', fingerprint, leaseMs: 1_000, now: past })).toEqual({
      kind: 'claimed',
    });
    const taken = await ask(k, 'orphan');
    expect(taken.status).toBe(200);
    expect(taken.headers.get('Idempotent-Replayed')).toBeNull();
    expect((await ask(k, 'orphan')).headers.get('Idempotent-Replayed')).toBe('true');

    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000 + 1_000);
    expect(await purgeExpiredIdempotencyRecords(handle.db, tomorrow)).toBeGreaterThanOrEqual(1);
    const rows = await handle.db.select().from(idempotencyRecords).where(eq(idempotencyRecords.keyId, k.keyId));
    expect(rows).toHaveLength(0);
  });
});

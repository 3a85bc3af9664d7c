import { itemAt } from '@/lib/platform/arrays';
import '../support/gateway-env';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, knowledgeBases, plans, queryLog, subscriptions, usageDaily, usagePeriods } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import { ingestDocument } from '@/lib/engine/ingest';
import { clearGatewayCaches, runSubscriberQuery } from '@/lib/gateway/pipeline';
import { newId } from '@/lib/platform/ids';
import { reserveQueryUnit, reserveUnits } from '@/lib/gateway/quota';
import { upgradeSubscription } from '@/lib/subscriptions';
import { getUsageRecorder, UsageRecorder } from '@/lib/gateway/usage-recorder';
import { createTestDatabase, firstRow } from '../support/db';
import { LOG_FILE, RATE_WINDOW_MS } from '../support/gateway-env';
import { callGateway, jsonQuery } from '../support/gateway-client';
import {
  buyKey,
  closedPort,
  createHttpKnowledgeBase,
  createKnowledgeBase,
  createPublisher,
  startExamplePublisher,
  startMisbehavingPublisher,
  type BoughtKey,
  type RunningPublisher,
} from '../support/gateway-fixtures';
import { expectLogsFreeOfSecrets, rememberSecret } from '../support/log-scan';
import { OpenApiChecker } from '../support/openapi-check';

/** Fair metering, rate-limit boundaries, publisher failures and the off-hot-path recorder, on both engines. */
const openapi = new OpenApiChecker();
let handle: DatabaseHandle;
let publisher: RunningPublisher;
let bad: Awaited<ReturnType<typeof startMisbehavingPublisher>>;
let pub: string;
let kb: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  publisher = await startExamplePublisher();
  bad = await startMisbehavingPublisher({ slowMs: 3_000 });
  rememberSecret(publisher.infraKey, publisher.signingSecret);
  pub = await createPublisher(handle.db);
  kb = await createHttpKnowledgeBase(handle.db, pub, { endpointUrl: publisher.url, infraKey: publisher.infraKey, signingSecret: publisher.signingSecret });
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

const ask = (k: BoughtKey, query = 'When do spring tides occur?', kbId = k.kbId) =>
  callGateway({ kbId, authorization: `Bearer ${k.key}`, body: jsonQuery(query) });

async function usedInDb(subscriptionId: string): Promise<number> {
  const rows = await handle.db.select({ used: usagePeriods.used }).from(usagePeriods).where(eq(usagePeriods.subscriptionId, subscriptionId));
  return rows.reduce((sum, r) => sum + r.used, 0);
}

async function queryVolume(kbId: string): Promise<number> {
  const row = firstRow(await handle.db.select({ v: knowledgeBases.queryVolume }).from(knowledgeBases).where(eq(knowledgeBases.id, kbId)));
  return row.v;
}

describe('fair metering', () => {
  it('plan of 50, 200 concurrent requests: exactly 50 answers and 150 query_cap_exceeded; the books match', async () => {
    const k = await buy(kb, { cap: 50, perMinute: 10_000 });
    const volumeBefore = await queryVolume(kb);
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => ask(k, `tide height question ${i}`)));
    const byStatus = new Map<number, number>();
    for (const r of replies) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
    expect(Object.fromEntries(byStatus)).toEqual({ 200: 50, 429: 150 });
    for (const r of replies.filter((r) => r.status === 429)) {
      expect(r.body.error).toBe('query_cap_exceeded');
      expect(r.body.usage).toEqual({ used: 50, cap: 50 });
    }
    const usedHeaders = replies.filter((r) => r.status === 200).map((r) => Number(r.headers.get('X-Usage-Used')));
    expect(new Set(usedHeaders).size).toBe(50);
    expect(Math.max(...usedHeaders)).toBe(50);
    openapi.expectConforms(
      '/kb/{kb_id}/query',
      'POST',
      replies.find((r) => r.status === 429)!,
    );

    expect(await usedInDb(k.subscriptionId)).toBe(50);
    await getUsageRecorder().flush();
    expect(await queryVolume(kb)).toBe(volumeBefore + 50);
    const daily = await handle.db.select().from(usageDaily).where(eq(usageDaily.subscriptionId, k.subscriptionId));
    expect(daily.reduce((s, d) => s + d.queries, 0)).toBe(50);
    expect(daily.reduce((s, d) => s + d.tokens, 0)).toBe(replies.filter((r) => r.status === 200).reduce((s, r) => s + r.body.tokens_used, 0));
    const logged = await handle.db.select({ status: queryLog.status }).from(queryLog).where(eq(queryLog.subscriptionId, k.subscriptionId));
    expect(logged).toHaveLength(50);
    expect(logged.every((l) => l.status === 200)).toBe(true);
    const key = firstRow(await handle.db.select({ lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, k.keyId)));
    expect(key.lastUsedAt).not.toBeNull();
    expect(Math.abs(key.lastUsedAt!.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('an upgrade applies the new cap at once and the usage carries over', async () => {
    const k = await buy(kb, { cap: 2 });
    expect((await ask(k)).status).toBe(200);
    expect((await ask(k)).status).toBe(200);
    expect((await ask(k)).body.error).toBe('query_cap_exceeded');
    const bigger = newId('plan');
    await handle.db.insert(plans).values({ id: bigger, kbId: kb, name: 'Bigger', priceCents: 5_000, queriesPerPeriod: 3, requestsPerMinute: 1_000 });
    const upgraded = await upgradeSubscription(handle.db, { userId: k.userId, subscriptionId: k.subscriptionId, planId: bigger });
    expect(upgraded.ok).toBe(true);
    clearGatewayCaches();
    const third = await ask(k);
    expect(third.status).toBe(200);
    expect(third.headers.get('X-Usage-Used')).toBe('3');
    expect(third.headers.get('X-Usage-Cap')).toBe('3');
    expect((await ask(k)).body.error).toBe('query_cap_exceeded');
  });

  it('a new billing period starts from zero (the old period is kept)', async () => {
    const k = await buy(kb, { cap: 1 });
    expect((await ask(k)).status).toBe(200);
    expect((await ask(k)).body.error).toBe('query_cap_exceeded');
    // Move the subscription back one month and a day: its stored period is over, the gateway rolls it forward.
    const shift = sql`interval '1 month 1 day'`;
    await handle.db.execute(
      sql`update subscriptions set period_anchor_at = period_anchor_at - ${shift}, current_period_start = current_period_start - ${shift}, current_period_end = current_period_end - ${shift} where id = ${k.subscriptionId}`,
    );
    await handle.db.execute(
      sql`update usage_periods set period_start = period_start - ${shift}, period_end = period_end - ${shift} where subscription_id = ${k.subscriptionId}`,
    );
    clearGatewayCaches();
    const next = await ask(k);
    expect(next.status).toBe(200);
    expect(next.headers.get('X-Usage-Used')).toBe('1');
    const periods = await handle.db.select().from(usagePeriods).where(eq(usagePeriods.subscriptionId, k.subscriptionId));
    expect(periods.map((p) => p.used).sort()).toEqual([1, 1]);
    const sub = firstRow(await handle.db.select().from(subscriptions).where(eq(subscriptions.id, k.subscriptionId)));
    expect(sub.currentPeriodEnd.getTime()).toBeGreaterThan(Date.now());
  });

  it('a downgrade scheduled for the renewal is the cap of the first query of the next period', async () => {
    const k = await buy(kb, { cap: 5 });
    const smaller = newId('plan');
    await handle.db.insert(plans).values({ id: smaller, kbId: kb, name: 'Smaller', priceCents: 500, queriesPerPeriod: 2, requestsPerMinute: 1_000 });
    await handle.db.update(subscriptions).set({ pendingPlanId: smaller }).where(eq(subscriptions.id, k.subscriptionId));
    const before = await ask(k);
    expect(before.headers.get('X-Usage-Cap')).toBe('5'); // still this period's plan
    const shift = sql`interval '1 month 1 day'`;
    await handle.db.execute(
      sql`update subscriptions set period_anchor_at = period_anchor_at - ${shift}, current_period_start = current_period_start - ${shift}, current_period_end = current_period_end - ${shift} where id = ${k.subscriptionId}`,
    );
    await handle.db.execute(
      sql`update usage_periods set period_start = period_start - ${shift}, period_end = period_end - ${shift} where subscription_id = ${k.subscriptionId}`,
    );
    clearGatewayCaches();
    const next = await ask(k);
    expect(next.status).toBe(200);
    expect([next.headers.get('X-Usage-Used'), next.headers.get('X-Usage-Cap')]).toEqual(['1', '2']);
    const sub = firstRow(await handle.db.select().from(subscriptions).where(eq(subscriptions.id, k.subscriptionId)));
    expect(sub).toMatchObject({ planId: smaller, pendingPlanId: null });
  });
});

describe('cap reservation batches', () => {
  it('grants exactly up to the cap when batches from many processes race (reserveUnits directly, no coalescing)', async () => {
    const k = await buy(kb, { cap: 50 });
    const sub = firstRow(await handle.db.select().from(subscriptions).where(eq(subscriptions.id, k.subscriptionId)));
    const period = { subscriptionId: k.subscriptionId, periodStart: sub.currentPeriodStart, periodEnd: sub.currentPeriodEnd };
    // 20 batches of 7 (140 wanted) at once, each in its own transaction: exactly 50 granted in total.
    const results = await Promise.all(Array.from({ length: 20 }, () => reserveUnits(handle.db, period, 50, 7)));
    expect(results.reduce((s, r) => s + r.granted, 0)).toBe(50);
    expect(Math.max(...results.map((r) => r.usedAfter))).toBe(50);
    expect(await usedInDb(k.subscriptionId)).toBe(50);
    expect((await reserveUnits(handle.db, period, 50, 3)).granted).toBe(0);
  });

  it('coalesced reservations hand out distinct, consecutive counts', async () => {
    const k = await buy(kb, { cap: 30 });
    const sub = firstRow(await handle.db.select().from(subscriptions).where(eq(subscriptions.id, k.subscriptionId)));
    const period = { subscriptionId: k.subscriptionId, periodStart: sub.currentPeriodStart, periodEnd: sub.currentPeriodEnd };
    const results = await Promise.all(Array.from({ length: 40 }, () => reserveQueryUnit(handle.db, period, 30)));
    const granted = results
      .filter((r) => r.ok)
      .map((r) => r.used)
      .sort((a, b) => a - b);
    expect(granted).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(results.filter((r) => !r.ok).every((r) => r.used === 30)).toBe(true);
  });
});

describe('rate limit at the boundary', () => {
  it('limit 5: five pass, the sixth is 429 with Retry-After, and the window slides', async () => {
    const k = await buy(kb, { cap: 1_000, perMinute: 5 });
    const replies = [];
    for (let i = 0; i < 6; i++) replies.push(await ask(k));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(replies.map((r) => r.headers.get('X-RateLimit-Remaining'))).toEqual(['4', '3', '2', '1', '0', '0']);
    const limited = itemAt(replies, 5);
    expect(limited.body.error).toBe('rate_limit_exceeded');
    expect(limited.body.retry_after).toBeGreaterThanOrEqual(1);
    expect(limited.body.retry_after).toBeLessThanOrEqual(Math.ceil(RATE_WINDOW_MS / 1000));
    expect(limited.headers.get('Retry-After')).toBe(String(limited.body.retry_after));
    // The refused request was not counted against the cap.
    expect(limited.headers.get('X-Usage-Used')).toBe('5');
    openapi.expectConforms('/kb/{kb_id}/query', 'POST', limited);
    await new Promise((r) => setTimeout(r, RATE_WINDOW_MS + 100));
    expect((await ask(k)).status).toBe(200);
  });

  it('counts refused requests that reach the limit step (a 400 uses a slot)', async () => {
    const k = await buy(kb, { cap: 1_000, perMinute: 2 });
    expect((await callGateway({ kbId: kb, authorization: `Bearer ${k.key}`, body: '{}' })).status).toBe(400);
    expect((await ask(k)).status).toBe(200);
    expect((await ask(k)).status).toBe(429);
  });
});

describe('publisher failures give the cap unit back', () => {
  const modes: {
    name: string;
    endpoint: () => Promise<string> | string;
    status: number;
    error: string;
    timeoutMs?: number;
    secrets?: 'wrong-signing' | 'wrong-infra';
  }[] = [
    {
      name: 'publisher down (connection refused)',
      endpoint: async () => `http://127.0.0.1:${await closedPort()}/query`,
      status: 502,
      error: 'publisher_error',
    },
    { name: 'slow publisher (timeout)', endpoint: () => `${bad.base}/slow`, status: 504, error: 'publisher_timeout', timeoutMs: 300 },
    { name: 'HTTP 500', endpoint: () => `${bad.base}/status-500`, status: 502, error: 'publisher_error' },
    { name: 'invalid JSON', endpoint: () => `${bad.base}/invalid-json`, status: 502, error: 'publisher_error' },
    { name: 'oversized answer (Content-Length)', endpoint: () => `${bad.base}/oversized`, status: 502, error: 'publisher_error' },
    { name: 'oversized answer (chunked, counted on the stream)', endpoint: () => `${bad.base}/oversized-chunked`, status: 502, error: 'publisher_error' },
    { name: 'schema-breaking answer', endpoint: () => `${bad.base}/schema`, status: 502, error: 'publisher_error' },
    { name: 'connection reset', endpoint: () => `${bad.base}/reset`, status: 502, error: 'publisher_error' },
    {
      name: 'wrong signing secret (the example publisher verifies it)',
      endpoint: () => publisher.url,
      status: 502,
      error: 'publisher_error',
      secrets: 'wrong-signing',
    },
    {
      name: 'wrong infrastructure key (the example publisher verifies it)',
      endpoint: () => publisher.url,
      status: 502,
      error: 'publisher_error',
      secrets: 'wrong-infra',
    },
  ];

  it.each(modes)('$name → $status $error, usage unchanged', async (mode) => {
    const signingSecret = mode.secrets === 'wrong-signing' ? `wrong_sign_${'z'.repeat(32)}` : publisher.signingSecret;
    const infraKey = mode.secrets === 'wrong-infra' ? `wrong_infra_${'z'.repeat(16)}` : publisher.infraKey;
    rememberSecret(signingSecret, infraKey);
    const kbId = await createHttpKnowledgeBase(handle.db, pub, {
      endpointUrl: await mode.endpoint(),
      infraKey,
      signingSecret,
      timeoutMs: mode.timeoutMs ?? 5_000,
    });
    const k = await buy(kbId, { cap: 10 });
    const started = Date.now();
    const reply = await ask(k);
    expect(reply.status).toBe(mode.status);
    expect(reply.body).toEqual({ error: mode.error, message: expect.any(String), request_id: reply.headers.get('X-Request-Id') });
    expect(reply.headers.get('X-Usage-Used')).toBe('0');
    expect(reply.headers.get('X-Usage-Remaining')).toBe('10');
    expect(await usedInDb(k.subscriptionId)).toBe(0);
    if (mode.timeoutMs) expect(Date.now() - started).toBeLessThan(2_000);
    openapi.expectConforms('/kb/{kb_id}/query', 'POST', reply);
    await getUsageRecorder().flush();
    const logged = await handle.db.select().from(queryLog).where(eq(queryLog.subscriptionId, k.subscriptionId));
    expect(logged.map((l) => [l.status, l.errorCode])).toEqual([[mode.status, mode.error]]);
  });

  it('the same knowledge base answers again once its publisher behaves (the unit was really returned)', async () => {
    const kbId = await createHttpKnowledgeBase(handle.db, pub, {
      endpointUrl: `${bad.base}/status-500`,
      infraKey: publisher.infraKey,
      signingSecret: publisher.signingSecret,
    });
    const k = await buy(kbId, { cap: 1 });
    expect((await ask(k)).status).toBe(502);
    expect((await ask(k)).status).toBe(502);
    await handle.db
      .update(knowledgeBases)
      .set({ endpointUrl: `${bad.base}/ok` })
      .where(eq(knowledgeBases.id, kbId));
    clearGatewayCaches();
    const ok = await ask(k);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('X-Usage-Used')).toBe('1');
    expect((await ask(k)).body.error).toBe('query_cap_exceeded');
  });

  it('the example publisher answers from its own documents with verifiable citations', async () => {
    const k = await buy(kb);
    const reply = await ask(k, 'Which light does a vessel at anchor show?');
    expect(reply.status).toBe(200);
    expect(reply.body.citations[0]).toMatchObject({ document_id: 'lights', title: 'Navigation Lights at Night', page: null });
    expect(reply.body.citations[0].excerpt).toContain('anchor');
  });
});

describe('hosted backend', () => {
  it('answers through the built-in engine from uploaded documents', async () => {
    const kbId = await createKnowledgeBase(handle.db, pub, { title: 'Lighthouse Handbook' });
    const text =
      'Lighthouse keepers trimmed the wick every four hours.\n\nThe Fresnel lens concentrates the beam of a lighthouse so it can be seen far out at sea.';
    const ingested = await ingestDocument(handle.db, kbId, { sourceName: 'lighthouses.txt', bytes: new TextEncoder().encode(text), mimeType: 'text/plain' });
    expect(ingested.ok).toBe(true);
    const k = await buy(kbId);
    const reply = await ask(k, 'What does the Fresnel lens do?');
    expect(reply.status).toBe(200);
    expect(reply.body.citations.length).toBeGreaterThan(0);
    expect(text).toContain(reply.body.citations[0].excerpt.replace(/…/g, '').trim().slice(0, 30));
    openapi.expectConforms('/kb/{kb_id}/query', 'POST', reply);
  });
});

describe('abstentions are free (docs/api.md §3.7)', () => {
  it('an http backend answering with no citations: 200, not counted, no queryVolume; a cited answer counts', async () => {
    const kbId = await createHttpKnowledgeBase(handle.db, pub, {
      endpointUrl: `${bad.base}/abstain`,
      infraKey: publisher.infraKey,
      signingSecret: publisher.signingSecret,
    });
    const k = await buy(kbId, { cap: 1 });
    const volumeBefore = await queryVolume(kbId);
    for (let i = 0; i < 3; i++) {
      const reply = await ask(k);
      expect(reply.status).toBe(200);
      expect(reply.body.citations).toEqual([]);
      expect(reply.headers.get('X-Usage-Used')).toBe('0');
      expect(reply.headers.get('X-Usage-Remaining')).toBe('1');
    }
    expect(await usedInDb(k.subscriptionId)).toBe(0);
    await getUsageRecorder().flush();
    expect(await queryVolume(kbId)).toBe(volumeBefore);
    const logged = await handle.db.select().from(queryLog).where(eq(queryLog.subscriptionId, k.subscriptionId));
    expect(logged.map((l) => [l.status, l.abstained])).toEqual([
      [200, true],
      [200, true],
      [200, true],
    ]);
    const daily = await handle.db.select().from(usageDaily).where(eq(usageDaily.subscriptionId, k.subscriptionId));
    expect(daily.reduce((sum, d) => sum + d.queries, 0)).toBe(0);
    // The cap of one is still whole: the publisher now answers with a citation, and that one counts.
    await handle.db
      .update(knowledgeBases)
      .set({ endpointUrl: `${bad.base}/ok` })
      .where(eq(knowledgeBases.id, kbId));
    clearGatewayCaches();
    expect((await ask(k)).headers.get('X-Usage-Used')).toBe('1');
    expect((await ask(k)).body.error).toBe('query_cap_exceeded');
  });

  it('a hosted knowledge base with nothing relevant abstains for free', async () => {
    const kbId = await createKnowledgeBase(handle.db, pub, { title: 'Knots' });
    const text = 'Knots\n\nThe bowline makes a fixed loop at the end of a line. The clove hitch binds a line to a post.';
    const ingested = await ingestDocument(handle.db, kbId, { sourceName: 'knots.txt', bytes: new TextEncoder().encode(text), mimeType: 'text/plain' });
    expect(ingested, JSON.stringify(ingested)).toMatchObject({ ok: true });
    const k = await buy(kbId, { cap: 5 });
    const offTopic = await ask(k, 'What is the boiling point of mercury?');
    expect(offTopic.status).toBe(200);
    expect(offTopic.body.citations).toEqual([]);
    expect(offTopic.headers.get('X-Usage-Used')).toBe('0');
    const onTopic = await ask(k, 'Which knot makes a fixed loop?');
    expect(onTopic.body.citations.length).toBeGreaterThan(0);
    expect(onTopic.headers.get('X-Usage-Used')).toBe('1');
    expect(await usedInDb(k.subscriptionId)).toBe(1);
  });
});

describe('runSubscriberQuery ("Try it")', () => {
  it('answers for the signed-in subscriber and counts against the cap under the newest key', async () => {
    const k = await buy(kb, { cap: 2, perMinute: 1_000 });
    const first = await runSubscriberQuery({ userId: k.userId, kbId: kb, query: '  clove hitch  ', requestId: 'req_tryit1' });
    expect(first.ok).toBe(true);
    if (first.ok) expect(first.usage).toEqual({ used: 1, cap: 2, remaining: 1 });
    const blank = await runSubscriberQuery({ userId: k.userId, kbId: kb, query: '   ', requestId: 'req_tryit2' });
    expect(blank).toMatchObject({ ok: false, code: 'invalid_query', status: 400 });
    expect((await ask(k)).status).toBe(200);
    const over = await runSubscriberQuery({ userId: k.userId, kbId: kb, query: 'bowline', requestId: 'req_tryit3' });
    expect(over).toMatchObject({ ok: false, code: 'query_cap_exceeded', status: 429, extras: { usage: { used: 2, cap: 2 } } });
  });

  it('refuses a user without a subscription, and one whose subscription ended', async () => {
    const k = await buy(kb);
    const stranger = await runSubscriberQuery({ userId: 'usr_nobody', kbId: kb, query: 'tides', requestId: 'req_tryit4' });
    expect(stranger).toMatchObject({ ok: false, code: 'forbidden', status: 403 });
    await handle.db.update(subscriptions).set({ status: 'cancelled' }).where(eq(subscriptions.id, k.subscriptionId));
    clearGatewayCaches();
    const ended = await runSubscriberQuery({ userId: k.userId, kbId: kb, query: 'tides', requestId: 'req_tryit5' });
    expect(ended).toMatchObject({ ok: false, code: 'forbidden', status: 403 });
  });
});

describe('usage recorder', () => {
  /** A knowledge base with one buyer, the recorder's entry for its i-th answer, and what its counts must read. */
  async function recorded() {
    const kbId = await createKnowledgeBase(handle.db, pub);
    const k = await buy(kbId);
    const at = new Date();
    const entry = (i: number) => ({
      requestId: `req_rec${i}`,
      kbId,
      subscriptionId: k.subscriptionId,
      keyId: k.keyId,
      status: 200,
      errorCode: null,
      tokensUsed: 2,
      latencyMs: 1,
      at,
    });
    const expectCounted = async (n: number) => {
      expect(await queryVolume(kbId)).toBe(n);
      const [daily] = await handle.db.select().from(usageDaily).where(eq(usageDaily.subscriptionId, k.subscriptionId));
      expect(daily).toMatchObject({ queries: n, tokens: 2 * n });
      expect(await handle.db.$count(queryLog, eq(queryLog.subscriptionId, k.subscriptionId))).toBe(n);
    };
    return { entry, expectCounted };
  }

  it('loses no count when a flush fails: the batch is retried and added, not overwritten', async () => {
    const { entry, expectCounted } = await recorded();
    let failNext = true;
    const recorder = new UsageRecorder(async () => {
      if (failNext) {
        failNext = false;
        throw new Error('database unavailable (simulated)');
      }
      return handle.db;
    });
    for (let i = 0; i < 30; i++) recorder.record(entry(i));
    await recorder.flush();
    expect(recorder.pending()).toBeGreaterThan(0);
    for (let i = 30; i < 50; i++) recorder.record(entry(i));
    await recorder.flush();
    expect(recorder.pending()).toBe(0);
    await expectCounted(50);
  });

  it('adds nothing twice when a flush committed but its reply was lost: the retry is skipped by its batch id', async () => {
    const { entry, expectCounted } = await recorded();
    let loseReply = true;
    // The transaction commits on the server, then the connection drops before the client hears of it.
    const lossy = new Proxy(handle.db, {
      get(target, prop, receiver) {
        if (prop !== 'transaction') return Reflect.get(target, prop, receiver);
        return async (...args: Parameters<typeof target.transaction>) => {
          await target.transaction(...args);
          if (loseReply) {
            loseReply = false;
            throw new Error('connection lost after commit (simulated)');
          }
        };
      },
    });
    const recorder = new UsageRecorder(async () => lossy);
    for (let i = 0; i < 30; i++) recorder.record(entry(i));
    await recorder.flush();
    expect(recorder.pending()).toBeGreaterThan(0);
    recorder.record(entry(30));
    await recorder.flush();
    expect(recorder.pending()).toBe(0);
    await expectCounted(31);
  });

  it('writes last_used_at at most once a minute per key', async () => {
    const kbId = await createKnowledgeBase(handle.db, pub);
    const k = await buy(kbId);
    const recorder = new UsageRecorder(async () => handle.db);
    const t0 = new Date('2030-01-01T00:00:00Z');
    const entry = (at: Date, keyLastUsedAt: Date | null) => ({
      requestId: 'req_x',
      kbId,
      subscriptionId: k.subscriptionId,
      keyId: k.keyId,
      status: 200,
      errorCode: null,
      tokensUsed: 0,
      latencyMs: 0,
      at,
      keyLastUsedAt,
    });
    recorder.record(entry(t0, null));
    recorder.record(entry(new Date(t0.getTime() + 30_000), null));
    await recorder.flush();
    const read = async () => firstRow(await handle.db.select({ t: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, k.keyId))).t;
    expect(await read()).toEqual(t0);
    recorder.record(entry(new Date(t0.getTime() + 61_000), t0));
    await recorder.flush();
    expect(await read()).toEqual(new Date(t0.getTime() + 61_000));
  });
});

describe('logs', () => {
  it('hold no issued key and no publisher secret', async () => {
    await getUsageRecorder().flush();
    const { lines } = expectLogsFreeOfSecrets([LOG_FILE]);
    // The publisher failures above were logged, so the scan really read something.
    expect(lines).toBeGreaterThan(5);
  });
});

import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { knowledgeBases, publishers } from '@/db/schema';
import { UsageRecorder, type QueryRecord } from '@/lib/gateway/usage-recorder';
import { newId } from '@/lib/platform/ids';
import { analyticsCsv, getKnowledgeBaseAnalytics, getPublisherAnalytics, percentileOf } from '@/lib/publishing';
import { purchaseSubscription } from '@/lib/subscriptions';
import { createTestDatabase } from '../support/db';
import { createCatalogFixture, createUser } from './subscriptions-fixtures';

/**
 * Publishers' analytics from daily aggregates (docs/api.md §9.4): the usage recorder adds outcomes and latencies into
 * kb_stats_daily off the hot path (increments, so two recorders add up), and the console reads only that, the
 * subscriptions by plan and the earnings ledger.
 */

let db: Database;
let owner: string;
let stranger: string;
let subscriptionId: string;
let fx: Awaited<ReturnType<typeof createCatalogFixture>>;

const NOW = new Date('2026-05-20T12:00:00Z');
const at = (day: string) => new Date(`${day}T10:00:00Z`);

function query(kbId: string, day: string, status: number, latencyMs: number, extra: Partial<QueryRecord> = {}): QueryRecord {
  return { requestId: newId('req'), kbId, subscriptionId, keyId: null, status, errorCode: null, tokensUsed: 0, latencyMs, at: at(day), ...extra };
}

beforeAll(async () => {
  db = (await createTestDatabase()).db;
  owner = await createUser(db);
  stranger = await createUser(db);
  fx = await createCatalogFixture(db);
  await db.execute(sql`update publishers set owner_user_id = ${owner} where id = ${fx.publisherId}`);
  await db.insert(publishers).values({ id: newId('pub'), slug: `s-${stranger.slice(-6).toLowerCase()}`, name: 'Stranger', ownerUserId: stranger });
});

describe('analytics', () => {
  it('percentiles come from the merged histogram', () => {
    expect(percentileOf([0, 0, 0], 0.5)).toBeNull();
    expect(percentileOf([10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0.95)).toBe(5);
    expect(percentileOf([50, 0, 0, 0, 45, 0, 0, 0, 0, 0, 5, 0, 0], 0.5)).toBe(5);
    expect(percentileOf([50, 0, 0, 0, 45, 0, 0, 0, 0, 0, 5, 0, 0], 0.95)).toBe(100);
  });

  it('counts answered, abstained and errors by code per day, merges latency across recorders, and shows subscribers and revenue', async () => {
    const buyer = await createUser(db);
    const bought = await purchaseSubscription(db, { userId: buyer, planId: fx.plans.pro, mode: 'test', now: new Date('2026-05-02T00:00:00Z') });
    if (!bought.ok) throw new Error(bought.message);
    subscriptionId = bought.subscription.id;
    const a = new UsageRecorder(async () => db);
    const b = new UsageRecorder(async () => db);
    a.record(query(fx.kbId, '2026-05-19', 200, 40));
    a.record(query(fx.kbId, '2026-05-19', 200, 80));
    b.record(query(fx.kbId, '2026-05-19', 200, 90));
    b.record(query(fx.kbId, '2026-05-19', 200, 20, { abstained: true }));
    b.record(query(fx.kbId, '2026-05-20', 502, 300, { errorCode: 'publisher_error' }));
    a.record(query(fx.kbId, '2026-05-20', 504, 31_000, { errorCode: 'publisher_timeout' }));
    a.record(query(fx.kbId, '2026-05-20', 200, 45));
    // Refusals before any backend (cap, rate limit) and free previews are counted apart from errors.
    a.recordRefusal({ kbId: fx.kbId, code: 'query_cap_exceeded', at: at('2026-05-20') });
    b.recordRefusal({ kbId: fx.kbId, code: 'query_cap_exceeded', at: at('2026-05-20') });
    b.recordRefusal({ kbId: fx.kbId, code: 'rate_limit_exceeded', at: at('2026-05-19') });
    a.recordPreview({ kbId: fx.kbId, latencyMs: 30, at: at('2026-05-19') });
    // The week before the 7-day period: only in the comparison.
    b.record(query(fx.kbId, '2026-05-10', 200, 40));
    b.recordPreview({ kbId: fx.kbId, latencyMs: 30, at: at('2026-05-13') });
    await Promise.all([a.flush(), b.flush()]);
    expect([a.pending(), b.pending()]).toEqual([0, 0]);

    const result = await getKnowledgeBaseAnalytics(db, owner, fx.kbId, { days: 7, now: NOW });
    if (!result.ok) throw new Error(result.message);
    const v = result.analytics;
    expect(v.totals).toEqual({ answered: 4, abstained: 1, previews: 1, refused: 3, errors: 2 });
    expect(v.previousTotals).toEqual({ answered: 1, abstained: 0, previews: 1, refused: 0, errors: 0 });
    expect(v.daily.slice(-2)).toEqual([
      { day: '2026-05-19', answered: 3, abstained: 1, previews: 1, refused: 1, errors: 0, errorsByCode: {}, refusedByCode: { rate_limit_exceeded: 1 } },
      {
        day: '2026-05-20',
        answered: 1,
        abstained: 0,
        previews: 0,
        refused: 2,
        errors: 2,
        errorsByCode: { publisher_error: 1, publisher_timeout: 1 },
        refusedByCode: { query_cap_exceeded: 2 },
      },
    ]);
    expect(v.refusedByCode).toEqual([
      { code: 'query_cap_exceeded', count: 2 },
      { code: 'rate_limit_exceeded', count: 1 },
    ]);
    expect(v.daily).toHaveLength(7);
    expect(v.errorsByCode).toEqual([
      { code: 'publisher_error', count: 1 },
      { code: 'publisher_timeout', count: 1 },
    ]);
    // 8 backend latencies (refusals have none): 20, 30, 40, 45, 80, 90, 300, 31000 → p50 ≤ 50 ms, p95 the slowest.
    expect(v.latency).toEqual({ p50: 50, p95: Number.POSITIVE_INFINITY });
    expect(v.subscribersByPlan).toEqual([
      { plan: 'Starter', active: true, subscribers: 0 },
      { plan: 'Professional', active: true, subscribers: 1 },
      { plan: 'Legacy', active: false, subscribers: 0 },
    ]);
    expect(v.revenueByMonth).toEqual([{ month: '2026-05', currency: 'usd', grossCents: 2900, netCents: 2320 }]);

    const csv = analyticsCsv(v, '=Fixture, "KB"');
    expect(csv.split('\n').slice(0, 1)).toEqual([
      'knowledge_base,day,answered,abstained,previews,refused,errors,refused_query_cap_exceeded,refused_rate_limit_exceeded,errors_publisher_error,errors_publisher_timeout',
    ]);
    expect(csv).toContain(`"'=Fixture, ""KB""",2026-05-20,1,0,0,2,2,2,0,1,1`);

    const overall = await getPublisherAnalytics(db, owner, { days: 7, now: NOW });
    if (!overall.ok) throw new Error(overall.message);
    expect(overall.analytics.totals).toEqual(v.totals);
    expect(overall.perKnowledgeBase).toEqual([{ id: fx.kbId, title: expect.any(String), ...v.totals }]);
  });

  it('shows a calendar month day by day, against the same days of the month before', async () => {
    const r = new UsageRecorder(async () => db);
    r.record(query(fx.kbId, '2026-04-10', 200, 40));
    r.record(query(fx.kbId, '2026-04-25', 200, 40)); // after April 20: outside the comparison with May 1–20
    r.recordRefusal({ kbId: fx.kbId, code: 'query_cap_exceeded', at: at('2026-05-03') });
    r.record(query(fx.kbId, '2026-05-21', 200, 40)); // after "now": never shown
    await r.flush();
    const may = await getKnowledgeBaseAnalytics(db, owner, fx.kbId, { period: { kind: 'month', month: '2026-05' }, now: NOW });
    if (!may.ok) throw new Error(may.message);
    expect(may.analytics).toMatchObject({ days: 20, from: '2026-05-01', to: '2026-05-20', previousFrom: '2026-04-01', previousTo: '2026-04-20' });
    expect(may.analytics.daily).toHaveLength(20);
    expect(may.analytics.totals).toEqual({ answered: 5, abstained: 1, previews: 2, refused: 4, errors: 2 }); // with May 10 and 13 of the test before
    expect(may.analytics.previousTotals).toEqual({ answered: 1, abstained: 0, previews: 0, refused: 0, errors: 0 });
    // A past month is whole, and compared with the whole month before when that is not longer.
    const april = await getKnowledgeBaseAnalytics(db, owner, fx.kbId, { period: { kind: 'month', month: '2026-04' }, now: NOW });
    if (!april.ok) throw new Error(april.message);
    expect(april.analytics).toMatchObject({ days: 30, from: '2026-04-01', to: '2026-04-30', previousFrom: '2026-03-01', previousTo: '2026-03-30' });
    expect(april.analytics.totals.answered).toBe(2);
  });

  it('stores no question and no buyer, and shows nothing to a stranger', async () => {
    const columns = await db.execute(sql`select column_name from information_schema.columns where table_name = 'kb_stats_daily' order by ordinal_position`);
    expect(columns.rows.map((r) => (r as { column_name: string }).column_name)).toEqual(['kb_id', 'day', 'outcome', 'count', 'latency_buckets']);
    expect(await getKnowledgeBaseAnalytics(db, stranger, fx.kbId)).toMatchObject({ ok: false, code: 'not_found' });
    const strangers = await getPublisherAnalytics(db, stranger, { days: 7, now: NOW });
    expect(strangers.ok && strangers.analytics.totals).toEqual({ answered: 0, abstained: 0, previews: 0, refused: 0, errors: 0 });
    const [kb] = await db.select({ id: knowledgeBases.id }).from(knowledgeBases).limit(1);
    expect(kb).toBeDefined();
  });
});

import { and, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { earnings, kbStatsDaily, knowledgeBases, plans, subscriptions } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { requireOwnedKnowledgeBase, requirePublisherForUser } from './ownership';
import type { Refusal } from '@/lib/platform/transactions';

/**
 * Publishers' analytics (docs/api.md §9.4), read only from daily aggregates (kb_stats_daily, subscriptions by plan,
 * the earnings ledger): no question text exists to read, and no buyer is named.
 */

/** Upper bounds (ms) of the latency histogram's buckets; the last one takes everything slower. */
export const LATENCY_BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, Number.POSITIVE_INFINITY] as const;

export function latencyBucketOf(ms: number): number {
  const i = LATENCY_BUCKETS_MS.findIndex((bound) => ms <= bound);
  return i === -1 ? LATENCY_BUCKETS_MS.length - 1 : i;
}

export const PREVIEW_OUTCOME = 'preview';

/** Refusals before any backend was asked: the buyer's cap or rate limit, shown apart from the backend's errors. */
const REFUSAL_CODES = ['query_cap_exceeded', 'rate_limit_exceeded'] as const;
const isRefusal = (outcome: string) => (REFUSAL_CODES as readonly string[]).includes(outcome);

export function statsOutcomeOf(entry: { status: number; errorCode: string | null; abstained?: boolean }): string {
  if (entry.status === 200) return entry.abstained ? 'abstained' : 'answered';
  return entry.errorCode ?? `http_${entry.status}`;
}

/** The latency (bucket upper bound, ms) under which `p` of the counted queries fall; null without data. */
export function percentileOf(buckets: number[], p: number): number | null {
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const target = Math.ceil(p * total);
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i] ?? 0;
    if (seen >= target) return LATENCY_BUCKETS_MS[i] ?? null;
  }
  return null;
}

export interface DailyOutcomes {
  day: string;
  answered: number;
  abstained: number;
  previews: number;
  refused: number;
  errors: number;
  errorsByCode: Record<string, number>;
  refusedByCode: Record<string, number>;
}

type Totals = Pick<DailyOutcomes, 'answered' | 'abstained' | 'previews' | 'refused' | 'errors'>;

export interface ListingOutcomes extends Totals {
  id: string;
  title: string;
}

export interface AnalyticsView {
  period: AnalyticsPeriod;
  days: number;
  from: string;
  to: string;
  totals: Totals;
  /** The days just before, or for a month the same days of the month before, so a month in progress compares fairly. */
  previousTotals: Totals;
  previousFrom: string;
  previousTo: string;
  daily: DailyOutcomes[];
  errorsByCode: { code: string; count: number }[];
  refusedByCode: { code: string; count: number }[];
  latency: { p50: number | null; p95: number | null };
  subscribersByPlan: { plan: string; active: boolean; subscribers: number }[];
  revenueByMonth: { month: string; currency: string; grossCents: number; netCents: number }[];
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const DAY_MS = 86_400_000;
const utcDate = (year: number, month: number, day: number) => new Date(Date.UTC(year, month, day));

export type AnalyticsPeriod = { kind: 'days'; days: number } | { kind: 'month'; month: string };

export const ANALYTICS_DAYS = [7, 30, 90] as const;
const ANALYTICS_MONTHS = 12;

function analyticsDays(value: unknown): number {
  const n = Number(value);
  return (ANALYTICS_DAYS as readonly number[]).includes(n) ? n : 30;
}

export function analyticsMonths(now: Date): string[] {
  return Array.from({ length: ANALYTICS_MONTHS }, (_, i) => isoDay(utcDate(now.getUTCFullYear(), now.getUTCMonth() - i, 1)).slice(0, 7));
}

/** `month=YYYY-MM` or `days` (7, 30 or 90; else 30): one parser, so that the page and its CSV agree. */
export function parseAnalyticsPeriod(search: { days?: unknown; month?: unknown }, now: Date = new Date()): AnalyticsPeriod {
  const month = Array.isArray(search.month) ? search.month[0] : search.month;
  if (typeof month === 'string' && analyticsMonths(now).includes(month)) return { kind: 'month', month };
  const days = Array.isArray(search.days) ? search.days[0] : search.days;
  return { kind: 'days', days: analyticsDays(days) };
}

export const analyticsPeriodQuery = (period: AnalyticsPeriod) => (period.kind === 'month' ? `month=${period.month}` : `days=${period.days}`);

interface PeriodRange {
  from: Date;
  days: number;
  previousFrom: Date;
  previousDays: number;
}

function periodRange(period: AnalyticsPeriod, now: Date): PeriodRange {
  const today = utcDate(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (period.kind === 'days') {
    const from = new Date(today.getTime() - (period.days - 1) * DAY_MS);
    return { from, days: period.days, previousFrom: new Date(from.getTime() - period.days * DAY_MS), previousDays: period.days };
  }
  const [year, month] = period.month.split('-').map(Number) as [number, number];
  const from = utcDate(year, month - 1, 1);
  const monthEnd = utcDate(year, month, 0);
  const last = monthEnd < today ? monthEnd : today;
  const days = Math.round((last.getTime() - from.getTime()) / DAY_MS) + 1;
  const previousFrom = utcDate(year, month - 2, 1);
  const previousLength = utcDate(year, month - 1, 0).getUTCDate();
  return { from, days, previousFrom, previousDays: Math.min(days, previousLength) };
}

const TOTAL_KEYS = ['answered', 'abstained', 'previews', 'refused', 'errors'] as const;
const emptyTotals = (): Totals => ({ answered: 0, abstained: 0, previews: 0, refused: 0, errors: 0 });

function addOutcome(totals: Totals, outcome: string, count: number): void {
  if (outcome === 'answered') totals.answered += count;
  else if (outcome === 'abstained') totals.abstained += count;
  else if (outcome === PREVIEW_OUTCOME) totals.previews += count;
  else if (isRefusal(outcome)) totals.refused += count;
  else totals.errors += count;
}

const byCount = (counts: Map<string, number>) =>
  [...counts].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));

async function buildAnalytics(db: Executor, kbIds: string[], period: AnalyticsPeriod, now: Date): Promise<AnalyticsView> {
  const { from: fromDate, days, previousFrom, previousDays } = periodRange(period, now);
  const fromDay = isoDay(fromDate);
  const toDay = isoDay(new Date(fromDate.getTime() + (days - 1) * DAY_MS));
  const previousFromDay = isoDay(previousFrom);
  const previousToDay = isoDay(new Date(previousFrom.getTime() + (previousDays - 1) * DAY_MS));
  const rows = kbIds.length
    ? await db
        .select({ day: kbStatsDaily.day, outcome: kbStatsDaily.outcome, count: kbStatsDaily.count, buckets: kbStatsDaily.latencyBuckets })
        .from(kbStatsDaily)
        .where(and(inArray(kbStatsDaily.kbId, kbIds), gte(kbStatsDaily.day, previousFromDay), lte(kbStatsDaily.day, toDay)))
    : [];
  const byDay = new Map<string, DailyOutcomes>();
  for (let i = 0; i < days; i++) {
    const day = isoDay(new Date(fromDate.getTime() + i * DAY_MS));
    byDay.set(day, { day, answered: 0, abstained: 0, previews: 0, refused: 0, errors: 0, errorsByCode: {}, refusedByCode: {} });
  }
  const previousTotals = emptyTotals();
  const errors = new Map<string, number>();
  const refusals = new Map<string, number>();
  const buckets = new Array<number>(LATENCY_BUCKETS_MS.length).fill(0);
  for (const r of rows) {
    if (r.day < fromDay) {
      if (r.day <= previousToDay) addOutcome(previousTotals, r.outcome, r.count);
      continue;
    }
    const day = byDay.get(r.day);
    if (!day) continue;
    addOutcome(day, r.outcome, r.count);
    if (isRefusal(r.outcome)) {
      day.refusedByCode[r.outcome] = (day.refusedByCode[r.outcome] ?? 0) + r.count;
      refusals.set(r.outcome, (refusals.get(r.outcome) ?? 0) + r.count);
    } else if (!['answered', 'abstained', PREVIEW_OUTCOME].includes(r.outcome)) {
      day.errorsByCode[r.outcome] = (day.errorsByCode[r.outcome] ?? 0) + r.count;
      errors.set(r.outcome, (errors.get(r.outcome) ?? 0) + r.count);
    }
    r.buckets.forEach((n, i) => {
      if (i < buckets.length) buckets[i]! += n;
    });
  }
  const daily = [...byDay.values()];
  const totals = emptyTotals();
  for (const d of daily) for (const k of TOTAL_KEYS) totals[k] += d[k];

  const subscribersByPlan = kbIds.length
    ? await db
        .select({ plan: plans.name, active: plans.active, subscribers: sql<number>`count(${subscriptions.id})::int` })
        .from(plans)
        .leftJoin(subscriptions, and(eq(subscriptions.planId, plans.id), inArray(subscriptions.status, ['active', 'past_due'])))
        .where(inArray(plans.kbId, kbIds))
        .groupBy(plans.id, plans.name, plans.active, plans.sortOrder)
        .orderBy(plans.sortOrder, plans.name)
    : [];
  const month = sql<string>`to_char(date_trunc('month', ${earnings.periodStart} at time zone 'UTC'), 'YYYY-MM')`;
  const revenue = kbIds.length
    ? await db
        .select({
          month,
          currency: earnings.currency,
          grossCents: sql<number>`sum(${earnings.grossCents})::int`,
          netCents: sql<number>`sum(${earnings.netCents})::int`,
        })
        .from(earnings)
        .where(inArray(earnings.kbId, kbIds))
        .groupBy(month, earnings.currency)
        .orderBy(month, earnings.currency)
    : [];

  return {
    period,
    days,
    from: fromDay,
    to: toDay,
    totals,
    daily,
    previousTotals,
    previousFrom: previousFromDay,
    previousTo: previousToDay,
    errorsByCode: byCount(errors),
    refusedByCode: byCount(refusals),
    latency: { p50: percentileOf(buckets, 0.5), p95: percentileOf(buckets, 0.95) },
    subscribersByPlan: subscribersByPlan.map((s) => ({ ...s, subscribers: Number(s.subscribers) })),
    revenueByMonth: revenue.map((r) => ({ ...r, grossCents: Number(r.grossCents), netCents: Number(r.netCents) })),
  };
}

type PeriodOptions = { period?: AnalyticsPeriod; days?: number; now?: Date };
const periodOf = (options: PeriodOptions): AnalyticsPeriod => options.period ?? { kind: 'days', days: options.days ?? 30 };

export async function getKnowledgeBaseAnalytics(
  db: Executor,
  userId: string,
  kbId: unknown,
  options: PeriodOptions = {},
): Promise<{ ok: true; kb: { id: string; title: string }; analytics: AnalyticsView } | Refusal<'not_found'>> {
  const owned = await requireOwnedKnowledgeBase(db, userId, kbId);
  if (!owned.ok) return owned;
  const analytics = await buildAnalytics(db, [owned.kb.id], periodOf(options), options.now ?? new Date());
  return { ok: true, kb: { id: owned.kb.id, title: owned.kb.title }, analytics };
}

export async function getPublisherAnalytics(
  db: Executor,
  userId: string,
  options: PeriodOptions = {},
): Promise<{ ok: true; analytics: AnalyticsView; perKnowledgeBase: ListingOutcomes[] } | Refusal<'not_found'>> {
  const pub = await requirePublisherForUser(db, userId);
  if (!pub.ok) return pub;
  const kbs = await db
    .select({ id: knowledgeBases.id, title: knowledgeBases.title })
    .from(knowledgeBases)
    .where(eq(knowledgeBases.publisherId, pub.publisher.id))
    .orderBy(knowledgeBases.title);
  const period = periodOf(options);
  const now = options.now ?? new Date();
  const analytics = await buildAnalytics(
    db,
    kbs.map((k) => k.id),
    period,
    now,
  );
  const perKnowledgeBase = await Promise.all(kbs.map(async (kb) => ({ ...kb, ...(await buildAnalytics(db, [kb.id], period, now)).totals })));
  return { ok: true, analytics, perKnowledgeBase };
}

/** A leading = + - @, tab or CR is neutralised with a quote, so a spreadsheet never runs the cell as a formula. */
export const csvCell = (v: string | number | null) => {
  const s = v === null ? '' : String(v);
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export function analyticsCsv(view: AnalyticsView, title: string): string {
  const codes = view.errorsByCode.map((e) => e.code);
  const refused = view.refusedByCode.map((e) => e.code);
  const header = [
    'knowledge_base',
    'day',
    'answered',
    'abstained',
    'previews',
    'refused',
    'errors',
    ...refused.map((c) => `refused_${c}`),
    ...codes.map((c) => `errors_${c}`),
  ];
  const lines = [header.map(csvCell).join(',')];
  for (const d of view.daily) {
    const cells = [
      title,
      d.day,
      d.answered,
      d.abstained,
      d.previews,
      d.refused,
      d.errors,
      ...refused.map((c) => d.refusedByCode[c] ?? 0),
      ...codes.map((c) => d.errorsByCode[c] ?? 0),
    ];
    lines.push(cells.map(csvCell).join(','));
  }
  return `${lines.join('\n')}\n`;
}

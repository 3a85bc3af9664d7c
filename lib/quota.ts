import { sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';

/**
 * Fair metering (contract §1): one cap unit is reserved atomically in the database before a query is routed and
 * given back if the answer fails. The database is the single source of truth for caps whichever rate-limit backend
 * runs, so counts survive app and Redis restarts and agree across instances. The reservation is ONE statement:
 * the row-level lock taken by the conditional upsert serialises concurrent reservations, so with cap C exactly C
 * of any number of concurrent requests succeed.
 */
export interface PeriodKey {
  subscriptionId: string;
  periodStart: Date;
  periodEnd: Date;
}

export type Reservation = { ok: true; used: number } | { ok: false; used: number };

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

export async function reserveQueryUnit(db: Executor, period: PeriodKey, cap: number): Promise<Reservation> {
  if (cap <= 0) return { ok: false, used: await readPeriodUsage(db, period) };
  const result = await db.execute(sql`
    insert into usage_periods (subscription_id, period_start, period_end, used, updated_at)
    values (${period.subscriptionId}, ${period.periodStart.toISOString()}::timestamptz, ${period.periodEnd.toISOString()}::timestamptz, 1, now())
    on conflict (subscription_id, period_start) do update
      set used = usage_periods.used + 1, updated_at = now()
      where usage_periods.used < ${cap}
    returning used`);
  const row = rowsOf(result)[0];
  if (row) return { ok: true, used: Number(row.used) };
  return { ok: false, used: await readPeriodUsage(db, period) };
}

/** Gives a reserved unit back (the answer failed). Never goes below zero. Returns the count after. */
export async function releaseQueryUnit(db: Executor, period: PeriodKey): Promise<number> {
  const result = await db.execute(sql`
    update usage_periods set used = greatest(used - 1, 0), updated_at = now()
    where subscription_id = ${period.subscriptionId} and period_start = ${period.periodStart.toISOString()}::timestamptz
    returning used`);
  const row = rowsOf(result)[0];
  return row ? Number(row.used) : 0;
}

export async function readPeriodUsage(db: Executor, period: Pick<PeriodKey, 'subscriptionId' | 'periodStart'>): Promise<number> {
  const result = await db.execute(sql`
    select used from usage_periods
    where subscription_id = ${period.subscriptionId} and period_start = ${period.periodStart.toISOString()}::timestamptz`);
  const row = rowsOf(result)[0];
  return row ? Number(row.used) : 0;
}

export interface UsageSnapshot {
  used: number;
  cap: number;
}

/** X-Usage-* headers (contract §1), after counting this request. */
export function usageHeaders(usage: UsageSnapshot): Record<string, string> {
  return {
    'X-Usage-Used': String(usage.used),
    'X-Usage-Cap': String(usage.cap),
    'X-Usage-Remaining': String(Math.max(0, usage.cap - usage.used)),
  };
}

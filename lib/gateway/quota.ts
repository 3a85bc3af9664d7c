import { sql } from 'drizzle-orm';
import type { Database, Executor } from '@/db/client';
import { getEnv } from '@/lib/platform/env';
import { processSingleton } from '@/lib/platform/singleton';

/**
 * The cap of fair metering (docs/api.md §3.6): a unit is reserved atomically in the database before a query is routed
 * and given back if the answer fails. The row lock serialises reservations across processes, so with cap C exactly C
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

const MAX_BATCH = 256;

interface Waiter {
  resolve: (reservation: Reservation) => void;
  reject: (error: unknown) => void;
}

interface Lane {
  running: boolean;
  queue: Waiter[];
  db: Database;
  period: PeriodKey;
  cap: number;
}

/**
 * Concurrent reservations in this process are coalesced, one transaction per batch instead of one commit per request;
 * each batch grants min(batch, cap − used) under the row lock, so instances together never exceed the cap.
 */
export function reserveQueryUnit(db: Database, period: PeriodKey, cap: number): Promise<Reservation> {
  const lanes = processSingleton('quota-lanes', () => new Map<string, Lane>());
  const key = `${period.subscriptionId}|${period.periodStart.getTime()}`;
  let lane = lanes.get(key);
  if (!lane) {
    lane = { running: false, queue: [], db, period, cap };
    lanes.set(key, lane);
  }
  // The newest caller's view wins (an upgrade raises the cap for the next batch).
  lane.db = db;
  lane.cap = cap;
  const current = lane;
  return new Promise<Reservation>((resolve, reject) => {
    current.queue.push({ resolve, reject });
    if (!current.running) void drainLane(lanes, key, current);
  });
}

async function drainLane(lanes: Map<string, Lane>, key: string, lane: Lane): Promise<void> {
  lane.running = true;
  try {
    while (lane.queue.length > 0) {
      const batch = lane.queue.splice(0, MAX_BATCH);
      try {
        const { granted, usedAfter } = await reserveUnits(lane.db, lane.period, lane.cap, batch.length);
        batch.forEach((waiter, i) => waiter.resolve(i < granted ? { ok: true, used: usedAfter - granted + i + 1 } : { ok: false, used: usedAfter }));
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
  } finally {
    lane.running = false;
    if (lanes.get(key) === lane && lane.queue.length === 0) lanes.delete(key);
  }
}

/**
 * The fast path in one round trip: `cur` takes the row lock (FOR UPDATE waits, then reads the newest version), so the
 * grant comes from the latest count. No row comes back when the period has none yet or the cap is used up.
 * Parameters: commit mode, subscription, period start, wanted, cap.
 */
const RESERVE_STATEMENT = `
  with cur as (
    select used, set_config('synchronous_commit', $1, true) as commit_mode
    from usage_periods
    where subscription_id = $2 and period_start = $3::timestamptz
    for update
  )
  update usage_periods u set used = least(cur.used + $4::int, $5::int), updated_at = now()
  from cur
  where u.subscription_id = $2 and u.period_start = $3::timestamptz and cur.used < $5::int
  returning cur.used as before, u.used as after`;

/** The driver itself: the one statement every gateway request waits for skips Drizzle's statement building and spans. */
function driverOf(db: Database): { query(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }> } {
  return (db as unknown as { $client: ReturnType<typeof driverOf> }).$client;
}

export async function reserveUnits(db: Database, period: PeriodKey, cap: number, wanted: number): Promise<{ granted: number; usedAfter: number }> {
  if (cap <= 0 || wanted <= 0) return { granted: 0, usedAfter: await readPeriodUsage(db, period) };
  const commitMode = getEnv().QUOTA_SYNCHRONOUS_COMMIT ? 'on' : 'off';
  const periodStart = period.periodStart.toISOString();
  const fast = (await driverOf(db).query(RESERVE_STATEMENT, [commitMode, period.subscriptionId, periodStart, wanted, cap])).rows[0];
  if (fast) {
    const before = Number(fast.before);
    const after = Number(fast.after);
    return { granted: after - before, usedAfter: after };
  }
  return db.transaction(async (tx) => {
    // Per transaction only (set_config(…, true)); see QUOTA_SYNCHRONOUS_COMMIT in lib/platform/env.ts for the trade-off.
    const lockRow = () =>
      tx.execute(sql`
        select used, set_config('synchronous_commit', ${commitMode}, true) as commit_mode from usage_periods
        where subscription_id = ${period.subscriptionId} and period_start = ${period.periodStart.toISOString()}::timestamptz
        for update`);
    let row = rowsOf(await lockRow())[0];
    if (!row) {
      await tx.execute(sql`
        insert into usage_periods (subscription_id, period_start, period_end, used, updated_at)
        values (${period.subscriptionId}, ${period.periodStart.toISOString()}::timestamptz, ${period.periodEnd.toISOString()}::timestamptz, 0, now())
        on conflict (subscription_id, period_start) do nothing`);
      row = rowsOf(await lockRow())[0];
    }
    const used = Number(row?.used ?? 0);
    const granted = Math.max(0, Math.min(wanted, cap - used));
    if (granted > 0) {
      await tx.execute(sql`
        update usage_periods set used = used + ${granted}, updated_at = now()
        where subscription_id = ${period.subscriptionId} and period_start = ${period.periodStart.toISOString()}::timestamptz`);
    }
    return { granted, usedAfter: used + granted };
  });
}

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

export function usageHeaders(usage: UsageSnapshot): Record<string, string> {
  return {
    'X-Usage-Used': String(usage.used),
    'X-Usage-Cap': String(usage.cap),
    'X-Usage-Remaining': String(Math.max(0, usage.cap - usage.used)),
  };
}

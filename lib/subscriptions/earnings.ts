import { eq, sql } from 'drizzle-orm';
import { earnings, knowledgeBases, plans, subscriptions } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { randomBase62 } from '@/lib/platform/ids';

/**
 * The publishers' earnings ledger (docs/api.md §9.3): one row per paid period, written in the transaction of the event
 * that paid it; the unique (subscription, period start) key makes a replayed or concurrent event insert nothing.
 */

export type EarningSource = 'test_purchase' | 'test_renewal' | 'stripe_invoice';

/** The platform's fee on `grossCents`, rounded half up to the minor unit; the publisher gets the rest. */
export function splitGross(grossCents: number, feePercent: number = getEnv().PLATFORM_FEE_PERCENT): { feeCents: number; netCents: number } {
  const feeCents = Math.round((grossCents * feePercent) / 100);
  return { feeCents, netCents: grossCents - feeCents };
}

/** Defaults to the plan's price (test mode); Stripe passes what the invoice collected. A free period records nothing. */
export async function recordEarning(
  tx: Executor,
  input: { subscriptionId: string; periodStart: Date; periodEnd: Date; source: EarningSource; sourceEvent: string; grossCents?: number; currency?: string },
): Promise<boolean> {
  const [row] = await tx
    .select({
      planId: subscriptions.planId,
      kbId: subscriptions.kbId,
      publisherId: knowledgeBases.publisherId,
      priceCents: plans.priceCents,
      currency: plans.currency,
    })
    .from(subscriptions)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, subscriptions.kbId))
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(subscriptions.id, input.subscriptionId));
  if (!row) return false;
  const gross = input.grossCents ?? row.priceCents;
  if (gross <= 0) return false;
  const { feeCents, netCents } = splitGross(gross);
  const inserted = await tx
    .insert(earnings)
    .values({
      id: `ern_${randomBase62(16)}`,
      publisherId: row.publisherId,
      kbId: row.kbId,
      subscriptionId: input.subscriptionId,
      planId: row.planId,
      periodStart: input.periodStart,
      periodEnd: input.periodEnd,
      grossCents: gross,
      feeCents,
      netCents,
      currency: (input.currency ?? row.currency).toLowerCase(),
      source: input.source,
      sourceEvent: input.sourceEvent,
    })
    .onConflictDoNothing({ target: [earnings.subscriptionId, earnings.periodStart] })
    .returning({ id: earnings.id });
  return inserted.length > 0;
}

export interface EarningView {
  id: string;
  kbId: string;
  kbTitle: string;
  planName: string | null;
  periodStart: Date;
  periodEnd: Date;
  grossCents: number;
  feeCents: number;
  netCents: number;
  currency: string;
  source: EarningSource;
}

/** A publisher's ledger, newest period first, without anything about the buyer. */
export async function listEarnings(db: Executor, publisherId: string, limit = 200): Promise<EarningView[]> {
  const rows = await db
    .select({
      id: earnings.id,
      kbId: earnings.kbId,
      kbTitle: knowledgeBases.title,
      planName: plans.name,
      periodStart: earnings.periodStart,
      periodEnd: earnings.periodEnd,
      grossCents: earnings.grossCents,
      feeCents: earnings.feeCents,
      netCents: earnings.netCents,
      currency: earnings.currency,
      source: earnings.source,
    })
    .from(earnings)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, earnings.kbId))
    .leftJoin(plans, eq(plans.id, earnings.planId))
    .where(eq(earnings.publisherId, publisherId))
    .orderBy(sql`${earnings.periodStart} desc, ${earnings.id}`)
    .limit(limit);
  return rows.map((r) => ({ ...r, source: r.source as EarningSource }));
}

export async function earningsBalance(
  db: Executor,
  publisherId: string,
): Promise<{ currency: string; grossCents: number; feeCents: number; netCents: number; periods: number }[]> {
  const rows = await db
    .select({
      currency: earnings.currency,
      grossCents: sql<number>`coalesce(sum(${earnings.grossCents}), 0)::int`,
      feeCents: sql<number>`coalesce(sum(${earnings.feeCents}), 0)::int`,
      netCents: sql<number>`coalesce(sum(${earnings.netCents}), 0)::int`,
      periods: sql<number>`count(*)::int`,
    })
    .from(earnings)
    .where(eq(earnings.publisherId, publisherId))
    .groupBy(earnings.currency)
    .orderBy(earnings.currency);
  return rows.map((r) => ({ ...r, grossCents: Number(r.grossCents), feeCents: Number(r.feeCents), netCents: Number(r.netCents), periods: Number(r.periods) }));
}

import { and, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { subscriptions, usagePeriods, type Subscription } from '@/db/schema';
import type { Executor, Transaction } from '@/lib/platform/db';
import { recordAudit } from '@/lib/platform/audit';
import { inTransaction } from '@/lib/platform/transactions';
import { periodContaining } from './billing-period';
import { applyChange } from './change';
import { recordEarning } from './earnings';
import { LIVE_STATUSES, type SubscriptionStatus } from './status';

export interface SubscriptionPeriodState {
  id: string;
  kbId: string;
  status: SubscriptionStatus;
  periodAnchorAt: Date;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  stripeSubscriptionId: string | null;
}

/** Stripe-managed subscriptions keep the stored period (invoice.paid advances it); others roll forward while active. */
export function resolveCurrentPeriod(subscription: SubscriptionPeriodState, now: Date): { start: Date; end: Date } {
  const stored = { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd };
  if (now.getTime() < subscription.currentPeriodEnd.getTime()) return stored;
  if (subscription.stripeSubscriptionId || subscription.status !== 'active' || subscription.cancelAtPeriodEnd) return stored;
  const period = periodContaining(subscription.periodAnchorAt, now);
  return { start: period.start, end: period.end };
}

/** The gateway's cheap test: only when this is true does it need ensureCurrentPeriod. */
export function isPeriodOver(subscription: Pick<SubscriptionPeriodState, 'currentPeriodEnd'>, now: Date): boolean {
  return now.getTime() >= subscription.currentPeriodEnd.getTime();
}

/** Cancelled at period end, period over, not yet marked expired: no access, and no longer holding the one live slot. */
export function lapsedCondition(now: Date): SQL {
  return and(eq(subscriptions.cancelAtPeriodEnd, true), inArray(subscriptions.status, [...LIVE_STATUSES]), lte(subscriptions.currentPeriodEnd, now))!;
}

export function isLapsed(row: Pick<SubscriptionPeriodState, 'cancelAtPeriodEnd' | 'status' | 'currentPeriodEnd'>, now: Date): boolean {
  return row.cancelAtPeriodEnd && LIVE_STATUSES.includes(row.status) && isPeriodOver(row, now);
}

export async function expireIfLapsed(tx: Transaction, subscriptionId: string, now: Date): Promise<Subscription | null> {
  const { updated } = await applyChange(tx, {
    subscriptionId,
    at: now,
    decide: (row) => (isLapsed(row, now) ? { status: 'expired', endedAt: row.currentPeriodEnd } : 'unchanged'),
    audit: (row) => ({ actorKind: 'system', action: 'subscription.expire', metadata: { kbId: row.kbId, endedAt: row.currentPeriodEnd.toISOString() } }),
  });
  return updated;
}

/** Rolls a non-Stripe subscription forward or expires a lapsed one; cheap when nothing is due. */
export async function ensureCurrentPeriod<S extends SubscriptionPeriodState>(db: Executor, subscription: S, now: Date = new Date()): Promise<S> {
  if (!isPeriodOver(subscription, now)) return subscription;
  if (subscription.cancelAtPeriodEnd && LIVE_STATUSES.includes(subscription.status)) {
    const expired = await inTransaction(db, (tx) => expireIfLapsed(tx, subscription.id, now));
    if (expired) return { ...subscription, status: expired.status, currentPeriodStart: expired.currentPeriodStart, currentPeriodEnd: expired.currentPeriodEnd };
    return subscription;
  }
  const period = resolveCurrentPeriod(subscription, now);
  if (period.end.getTime() === subscription.currentPeriodEnd.getTime()) return subscription;
  await inTransaction(db, async (tx) => {
    // Only ever forward, and only while still active and not cancelling: two instances rolling at once agree. A
    // downgrade the buyer scheduled (pending_plan_id) becomes the plan with the new period, in the same statement.
    const [before] = await tx
      .select({ planId: subscriptions.planId, pendingPlanId: subscriptions.pendingPlanId })
      .from(subscriptions)
      .where(eq(subscriptions.id, subscription.id))
      .for('update');
    const [rolled] = await tx
      .update(subscriptions)
      .set({
        currentPeriodStart: period.start,
        currentPeriodEnd: period.end,
        planId: sql`coalesce(${subscriptions.pendingPlanId}, ${subscriptions.planId})`,
        pendingPlanId: null,
        updatedAt: now,
      })
      .where(
        and(
          eq(subscriptions.id, subscription.id),
          eq(subscriptions.status, 'active'),
          eq(subscriptions.cancelAtPeriodEnd, false),
          sql`${subscriptions.currentPeriodEnd} < ${period.end.toISOString()}::timestamptz`,
        ),
      )
      .returning({ planId: subscriptions.planId });
    if (rolled && before?.pendingPlanId) {
      await recordAudit(tx, {
        actorKind: 'system',
        action: 'subscription.downgrade_applied',
        targetType: 'subscription',
        targetId: subscription.id,
        metadata: { fromPlanId: before.planId, toPlanId: rolled.planId, periodStart: period.start.toISOString() },
      });
    }
    const opened = await tx
      .insert(usagePeriods)
      .values({ subscriptionId: subscription.id, periodStart: period.start, periodEnd: period.end, used: 0 })
      .onConflictDoNothing()
      .returning({ periodStart: usagePeriods.periodStart });
    // Without Stripe the roll is the renewal: the new period is paid (the ledger's key keeps a second roll from counting).
    if (opened.length > 0 && !subscription.stripeSubscriptionId) {
      await recordEarning(tx, {
        subscriptionId: subscription.id,
        periodStart: period.start,
        periodEnd: period.end,
        source: 'test_renewal',
        sourceEvent: `${subscription.id}@${period.start.toISOString()}`,
      });
    }
  });
  return { ...subscription, currentPeriodStart: period.start, currentPeriodEnd: period.end };
}

export async function expireEndedSubscriptions(db: Executor, now: Date = new Date()): Promise<number> {
  const due = await db.select({ id: subscriptions.id }).from(subscriptions).where(lapsedCondition(now));
  let count = 0;
  for (const { id } of due) {
    const expired = await inTransaction(db, (tx) => expireIfLapsed(tx, id, now));
    if (expired) count++;
  }
  return count;
}

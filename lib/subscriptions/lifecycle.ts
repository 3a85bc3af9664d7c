import { eq, inArray } from 'drizzle-orm';
import { knowledgeBases, plans, usagePeriods, type Subscription } from '@/db/schema';
import type { Executor, Transaction } from '@/lib/platform/db';
import { recordAudit, type AuditActorKind } from '@/lib/platform/audit';
import { Denied, deniable, type Refusal } from '@/lib/platform/transactions';
import { issueKey, type IssuedKey } from '@/lib/keys';
import { changeSubscription, lockSubscription, type SubscriptionChanges, type SubscriptionResult } from './change';
import { canChangePlan, ENDED_STATUSES, LIVE_STATUSES, type SubscriptionStatus } from './status';

/** Changes after purchase, by Stripe's webhook or the buyer; executor first, so the webhook runs them in its event's transaction. */

type BuyerInput = { userId: string; subscriptionId: string; now?: Date; actorKind?: AuditActorKind };

/** invoice.paid: the billed period becomes current (the cap resets) and past_due becomes active; it never moves back. */
export function applyStripePeriod(
  db: Executor,
  input: { subscriptionId: string; periodStart: Date; periodEnd: Date; now?: Date },
): Promise<SubscriptionResult> {
  return changeSubscription(db, {
    subscriptionId: input.subscriptionId,
    at: input.now ?? new Date(),
    decide: (row) => {
      if (ENDED_STATUSES.includes(row.status)) throw new Denied('conflict', 'This subscription has ended.');
      const advance = input.periodStart.getTime() >= row.currentPeriodStart.getTime();
      if (!advance) return { status: 'active' };
      // A new period is billed: a downgrade the buyer scheduled (scheduleDowngrade) takes effect with it.
      const renewed = input.periodStart.getTime() > row.currentPeriodStart.getTime();
      const pending = renewed && row.pendingPlanId ? { planId: row.pendingPlanId, pendingPlanId: null } : {};
      return { status: 'active', currentPeriodStart: input.periodStart, currentPeriodEnd: input.periodEnd, ...pending };
    },
    alsoWrite: async (tx, row) => {
      await tx
        .insert(usagePeriods)
        .values({ subscriptionId: row.id, periodStart: input.periodStart, periodEnd: input.periodEnd, used: 0 })
        .onConflictDoNothing();
    },
    audit: (row) => ({
      actorKind: 'stripe',
      action: 'subscription.period_paid',
      metadata: {
        from: row.status,
        periodStart: input.periodStart.toISOString(),
        periodEnd: input.periodEnd.toISOString(),
        ...(row.pendingPlanId && input.periodStart.getTime() > row.currentPeriodStart.getTime() ? { fromPlanId: row.planId, toPlanId: row.pendingPlanId } : {}),
      },
    }),
  });
}

/** invoice.payment_failed: access is suspended (403 forbidden) until a payment succeeds. */
export function markPastDue(db: Executor, subscriptionId: string, now: Date = new Date()): Promise<SubscriptionResult> {
  return changeSubscription(db, {
    subscriptionId,
    at: now,
    decide: (row) => {
      if (row.status === 'past_due') return 'unchanged';
      if (row.status !== 'active') throw new Denied('conflict', `A ${row.status} subscription cannot become past due.`);
      return { status: 'past_due' };
    },
    audit: () => ({ actorKind: 'stripe', action: 'subscription.past_due', metadata: {} }),
  });
}

export function endSubscription(db: Executor, input: { subscriptionId: string; at: Date; actorKind?: AuditActorKind }): Promise<SubscriptionResult> {
  return changeSubscription(db, {
    subscriptionId: input.subscriptionId,
    at: input.at,
    decide: (row) => (ENDED_STATUSES.includes(row.status) ? 'unchanged' : { status: 'cancelled', endedAt: input.at, cancelledAt: row.cancelledAt ?? input.at }),
    audit: (row) => ({ actorKind: input.actorKind ?? 'stripe', action: 'subscription.end', metadata: { from: row.status, at: input.at.toISOString() } }),
  });
}

function buyerChange(
  db: Executor,
  input: BuyerInput,
  action: string,
  decide: (row: Subscription, tx: Transaction, now: Date) => SubscriptionChanges | 'unchanged' | Promise<SubscriptionChanges | 'unchanged'>,
  metadata: (row: Subscription) => Record<string, unknown> = () => ({}),
): Promise<SubscriptionResult> {
  const now = input.now ?? new Date();
  return changeSubscription(db, {
    subscriptionId: input.subscriptionId,
    userId: input.userId,
    at: now,
    decide: (row, tx) => decide(row, tx, now),
    audit: (row) => ({ actorUserId: input.userId, actorKind: input.actorKind ?? 'web', action, metadata: metadata(row) }),
  });
}

function requireStatus(row: Subscription, allowed: readonly SubscriptionStatus[], verb: string): void {
  if (!allowed.includes(row.status)) throw new Denied('conflict', `A ${row.status} subscription cannot ${verb}.`);
}

/** Effective now: the usage row belongs to the period, not the plan, so queries already used carry over. */
export function upgradeSubscription(db: Executor, input: BuyerInput & { planId: string }): Promise<SubscriptionResult> {
  let planName = '';
  return buyerChange(
    db,
    input,
    'subscription.change_plan',
    async (row, tx) => {
      requireStatus(row, ['active'], 'change plan');
      if (row.planId === input.planId) throw new Denied('conflict', 'The subscription is already on this plan.');
      const [plan] = await tx.select().from(plans).where(eq(plans.id, input.planId));
      if (!plan || !plan.active || plan.kbId !== row.kbId) throw new Denied('invalid_plan', 'This plan is not offered for this knowledge base.');
      planName = plan.name;
      // A downgrade scheduled for the next renewal is superseded by any change made now.
      return { planId: plan.id, pendingPlanId: null };
    },
    (row) => ({ fromPlanId: row.planId, toPlanId: input.planId, plan: planName }),
  );
}

/** From the next renewal (docs/api.md §5.4): the cap stays for the period paid, so it never drops below what was used. */
export function scheduleDowngrade(db: Executor, input: BuyerInput & { planId: string }): Promise<SubscriptionResult> {
  return buyerChange(
    db,
    input,
    'subscription.schedule_downgrade',
    async (row, tx) => {
      if (!canChangePlan(row)) {
        throw new Denied(
          'conflict',
          row.status === 'active' ? 'A cancelled subscription cannot change plan; resume it first.' : `A ${row.status} subscription cannot change plan.`,
        );
      }
      if (input.planId === row.planId) return row.pendingPlanId === null ? 'unchanged' : { pendingPlanId: null };
      const found = await tx
        .select()
        .from(plans)
        .where(inArray(plans.id, [input.planId, row.planId]));
      const plan = found.find((p) => p.id === input.planId);
      const current = found.find((p) => p.id === row.planId);
      if (!plan || !current || !plan.active || plan.kbId !== row.kbId) throw new Denied('invalid_plan', 'This plan is not offered for this knowledge base.');
      if (plan.queriesPerPeriod > current.queriesPerPeriod)
        throw new Denied('invalid_plan', 'A plan with more queries per period is an upgrade, which applies now.');
      return row.pendingPlanId === plan.id ? 'unchanged' : { pendingPlanId: plan.id };
    },
    (row) => ({ fromPlanId: row.planId, toPlanId: input.planId, effectiveAt: row.currentPeriodEnd.toISOString() }),
  );
}

export function cancelSubscription(db: Executor, input: BuyerInput): Promise<SubscriptionResult> {
  return buyerChange(
    db,
    input,
    'subscription.cancel',
    (row, _tx, now) => {
      requireStatus(row, LIVE_STATUSES, 'be cancelled');
      return row.cancelAtPeriodEnd ? 'unchanged' : { cancelAtPeriodEnd: true, cancelledAt: now };
    },
    (row) => ({ effectiveAt: row.currentPeriodEnd.toISOString() }),
  );
}

/** Undo a cancellation before the period ends. Idempotent; after the end it is too late (`conflict`). */
export function resumeSubscription(db: Executor, input: BuyerInput): Promise<SubscriptionResult> {
  return buyerChange(db, input, 'subscription.resume', async (row, tx, now) => {
    requireStatus(row, LIVE_STATUSES, 'be resumed');
    if (!row.cancelAtPeriodEnd) return 'unchanged';
    if (now.getTime() >= row.currentPeriodEnd.getTime()) throw new Denied('conflict', 'The billing period has already ended.');
    // An unpublished (or suspended) listing ends its subscriptions at their period end (docs/api.md §9.1): no renewal.
    const [kb] = await tx.select({ status: knowledgeBases.status }).from(knowledgeBases).where(eq(knowledgeBases.id, row.kbId));
    if (kb?.status !== 'published') throw new Denied('conflict', 'This knowledge base is no longer offered, so the subscription cannot renew.');
    return { cancelAtPeriodEnd: false, cancelledAt: null, cancelledByUnpublish: false };
  });
}

export type IssueKeyResult = { ok: true; key: IssuedKey } | Refusal;

export function issueReplacementKey(
  db: Executor,
  input: { userId: string; subscriptionId: string; name?: string | null; actorKind?: AuditActorKind },
): Promise<IssueKeyResult> {
  return deniable(db, async (tx) => {
    const row = await lockSubscription(tx, input.subscriptionId, input.userId);
    if (ENDED_STATUSES.includes(row.status) || row.status === 'incomplete') {
      throw new Denied('conflict', `A ${row.status} subscription cannot get new keys.`);
    }
    const key = await issueKey(tx, row, input.name ?? null);
    await recordAudit(tx, {
      actorUserId: input.userId,
      actorKind: input.actorKind ?? 'web',
      action: 'key.issue',
      targetType: 'api_key',
      targetId: key.id,
      metadata: { subscriptionId: row.id, keyPrefix: key.displayPrefix },
    });
    return { ok: true as const, key };
  });
}

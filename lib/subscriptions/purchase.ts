import { and, eq, sql } from 'drizzle-orm';
import { knowledgeBases, plans, subscriptions, usagePeriods, users, type Subscription } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { recordAudit, type AuditActorKind } from '@/lib/platform/audit';
import { newId } from '@/lib/platform/ids';
import { Denied, deniable, type Refusal } from '@/lib/platform/transactions';
import type { KeyMode } from '@/lib/keys';
import { issueKey, type IssuedKey } from '@/lib/keys';
import { periodBounds } from './billing-period';
import { adjustSubscribers } from './change';
import { recordEarning } from './earnings';
import { expireIfLapsed, lapsedCondition } from './period';

/** Buying a subscription (docs/api.md §5.2): subscription, first key, usage row and audit in one transaction. */

export interface PurchaseInput {
  userId: string;
  planId: string;
  mode: KeyMode;
  now?: Date;
  actorKind?: AuditActorKind;
  /** Stripe purchases: the period is Stripe's, not computed from the purchase instant. */
  stripe?: { subscriptionId: string; customerId: string; checkoutSessionId: string; periodStart: Date; periodEnd: Date };
}

export type PurchaseResult = { ok: true; subscription: Subscription; key: IssuedKey } | Refusal;

/** A second live subscription to the same knowledge base is `conflict`, decided by the partial unique index. */
export async function purchaseSubscription(db: Executor, input: PurchaseInput): Promise<PurchaseResult> {
  const now = input.now ?? new Date();
  return deniable(db, async (tx) => {
    const [plan] = await tx
      .select({ id: plans.id, kbId: plans.kbId, name: plans.name, active: plans.active, kbStatus: knowledgeBases.status })
      .from(plans)
      .innerJoin(knowledgeBases, eq(knowledgeBases.id, plans.kbId))
      .where(eq(plans.id, input.planId));
    if (!plan || !plan.active) throw new Denied('invalid_plan', 'This plan does not exist or is no longer offered.');
    if (plan.kbStatus !== 'published') throw new Denied('invalid_plan', 'This knowledge base is not available for purchase.');
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId));
    if (!user) throw new Denied('not_found', 'No such user.');
    // A subscription cancelled at period end whose period is over still reads `active` until something expires it
    // (the gateway does on its next call); expire it here so that buying again works at once.
    for (const { id } of await tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, input.userId), eq(subscriptions.kbId, plan.kbId), lapsedCondition(now)))) {
      await expireIfLapsed(tx, id, now);
    }

    const anchor = input.stripe ? input.stripe.periodStart : now;
    const period = input.stripe ? { start: input.stripe.periodStart, end: input.stripe.periodEnd } : periodBounds(anchor, 0);
    const [subscription] = await tx
      .insert(subscriptions)
      .values({
        id: newId('sub'),
        userId: input.userId,
        kbId: plan.kbId,
        planId: plan.id,
        status: 'active',
        mode: input.mode,
        periodAnchorAt: anchor,
        currentPeriodStart: period.start,
        currentPeriodEnd: period.end,
        stripeSubscriptionId: input.stripe?.subscriptionId ?? null,
        stripeCheckoutSessionId: input.stripe?.checkoutSessionId ?? null,
        createdAt: now,
        updatedAt: now,
      })
      // No target: the one-live-subscription index (or a replayed Stripe id) answers "nothing inserted" instead of
      // aborting the transaction; a concurrent purchase waits for the first to commit, then inserts nothing.
      .onConflictDoNothing()
      .returning();
    if (!subscription) throw new Denied('conflict', 'You already have an active subscription to this knowledge base.');

    if (input.stripe) {
      // Remember the buyer's Stripe customer (portal links); never overwrite one already set.
      await tx
        .update(users)
        .set({ stripeCustomerId: input.stripe.customerId })
        .where(and(eq(users.id, input.userId), sql`${users.stripeCustomerId} is null`));
    }
    const key = await issueKey(tx, subscription);
    await tx.insert(usagePeriods).values({ subscriptionId: subscription.id, periodStart: period.start, periodEnd: period.end, used: 0 });
    await adjustSubscribers(tx, plan.kbId, null, 'active');
    // Test mode: the purchase is the payment of the first period (with Stripe, the webhook records what was paid).
    if (!input.stripe) {
      await recordEarning(tx, {
        subscriptionId: subscription.id,
        periodStart: period.start,
        periodEnd: period.end,
        source: 'test_purchase',
        sourceEvent: subscription.id,
      });
    }
    await recordAudit(tx, {
      actorUserId: input.userId,
      actorKind: input.actorKind ?? (input.stripe ? 'stripe' : 'web'),
      action: 'subscription.purchase',
      targetType: 'subscription',
      targetId: subscription.id,
      metadata: { kbId: plan.kbId, planId: plan.id, plan: plan.name, mode: input.mode, keyId: key.id, keyPrefix: key.displayPrefix },
    });
    return { ok: true as const, subscription, key };
  });
}

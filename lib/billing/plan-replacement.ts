import { eq } from 'drizzle-orm';
import { plans, subscriptions } from '@/db/schema';
import { getDb, type Database, type Executor } from '@/lib/platform/db';
import { defineJobHandler, enqueueJob } from '@/lib/platform/jobs';
import { log } from '@/lib/platform/log';
import { isLive } from '@/lib/subscriptions';
import { setStripeSubscriptionPlan } from './plan-change';
import { getStripe, type Stripe } from './stripe';

/**
 * A replaced plan's Stripe subscriptions (docs/api.md §9.2). When a publisher changes the terms of a plan with
 * subscribers, lib/publishing/plans.ts gives each live subscription the replacement as its scheduled plan
 * (`pending_plan_id`, as a downgrade at renewal), which becomes its plan with the next paid period. Stripe must bill
 * that period at the new price, so the same transaction enqueues one job per Stripe-managed subscription that moves
 * its item to the replacement's price with `proration_behavior: none` (nothing charged now). The job is idempotent
 * (dedupe key, Stripe idempotency key, a check of the item's price first) and never undoes a change the buyer made
 * since: it acts only while the subscription is still bound for this plan.
 */

export const STRIPE_PLAN_MOVE_QUEUE = 'billing.stripe_plan_move';
/** Retries with the queue's backoff (2 s … 10 min) cover a Stripe outage of about an hour. */
const MOVE_ATTEMPTS = 10;

export interface StripePlanMovePayload {
  subscriptionId: string;
  planId: string;
}

export type StripePlanMoveOutcome = 'moved' | 'unchanged' | 'skipped:ended' | 'skipped:superseded' | 'skipped:stripe_changed' | 'skipped:currency';

const moveKey = (subscriptionId: string, planId: string) => `stripe-plan-move:${subscriptionId}:${planId}`;

/**
 * In the transaction that replaces a plan: one job per subscription that Stripe bills, moving it to `planId`. A
 * subscription without a Stripe subscription (test mode, a free plan) has nothing at Stripe to move.
 */
export async function enqueueStripePlanMoves(
  tx: Executor,
  input: { planId: string; subscriptions: { id: string; stripeSubscriptionId: string | null }[] },
): Promise<number> {
  let queued = 0;
  for (const sub of input.subscriptions) {
    if (!sub.stripeSubscriptionId) continue;
    const payload: StripePlanMovePayload = { subscriptionId: sub.id, planId: input.planId };
    await enqueueJob(tx, { queue: STRIPE_PLAN_MOVE_QUEUE, payload: { ...payload }, dedupeKey: moveKey(sub.id, input.planId), maxAttempts: MOVE_ATTEMPTS });
    queued++;
  }
  return queued;
}

type KbPlan = { id: string; stripePriceId: string | null; priceCents: number; currency: string; replacedByPlanId: string | null };

/** The plans Stripe's item bills: those with its price id, or the ad-hoc plan (no Stripe price) its metadata names. */
function billedPlans(kbPlans: KbPlan[], priceId: string, metadataPlanId: string | undefined): string[] {
  return kbPlans.filter((p) => p.stripePriceId === priceId || (p.stripePriceId === null && p.id === metadataPlanId)).map((p) => p.id);
}

/** True when following `replaced_by_plan_id` from `fromId` reaches `toId` (a plan replaced twice before the job ran). */
function replacedInto(kbPlans: KbPlan[], fromId: string, toId: string): boolean {
  const byId = new Map(kbPlans.map((p) => [p.id, p]));
  let current = byId.get(fromId)?.replacedByPlanId ?? null;
  for (let step = 0; current !== null && step < kbPlans.length; step++) {
    if (current === toId) return true;
    current = byId.get(current)?.replacedByPlanId ?? null;
  }
  return false;
}

/**
 * The job: moves one Stripe subscription's item to the replacement plan's price, without proration. Reads only
 * before the Stripe call and writes nothing here: the local plan changes at the renewal, by the webhook. Throws to
 * have the queue retry (Stripe unreachable or not configured).
 */
export async function moveStripeSubscriptionToPlan(
  db: Executor,
  payload: StripePlanMovePayload,
  stripe: Stripe | null = getStripe(),
): Promise<StripePlanMoveOutcome> {
  const [sub] = await db
    .select({
      kbId: subscriptions.kbId,
      status: subscriptions.status,
      planId: subscriptions.planId,
      pendingPlanId: subscriptions.pendingPlanId,
      stripeId: subscriptions.stripeSubscriptionId,
    })
    .from(subscriptions)
    .where(eq(subscriptions.id, payload.subscriptionId));
  if (!sub?.stripeId || !isLive(sub.status)) return 'skipped:ended';
  // Still bound for this plan, or already on it (its renewal came before this job could reach Stripe). Otherwise the
  // buyer changed plan since, and that change set Stripe's price itself (lib/billing/plan-change.ts).
  const bound = sub.pendingPlanId === payload.planId || (sub.pendingPlanId === null && sub.planId === payload.planId);
  if (!bound) return 'skipped:superseded';
  if (!stripe) throw new Error('Stripe is not configured: a Stripe subscription cannot be moved to its replacement plan');
  const kbPlans: KbPlan[] = await db
    .select({
      id: plans.id,
      stripePriceId: plans.stripePriceId,
      priceCents: plans.priceCents,
      currency: plans.currency,
      replacedByPlanId: plans.replacedByPlanId,
    })
    .from(plans)
    .where(eq(plans.kbId, sub.kbId));
  const target = kbPlans.find((p) => p.id === payload.planId);
  if (!target) return 'skipped:superseded';

  const remote = await stripe.subscriptions.retrieve(sub.stripeId);
  if (remote.status === 'canceled' || remote.status === 'incomplete_expired') return 'skipped:ended';
  const item = remote.items.data[0];
  if (!item) throw new Error('Stripe subscription has no item');
  const billed = billedPlans(kbPlans, item.price.id, remote.metadata?.planId);
  if (billed.includes(target.id)) return 'unchanged';
  const context = { subscriptionId: payload.subscriptionId, stripeSubscriptionId: remote.id, planId: target.id, stripePriceId: item.price.id };
  if (!billed.some((planId) => replacedInto(kbPlans, planId, target.id))) {
    // Stripe bills a plan the replacement does not stand for (changed in the Customer Portal, say): leave it.
    log.warn(context, 'Stripe subscription no longer bills the replaced plan; its price is left as it is');
    return 'skipped:stripe_changed';
  }
  // Stripe cannot change a subscription's currency; plans.ts refuses such an edit for Stripe subscribers, so this is
  // a row changed behind its back: retrying would not help.
  if (item.price.currency && item.price.currency !== target.currency) {
    log.error(context, 'replacement plan is in another currency than the Stripe subscription; not moved');
    return 'skipped:currency';
  }
  await setStripeSubscriptionPlan(
    stripe,
    remote.id,
    item,
    { planId: target.id, stripePriceId: target.stripePriceId, currency: target.currency, priceCents: target.priceCents },
    { prorate: false, idempotencyKey: `almanac-${moveKey(payload.subscriptionId, target.id)}` },
  );
  log.info(context, 'Stripe subscription moved to the replacement plan from its next invoice');
  return 'moved';
}

/** Registers the queue's handler in this process (instrumentation.ts, before the worker starts; tests that run it). */
export function registerBillingJobs(database: () => Promise<Database> = getDb, stripe: () => Stripe | null = getStripe): void {
  defineJobHandler(STRIPE_PLAN_MOVE_QUEUE, async (payload: StripePlanMovePayload) => {
    await moveStripeSubscriptionToPlan(await database(), payload, stripe());
  });
}

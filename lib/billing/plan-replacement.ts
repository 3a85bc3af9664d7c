import { eq } from 'drizzle-orm';
import { plans, subscriptions } from '@/db/schema';
import { getDb, type Database, type Executor } from '@/lib/platform/db';
import { defineJobHandler, enqueueJob } from '@/lib/platform/jobs';
import { log } from '@/lib/platform/log';
import { isLive } from '@/lib/subscriptions';
import { setStripeSubscriptionPlan } from './plan-change';
import { getStripe, type Stripe } from './stripe';

/**
 * A replaced plan's Stripe subscriptions (docs/api.md §9.2): the replacement becomes their plan at the next paid
 * period, so one job per subscription moves its Stripe item to the new price, unprorated. The job is idempotent and
 * acts only while the subscription is still bound for this plan, so it never undoes a change the buyer made since.
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

/** In the transaction that replaces a plan; a subscription Stripe does not bill has nothing there to move. */
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

/** Writes nothing here (the local plan changes at renewal, by the webhook); throws to have the queue retry. */
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

export function registerBillingJobs(database: () => Promise<Database> = getDb, stripe: () => Stripe | null = getStripe): void {
  defineJobHandler(STRIPE_PLAN_MOVE_QUEUE, async (payload: StripePlanMovePayload) => {
    await moveStripeSubscriptionToPlan(await database(), payload, stripe());
  });
}

import { and, asc, eq, ne } from 'drizzle-orm';
import { plans, subscriptions } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { log } from '@/lib/platform/log';
import {
  canChangePlan,
  cancelSubscription,
  planViewColumns,
  resumeSubscription,
  scheduleDowngrade,
  toPlanView,
  upgradeSubscription,
  type PlanView,
  type SubscriptionResult,
} from '@/lib/subscriptions';
import { findPurchasablePlan, type CheckoutPlan } from './checkout';
import { getStripe, type Stripe } from './stripe';

/** Buyer plan changes Stripe must know about (docs/api.md §5.4); Stripe is asked first, and if it refuses nothing changes. */

type Owned = { userId: string; subscriptionId: string };

export type PlanDirection = 'upgrade' | 'downgrade';

export interface PlanChoice extends PlanView {
  direction: PlanDirection;
}

/** Fewer or as many queries is a change at renewal, so the cap of a period already paid never moves down or sideways. */
export function planDirection(current: Pick<PlanView, 'queriesPerPeriod'>, next: Pick<PlanView, 'queriesPerPeriod'>): PlanDirection {
  return next.queriesPerPeriod > current.queriesPerPeriod ? 'upgrade' : 'downgrade';
}

export async function listPlanChoices(db: Executor, kbId: string, current: Pick<PlanView, 'id' | 'queriesPerPeriod'>): Promise<PlanChoice[]> {
  const rows = await db
    .select(planViewColumns)
    .from(plans)
    .where(and(eq(plans.kbId, kbId), eq(plans.active, true), ne(plans.id, current.id)))
    .orderBy(asc(plans.queriesPerPeriod), asc(plans.id));
  return rows.map((r) => ({ ...toPlanView(r), direction: planDirection(current, r) }));
}

async function stripeSubscriptionIdFor(db: Executor, input: Owned): Promise<string | null | undefined> {
  const [row] = await db
    .select({ stripeId: subscriptions.stripeSubscriptionId })
    .from(subscriptions)
    .where(and(eq(subscriptions.id, input.subscriptionId), eq(subscriptions.userId, input.userId)))
    .limit(1);
  return row ? row.stripeId : undefined;
}

export type BillingChangeResult = SubscriptionResult | { ok: false; code: 'stripe_unavailable'; message: string };

const stripeDown = (): BillingChangeResult => ({
  ok: false,
  code: 'stripe_unavailable',
  message: 'Our payment provider could not be reached; nothing was changed. Please try again.',
});

/** Stripe's webhook (`customer.subscription.updated`) later confirms the state this leaves. */
async function withStripeChange(
  db: Executor,
  input: Owned,
  stripe: Stripe | null,
  stripeChange: (stripe: Stripe, stripeSubscriptionId: string) => Promise<unknown>,
  local: () => Promise<SubscriptionResult>,
): Promise<BillingChangeResult> {
  const stripeId = await stripeSubscriptionIdFor(db, input);
  if (stripeId === undefined) return { ok: false, code: 'not_found', message: 'No such subscription.' };
  if (stripeId) {
    if (!stripe) return stripeDown();
    try {
      await stripeChange(stripe, stripeId);
    } catch (error) {
      log.error({ err: error, subscriptionId: input.subscriptionId }, 'Stripe subscription change failed');
      return stripeDown();
    }
  }
  return local();
}

async function currentPlan(db: Executor, input: Owned): Promise<{ planId: string; queriesPerPeriod: number; pendingPlanId: string | null } | undefined> {
  const [row] = await db
    .select({ planId: plans.id, queriesPerPeriod: plans.queriesPerPeriod, pendingPlanId: subscriptions.pendingPlanId })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(and(eq(subscriptions.id, input.subscriptionId), eq(subscriptions.userId, input.userId)))
    .limit(1);
  return row;
}

export type StripePlanTarget = Pick<CheckoutPlan, 'planId' | 'stripePriceId' | 'currency' | 'priceCents'>;

function stripeItemFor(plan: StripePlanTarget, item: Stripe.SubscriptionItem): Stripe.SubscriptionUpdateParams.Item {
  return plan.stripePriceId
    ? { id: item.id, price: plan.stripePriceId }
    : {
        id: item.id,
        price_data: {
          currency: plan.currency,
          unit_amount: plan.priceCents,
          recurring: { interval: 'month' },
          product: typeof item.price.product === 'string' ? item.price.product : item.price.product.id,
        },
      };
}

async function firstItem(client: Stripe, stripeId: string): Promise<Stripe.SubscriptionItem> {
  const current = await client.subscriptions.retrieve(stripeId);
  const item = current.items.data[0];
  if (!item) throw new Error('Stripe subscription has no item');
  return item;
}

/** `prorate` charges the difference now; otherwise Stripe bills the new price from the next invoice. */
export async function setStripeSubscriptionPlan(
  client: Stripe,
  stripeId: string,
  item: Stripe.SubscriptionItem,
  plan: StripePlanTarget,
  options: { prorate: boolean; idempotencyKey?: string },
): Promise<void> {
  await client.subscriptions.update(
    stripeId,
    {
      proration_behavior: options.prorate ? 'always_invoice' : 'none',
      // The plan id travels in metadata: ad-hoc prices (price_data) have ids our plans table does not know. The
      // webhook leaves a plan that is this subscription's scheduled plan for the renewal (lib/billing/webhook.ts).
      metadata: { planId: plan.planId },
      items: [stripeItemFor(plan, item)],
    },
    options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : undefined,
  );
}

async function moveStripePlan(client: Stripe, stripeId: string, plan: CheckoutPlan, prorate: boolean): Promise<void> {
  await setStripeSubscriptionPlan(client, stripeId, await firstItem(client, stripeId), plan, { prorate });
}

/** Upgrade now: Stripe prorates, the new cap applies at once and this period's usage carries over. */
export async function changePlan(db: Executor, input: Owned & { planId: string }, stripe: Stripe | null = getStripe()): Promise<BillingChangeResult> {
  const plan = await findPurchasablePlan(db, input.planId);
  if (!plan) return { ok: false, code: 'invalid_plan', message: 'This plan is not available.' };
  const current = await currentPlan(db, input);
  if (!current) return { ok: false, code: 'not_found', message: 'No such subscription.' };
  // The current plan itself goes on, so the subscription answers "already on this plan".
  if (plan.planId !== current.planId && plan.queriesPerPeriod <= current.queriesPerPeriod) {
    return { ok: false, code: 'invalid_plan', message: 'Only a plan with more queries per period can be chosen.' };
  }
  return withStripeChange(
    db,
    input,
    stripe,
    (client, stripeId) => moveStripePlan(client, stripeId, plan, true),
    () => upgradeSubscription(db, input),
  );
}

/** The smaller plan takes over at the next period, billed from the next invoice; choosing the current plan withdraws it. */
export async function downgradeAtRenewal(db: Executor, input: Owned & { planId: string }, stripe: Stripe | null = getStripe()): Promise<BillingChangeResult> {
  const plan = await findPurchasablePlan(db, input.planId);
  if (!plan) return { ok: false, code: 'invalid_plan', message: 'This plan is not available.' };
  const current = await currentPlan(db, input);
  if (!current) return { ok: false, code: 'not_found', message: 'No such subscription.' };
  if (plan.planId !== current.planId && plan.queriesPerPeriod > current.queriesPerPeriod) {
    return { ok: false, code: 'invalid_plan', message: 'A plan with more queries per period is an upgrade, which applies now.' };
  }
  const unchanged = plan.planId === current.planId ? current.pendingPlanId === null : current.pendingPlanId === plan.planId;
  return withStripeChange(
    db,
    input,
    stripe,
    async (client, stripeId) => {
      if (!unchanged) await moveStripePlan(client, stripeId, plan, false);
    },
    () => scheduleDowngrade(db, input),
  );
}

export type ChargePreview = { kind: 'test_mode' } | { kind: 'none' } | { kind: 'stripe'; amountCents: number; currency: string } | { kind: 'unavailable' };

interface PlanChangePreview {
  plan: PlanView;
  direction: PlanDirection;
  effectiveAt: string;
  charge: ChargePreview;
}

export type PlanChangePreviewResult =
  { ok: true; preview: PlanChangePreview } | { ok: false; code: 'not_found' | 'invalid_plan' | 'conflict'; message: string };

/** For a Stripe upgrade, Stripe's invoice preview of the same item change; reads only, changes nothing anywhere. */
export async function previewPlanChange(
  db: Executor,
  input: Owned & { planId: string },
  stripe: Stripe | null = getStripe(),
  now: Date = new Date(),
): Promise<PlanChangePreviewResult> {
  const [row] = await db
    .select({
      planId: subscriptions.planId,
      kbId: subscriptions.kbId,
      status: subscriptions.status,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      stripeId: subscriptions.stripeSubscriptionId,
      queriesPerPeriod: plans.queriesPerPeriod,
    })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(and(eq(subscriptions.id, input.subscriptionId), eq(subscriptions.userId, input.userId)))
    .limit(1);
  if (!row) return { ok: false, code: 'not_found', message: 'No such subscription.' };
  if (!canChangePlan(row)) return { ok: false, code: 'conflict', message: 'Only an active subscription that is not cancelled can change plan.' };
  const plan = await findPurchasablePlan(db, input.planId);
  if (!plan || plan.kbId !== row.kbId || plan.planId === row.planId)
    return { ok: false, code: 'invalid_plan', message: 'This plan is not available for this subscription.' };
  const view: PlanView = {
    id: plan.planId,
    name: plan.planName,
    priceCents: plan.priceCents,
    currency: plan.currency,
    queriesPerPeriod: plan.queriesPerPeriod,
    requestsPerMinute: plan.requestsPerMinute,
  };
  const direction = planDirection(row, plan);
  const effectiveAt = (direction === 'upgrade' ? now : row.currentPeriodEnd).toISOString();
  let charge: ChargePreview;
  if (direction === 'downgrade') charge = { kind: 'none' };
  else if (!row.stripeId) charge = { kind: 'test_mode' };
  else if (!stripe) charge = { kind: 'unavailable' };
  else {
    try {
      const item = await firstItem(stripe, row.stripeId);
      const invoice = await stripe.invoices.createPreview({
        subscription: row.stripeId,
        subscription_details: {
          items: [stripeItemFor(plan, item) as Stripe.InvoiceCreatePreviewParams.SubscriptionDetails.Item],
          proration_behavior: 'always_invoice',
          proration_date: Math.floor(now.getTime() / 1000),
        },
      });
      charge = { kind: 'stripe', amountCents: invoice.amount_due, currency: invoice.currency };
    } catch (error) {
      log.warn({ err: error, subscriptionId: input.subscriptionId }, 'Stripe invoice preview failed');
      charge = { kind: 'unavailable' };
    }
  }
  return { ok: true, preview: { plan: view, direction, effectiveAt, charge } };
}

export function cancelAtPeriodEnd(db: Executor, input: Owned, stripe: Stripe | null = getStripe()): Promise<BillingChangeResult> {
  return withStripeChange(
    db,
    input,
    stripe,
    (client, stripeId) => client.subscriptions.update(stripeId, { cancel_at_period_end: true }),
    () => cancelSubscription(db, input),
  );
}

export function resumeRenewal(db: Executor, input: Owned, stripe: Stripe | null = getStripe()): Promise<BillingChangeResult> {
  return withStripeChange(
    db,
    input,
    stripe,
    (client, stripeId) => client.subscriptions.update(stripeId, { cancel_at_period_end: false }),
    () => resumeSubscription(db, input),
  );
}

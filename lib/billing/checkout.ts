import { and, eq, isNull } from 'drizzle-orm';
import { knowledgeBases, plans, subscriptions, users } from '@/db/schema';
import { parkIssuedKey, revealParkedKey } from './handoff';
import type { Executor } from '@/lib/platform/db';
import { baseUrl, siteUrl } from '@/lib/platform/base-url';
import { getEnv } from '@/lib/platform/env';
import { log } from '@/lib/platform/log';
import { isCleanId } from '@/lib/platform/text-input';
import { connectTermsFor } from './connect';
import { getStripe, type Stripe } from './stripe';
import { findBuyerSubscription, getSubscriptionForUser, purchaseSubscription, type UsageView } from '@/lib/subscriptions';

/**
 * Buying a plan. With Stripe, a Checkout Session, and access is granted ONLY by the `checkout.session.completed`
 * webhook, never by the browser coming back; without, a plainly labelled test checkout that completes at once. Either
 * way the new key reaches the buyer through the single-read handoff (handoff.ts).
 */

export interface CheckoutPlan {
  planId: string;
  planName: string;
  priceCents: number;
  currency: string;
  queriesPerPeriod: number;
  requestsPerMinute: number;
  stripePriceId: string | null;
  kbId: string;
  kbTitle: string;
}

/** A plan that can be bought now: active, and its knowledge base published. */
export async function findPurchasablePlan(db: Executor, planId: string): Promise<CheckoutPlan | null> {
  if (!isCleanId(planId)) return null; // no plan has it, and PostgreSQL would refuse a NUL (docs/api.md §7.2)
  const rows = await db
    .select({
      planId: plans.id,
      planName: plans.name,
      priceCents: plans.priceCents,
      currency: plans.currency,
      queriesPerPeriod: plans.queriesPerPeriod,
      requestsPerMinute: plans.requestsPerMinute,
      stripePriceId: plans.stripePriceId,
      kbId: knowledgeBases.id,
      kbTitle: knowledgeBases.title,
    })
    .from(plans)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, plans.kbId))
    .where(and(eq(plans.id, planId), eq(plans.active, true), eq(knowledgeBases.status, 'published')))
    .limit(1);
  return rows[0] ?? null;
}

export async function findLiveSubscriptionId(db: Executor, userId: string, kbId: string, now: Date = new Date()): Promise<string | null> {
  const found = await findBuyerSubscription(db, userId, kbId, now);
  // A lapsed one (cancelled, period over) is expired by the purchase itself (purchaseSubscription).
  return found?.live ? found.id : null;
}

export type StartCheckoutResult =
  | { ok: true; kind: 'stripe'; url: string }
  | { ok: true; kind: 'test'; url: string }
  /** A free plan with Stripe configured: activated at once, no Checkout and no card; the URL reveals its key once. */
  | { ok: true; kind: 'free'; url: string }
  | { ok: false; code: 'invalid_plan'; kbId?: undefined }
  | { ok: false; code: 'already_subscribed'; kbId: string; subscriptionId: string }
  | { ok: false; code: 'stripe_unavailable'; kbId: string };

export async function startCheckout(
  db: Executor,
  input: { userId: string; email: string; planId: string },
  stripe: Stripe | null = getStripe(),
): Promise<StartCheckoutResult> {
  const plan = await findPurchasablePlan(db, input.planId);
  if (!plan) return { ok: false, code: 'invalid_plan' };
  const existing = await findLiveSubscriptionId(db, input.userId, plan.kbId);
  if (existing) return { ok: false, code: 'already_subscribed', kbId: plan.kbId, subscriptionId: existing };
  if (!stripe) return { ok: true, kind: 'test', url: `/checkout/test?planId=${encodeURIComponent(plan.planId)}` };
  // A free plan needs no card, so it never goes to Stripe Checkout, which would ask for one.
  if (plan.priceCents === 0) {
    const free = await activateFreePlan(db, { userId: input.userId, planId: plan.planId });
    if (free.ok) return { ok: true, kind: 'free', url: `/checkout/success?handoff=${encodeURIComponent(free.handoffId)}` };
    if (free.code === 'already_subscribed') {
      const existingNow = await findLiveSubscriptionId(db, input.userId, plan.kbId);
      if (existingNow) return { ok: false, code: 'already_subscribed', kbId: plan.kbId, subscriptionId: existingNow };
    }
    return { ok: false, code: 'invalid_plan' };
  }

  const appUrl = baseUrl();
  try {
    const customer = await ensureStripeCustomer(db, stripe, input.userId, input.email);
    const metadata = { userId: input.userId, planId: plan.planId, kbId: plan.kbId };
    const connect = await connectTermsFor(db, plan.kbId);
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: input.userId,
      metadata,
      subscription_data: { metadata, ...(connect ?? {}) },
      line_items: [
        plan.stripePriceId
          ? { price: plan.stripePriceId, quantity: 1 }
          : {
              quantity: 1,
              price_data: {
                currency: plan.currency,
                unit_amount: plan.priceCents,
                recurring: { interval: 'month' },
                product_data: { name: `${plan.kbTitle} — ${plan.planName}`, metadata: { planId: plan.planId } },
              },
            },
      ],
      // Stripe fills {CHECKOUT_SESSION_ID}; the success page waits for the webhook that grants access.
      success_url: `${appUrl}/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${appUrl}/knowledge-bases/${encodeURIComponent(plan.kbId)}?checkout=cancelled`,
    });
    if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
    return { ok: true, kind: 'stripe', url: session.url };
  } catch (error) {
    log.error({ err: error, planId: plan.planId }, 'could not create a Stripe Checkout Session');
    return { ok: false, code: 'stripe_unavailable', kbId: plan.kbId };
  }
}

async function ensureStripeCustomer(db: Executor, stripe: Stripe, userId: string, email: string): Promise<string> {
  const [row] = await db.select({ customer: users.stripeCustomerId }).from(users).where(eq(users.id, userId)).limit(1);
  if (row?.customer) return row.customer;
  // The idempotency key makes two racing first purchases create one customer at Stripe.
  const customer = await stripe.customers.create({ email, metadata: { userId } }, { idempotencyKey: `almanac-customer-${userId}` });
  const updated = await db
    .update(users)
    .set({ stripeCustomerId: customer.id, updatedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.stripeCustomerId)))
    .returning({ customer: users.stripeCustomerId });
  if (updated[0]?.customer) return updated[0].customer;
  const [again] = await db.select({ customer: users.stripeCustomerId }).from(users).where(eq(users.id, userId)).limit(1);
  return again?.customer ?? customer.id;
}

async function purchaseAndPark(
  tx: Executor,
  input: { userId: string; planId: string; mode: 'live' | 'test' },
): Promise<{ ok: true; handoffId: string; subscriptionId: string } | { ok: false; code: string }> {
  const purchase = await purchaseSubscription(tx, input);
  if (!purchase.ok) return { ok: false, code: purchase.code === 'conflict' ? 'already_subscribed' : purchase.code };
  const handoffId = await parkIssuedKey(tx, {
    userId: input.userId,
    subscriptionId: purchase.subscription.id,
    keyId: purchase.key.id,
    plaintext: purchase.key.plaintext,
  });
  return { ok: true, handoffId, subscriptionId: purchase.subscription.id };
}

function activateFreePlan(db: Executor, input: { userId: string; planId: string }) {
  return db.transaction((tx) => purchaseAndPark(tx, { ...input, mode: 'live' }));
}

export type TestPurchaseResult =
  | { ok: true; handoffId: string; subscriptionId: string }
  | { ok: false; code: 'stripe_configured' | 'invalid_plan' | 'already_subscribed' | 'not_found' | 'conflict' | string };

/** Refused when Stripe is configured, so a deployment that takes money cannot be bypassed through the test checkout. */
export async function completeTestPurchase(
  db: Executor,
  input: { userId: string; planId: string },
  options: { stripeConfigured?: boolean } = {},
): Promise<TestPurchaseResult> {
  if (options.stripeConfigured ?? Boolean(getEnv().STRIPE_SECRET_KEY)) return { ok: false, code: 'stripe_configured' };
  const plan = await findPurchasablePlan(db, input.planId);
  if (!plan) return { ok: false, code: 'invalid_plan' };
  return db.transaction((tx) => purchaseAndPark(tx, { userId: input.userId, planId: plan.planId, mode: 'test' }));
}

/** A first request honest about its cost: a sample question and the usage now, since an answered question counts. */
export interface FirstRequest {
  sampleQuestion: string | null;
  usage: UsageView | null;
}

export type CheckoutOutcome =
  | ({ status: 'revealed'; plaintext: string; subscriptionId: string; kbId: string; kbTitle: string; planName: string; mode: 'live' | 'test' } & FirstRequest)
  /** The purchase is complete but its key was already shown (reload, second tab). */
  | { status: 'completed'; subscriptionId: string; kbId: string; kbTitle: string }
  /** Stripe has not told us yet (the webhook grants access): the page keeps waiting. */
  | { status: 'pending' };

async function describeSubscription(db: Executor, userId: string, where: { id: string } | { checkoutSessionId: string }) {
  const rows = await db
    .select({
      id: subscriptions.id,
      kbId: subscriptions.kbId,
      kbTitle: knowledgeBases.title,
      sampleQuestions: knowledgeBases.sampleQuestions,
      planName: plans.name,
      mode: subscriptions.mode,
    })
    .from(subscriptions)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, subscriptions.kbId))
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(
      and(
        eq(subscriptions.userId, userId),
        'id' in where ? eq(subscriptions.id, where.id) : eq(subscriptions.stripeCheckoutSessionId, where.checkoutSessionId),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

async function firstRequest(db: Executor, userId: string, sub: { id: string; sampleQuestions: unknown }): Promise<FirstRequest> {
  const questions = Array.isArray(sub.sampleQuestions) ? sub.sampleQuestions.filter((q): q is string => typeof q === 'string' && q.trim() !== '') : [];
  const view = await getSubscriptionForUser(db, userId, sub.id);
  return { sampleQuestion: questions[0] ?? null, usage: view.ok ? view.subscription.usage : null };
}

export async function getCheckoutOutcome(
  db: Executor,
  input: { userId: string } & ({ checkoutSessionId: string } | { handoffId: string }),
): Promise<CheckoutOutcome> {
  if (!isCleanId('checkoutSessionId' in input ? input.checkoutSessionId : input.handoffId)) return { status: 'pending' }; // docs/api.md §7.2
  const reveal = await revealParkedKey(db, input);
  if (reveal.status === 'revealed') {
    const sub = await describeSubscription(db, input.userId, { id: reveal.subscriptionId });
    if (sub) {
      const first = await firstRequest(db, input.userId, sub);
      return {
        status: 'revealed',
        plaintext: reveal.plaintext,
        subscriptionId: sub.id,
        kbId: sub.kbId,
        kbTitle: sub.kbTitle,
        planName: sub.planName,
        mode: sub.mode,
        ...first,
      };
    }
  }
  if ('checkoutSessionId' in input) {
    const sub = await describeSubscription(db, input.userId, { checkoutSessionId: input.checkoutSessionId });
    return sub ? { status: 'completed', subscriptionId: sub.id, kbId: sub.kbId, kbTitle: sub.kbTitle } : { status: 'pending' };
  }
  return { status: 'pending' };
}

export async function revealHandoff(db: Executor, userId: string, handoffId: string) {
  if (!isCleanId(handoffId)) return null; // docs/api.md §7.2
  const reveal = await revealParkedKey(db, { userId, handoffId });
  if (reveal.status !== 'revealed') return null;
  const sub = await describeSubscription(db, userId, { id: reveal.subscriptionId });
  if (!sub) return null;
  return {
    plaintext: reveal.plaintext,
    keyId: reveal.keyId,
    subscriptionId: sub.id,
    kbId: sub.kbId,
    kbTitle: sub.kbTitle,
    ...(await firstRequest(db, userId, sub)),
  };
}

export async function createBillingPortalUrl(
  db: Executor,
  userId: string,
  stripe: Stripe | null = getStripe(),
): Promise<{ ok: true; url: string } | { ok: false; code: 'stripe_not_configured' | 'no_customer' | 'stripe_unavailable' }> {
  if (!stripe) return { ok: false, code: 'stripe_not_configured' };
  const [row] = await db.select({ customer: users.stripeCustomerId }).from(users).where(eq(users.id, userId)).limit(1);
  if (!row?.customer) return { ok: false, code: 'no_customer' };
  try {
    const session = await stripe.billingPortal.sessions.create({
      customer: row.customer,
      return_url: siteUrl('/account'),
    });
    return { ok: true, url: session.url };
  } catch (error) {
    log.error({ err: error }, 'could not create a Stripe billing portal session');
    return { ok: false, code: 'stripe_unavailable' };
  }
}

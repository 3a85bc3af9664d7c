import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as webhookRoute } from '@/app/api/stripe/webhook/route';
import { apiKeys, keyHandoffs, plans, stripeEvents, subscriptions, usagePeriods } from '@/db/schema';
import { cancelAtPeriodEnd, changePlan, getCheckoutOutcome, resumeRenewal, startCheckout } from '@/lib/billing';
import type { Database } from '@/lib/platform/db';
import { resetEnvForTesting } from '@/lib/platform/env';
import { hashApiKey } from '@/lib/keys';
import { createStripeClient } from '@/lib/billing/stripe';
import { createTestDatabase } from '../support/db';
import { buildEvent, buildInvoice, buildSubscription, signPayload, startFakeStripe, type FakeStripe } from '../support/fake-stripe';
import { countActive, createCatalogueFixture, createUser, subscribersCount, useQueries } from './subscriptions-fixtures';

const WEBHOOK_SECRET = 'whsec_test_fake_almanac_secret';
const DAY = 86_400;

let db: Database;
let fake: FakeStripe;
const savedEnv = { ...process.env };

beforeAll(async () => {
  db = (await createTestDatabase()).db;
  fake = await startFakeStripe();
  process.env.STRIPE_SECRET_KEY = fake.secretKey;
  process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
  process.env.STRIPE_API_BASE = fake.baseUrl;
  resetEnvForTesting();
});
afterAll(async () => {
  process.env = savedEnv;
  resetEnvForTesting();
  await fake.close();
});

async function deliver(payload: string, signature = signPayload(payload, WEBHOOK_SECRET)) {
  const response = await webhookRoute(
    new Request('http://localhost/api/stripe/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const ledger = (id: string) => db.select().from(stripeEvents).where(eq(stripeEvents.id, id));
const subscriptionByStripeId = async (id: string) => (await db.select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, id)))[0]!;

/** A buyer who went through Stripe Checkout and whose checkout.session.completed has been delivered. */
async function purchasedThroughStripe(period?: { start: number; end: number }) {
  const fx = await createCatalogueFixture(db);
  const userId = await createUser(db);
  const started = await startCheckout(db, { userId, email: `${userId}@example.com`, planId: fx.plans.starter }, createStripeClient(fake.secretKey, fake.baseUrl));
  if (!started.ok || started.kind !== 'stripe') throw new Error('checkout did not start');
  const sessionId = started.url.split('/').at(-1)!;
  const { session, subscription } = fake.completeCheckout(sessionId, period);
  const event = buildEvent('checkout.session.completed', session);
  const delivered = await deliver(event);
  return { fx, userId, sessionId, subscription, event, delivered, customer: String(session.customer) };
}

describe('POST /api/stripe/webhook', () => {
  it('checkout.session.completed grants access: subscription with Stripe period, key revealed once on the success page', async () => {
    const start = Math.floor(Date.now() / 1000) - DAY;
    const { fx, userId, sessionId, subscription, event, delivered } = await purchasedThroughStripe({ start, end: start + 30 * DAY });
    expect(delivered).toEqual({ status: 200, body: { received: true, duplicate: false, outcome: 'applied' } });

    const sub = await subscriptionByStripeId(subscription.id);
    expect(sub).toMatchObject({ userId, kbId: fx.kbId, planId: fx.plans.starter, status: 'active', mode: 'live', stripeCheckoutSessionId: sessionId });
    expect(sub.currentPeriodStart.getTime()).toBe(start * 1000);
    expect(sub.currentPeriodEnd.getTime()).toBe((start + 30 * DAY) * 1000);
    expect(await ledger(JSON.parse(event).id)).toHaveLength(1);
    expect(await subscribersCount(db, fx.kbId)).toBe(1);

    const shown = await getCheckoutOutcome(db, { userId, checkoutSessionId: sessionId });
    if (shown.status !== 'revealed') throw new Error(`expected a reveal, got ${shown.status}`);
    expect(shown.plaintext.startsWith('alm_sk_live_')).toBe(true);
    const [key] = await db.select().from(apiKeys).where(eq(apiKeys.subscriptionId, sub.id));
    expect(key!.keyHash).toBe(hashApiKey(shown.plaintext));
    expect(await getCheckoutOutcome(db, { userId, checkoutSessionId: sessionId })).toMatchObject({ status: 'completed', subscriptionId: sub.id });
  });

  it('before the webhook the success page is pending (the browser coming back grants nothing)', async () => {
    const fx = await createCatalogueFixture(db);
    const userId = await createUser(db);
    const started = await startCheckout(db, { userId, email: `${userId}@example.com`, planId: fx.plans.pro }, createStripeClient(fake.secretKey, fake.baseUrl));
    if (!started.ok) throw new Error('checkout did not start');
    const sessionId = started.url.split('/').at(-1)!;
    fake.completeCheckout(sessionId);
    expect(await getCheckoutOutcome(db, { userId, checkoutSessionId: sessionId })).toEqual({ status: 'pending' });
    expect(await db.select().from(subscriptions).where(eq(subscriptions.userId, userId))).toHaveLength(0);
  });

  it('rejects a bad signature, a signature for other bytes, and a missing header with 400, changing nothing', async () => {
    const fx = await createCatalogueFixture(db);
    const payload = buildEvent('customer.subscription.deleted', buildSubscription({ customer: 'cus_x', priceId: 'price_x', start: 1, end: 2 }));
    const eventId = JSON.parse(payload).id as string;
    const cases = [
      signPayload(payload, 'whsec_wrong_secret'),
      signPayload(payload.replace('"livemode":false', '"livemode":true'), WEBHOOK_SECRET),
      signPayload(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600), // outside the tolerance window
      '',
    ];
    for (const signature of cases) {
      const res = await deliver(payload, signature);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_request' });
      expect(typeof res.body.request_id).toBe('string');
    }
    expect(await ledger(eventId)).toHaveLength(0);
    expect(await subscribersCount(db, fx.kbId)).toBe(0);
  });

  it('a duplicate delivery answers 200 and changes nothing', async () => {
    const { subscription, event, userId } = await purchasedThroughStripe();
    const again = await deliver(event);
    expect(again).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(await db.select().from(subscriptions).where(eq(subscriptions.userId, userId))).toHaveLength(1);
    const sub = await subscriptionByStripeId(subscription.id);
    expect(await db.select().from(apiKeys).where(eq(apiKeys.subscriptionId, sub.id))).toHaveLength(1);
    expect(await db.select().from(keyHandoffs).where(eq(keyHandoffs.subscriptionId, sub.id))).toHaveLength(1);

    // Concurrent duplicates of a new event: exactly one applies.
    const invoice = buildInvoice({ subscriptionId: subscription.id, customer: 'c', start: sub.currentPeriodEnd.getTime() / 1000, end: sub.currentPeriodEnd.getTime() / 1000 + 30 * DAY, paid: true });
    const paid = buildEvent('invoice.paid', invoice);
    const results = await Promise.all([deliver(paid), deliver(paid), deliver(paid)]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.duplicate === false)).toHaveLength(1);
    expect(await db.select().from(usagePeriods).where(eq(usagePeriods.subscriptionId, sub.id))).toHaveLength(2);
  });

  it('invoice.paid starts the new period with a fresh cap; an older invoice delivered late is ignored', async () => {
    const start = Math.floor(Date.now() / 1000) - 29 * DAY;
    const { subscription, customer, fx } = await purchasedThroughStripe({ start, end: start + 30 * DAY });
    const sub = await subscriptionByStripeId(subscription.id);
    await useQueries(db, sub.id, sub.currentPeriodStart, 42);

    const next = { start: start + 30 * DAY, end: start + 61 * DAY };
    const newer = buildEvent('invoice.paid', buildInvoice({ subscriptionId: subscription.id, customer, ...next, paid: true }), { created: next.start });
    expect((await deliver(newer)).body).toMatchObject({ outcome: 'applied' });
    const renewed = await subscriptionByStripeId(subscription.id);
    expect(renewed.currentPeriodStart.getTime()).toBe(next.start * 1000);
    expect(renewed.currentPeriodEnd.getTime()).toBe(next.end * 1000);
    const [fresh] = await db
      .select()
      .from(usagePeriods)
      .where(and(eq(usagePeriods.subscriptionId, sub.id), eq(usagePeriods.periodStart, renewed.currentPeriodStart)));
    expect(fresh!.used).toBe(0);

    const older = buildEvent('invoice.paid', buildInvoice({ subscriptionId: subscription.id, customer, start, end: start + 30 * DAY, paid: true }), { created: start });
    expect((await deliver(older)).body).toMatchObject({ duplicate: false, outcome: 'ignored:stale' });
    const after = await subscriptionByStripeId(subscription.id);
    expect(after.currentPeriodStart.getTime()).toBe(next.start * 1000);
    expect(await subscribersCount(db, fx.kbId)).toBe(await countActive(db, fx.kbId));
  });

  it('invoice.payment_failed suspends (past_due) until invoice.paid; a failure older than the payment is ignored', async () => {
    const start = Math.floor(Date.now() / 1000) - 30 * DAY - 60;
    const { subscription, customer, fx } = await purchasedThroughStripe({ start, end: start + 30 * DAY });
    const next = { start: start + 30 * DAY, end: start + 60 * DAY };
    const t = Math.floor(Date.now() / 1000);

    const failed = buildEvent('invoice.payment_failed', buildInvoice({ subscriptionId: subscription.id, customer, ...next, paid: false }), { created: t - 100 });
    expect((await deliver(failed)).body).toMatchObject({ outcome: 'applied' });
    expect((await subscriptionByStripeId(subscription.id)).status).toBe('past_due');
    expect(await subscribersCount(db, fx.kbId)).toBe(0);

    const paid = buildEvent('invoice.paid', buildInvoice({ subscriptionId: subscription.id, customer, ...next, paid: true }), { created: t - 50 });
    expect((await deliver(paid)).body).toMatchObject({ outcome: 'applied' });
    const active = await subscriptionByStripeId(subscription.id);
    expect(active.status).toBe('active');
    expect(active.currentPeriodStart.getTime()).toBe(next.start * 1000);

    // An earlier retry failure of the same invoice, delivered after the payment: must not suspend a paid subscription.
    const lateFailure = buildEvent('invoice.payment_failed', buildInvoice({ subscriptionId: subscription.id, customer, ...next, paid: false }), { created: t - 75 });
    expect((await deliver(lateFailure)).body).toMatchObject({ outcome: 'ignored:stale' });
    expect((await subscriptionByStripeId(subscription.id)).status).toBe('active');
    expect(await subscribersCount(db, fx.kbId)).toBe(1);
  });

  it('customer.subscription.updated: cancel at period end and plan change; an older update delivered late is ignored', async () => {
    const { subscription, fx, customer } = await purchasedThroughStripe();
    await db.update(plans).set({ stripePriceId: 'price_pro_fixture' }).where(eq(plans.id, fx.plans.pro));
    const period = { start: subscription.items.data[0]!.current_period_start, end: subscription.items.data[0]!.current_period_end };
    const t = Math.floor(Date.now() / 1000);

    const newer = buildSubscription({ id: subscription.id, customer, priceId: 'price_pro_fixture', ...period, cancelAtPeriodEnd: true });
    expect((await deliver(buildEvent('customer.subscription.updated', newer, { created: t }))).body).toMatchObject({ outcome: 'applied' });
    let sub = await subscriptionByStripeId(subscription.id);
    expect(sub.cancelAtPeriodEnd).toBe(true);
    expect(sub.planId).toBe(fx.plans.pro);
    expect(sub.status).toBe('active');

    const older = buildSubscription({ id: subscription.id, customer, priceId: 'price_old', metadata: { planId: fx.plans.starter }, ...period, cancelAtPeriodEnd: false });
    expect((await deliver(buildEvent('customer.subscription.updated', older, { created: t - 30 }))).body).toMatchObject({ outcome: 'ignored:stale' });
    sub = await subscriptionByStripeId(subscription.id);
    expect(sub.cancelAtPeriodEnd).toBe(true);
    expect(sub.planId).toBe(fx.plans.pro);

    // Resumed in the portal (a genuinely newer update).
    const resumed = buildSubscription({ id: subscription.id, customer, priceId: 'price_pro_fixture', ...period, cancelAtPeriodEnd: false });
    expect((await deliver(buildEvent('customer.subscription.updated', resumed, { created: t + 5 }))).body).toMatchObject({ outcome: 'applied' });
    expect((await subscriptionByStripeId(subscription.id)).cancelAtPeriodEnd).toBe(false);
  });

  it('customer.subscription.deleted ends access; later events never revive it', async () => {
    const { subscription, fx, customer } = await purchasedThroughStripe();
    const period = { start: subscription.items.data[0]!.current_period_start, end: subscription.items.data[0]!.current_period_end };
    const t = Math.floor(Date.now() / 1000);
    const deleted = { ...buildSubscription({ id: subscription.id, customer, priceId: 'p', ...period, status: 'canceled' }), ended_at: t };
    expect((await deliver(buildEvent('customer.subscription.deleted', deleted, { created: t }))).body).toMatchObject({ outcome: 'applied' });
    const ended = await subscriptionByStripeId(subscription.id);
    expect(ended.status).toBe('cancelled');
    expect(ended.endedAt?.getTime()).toBe(t * 1000);
    expect(await subscribersCount(db, fx.kbId)).toBe(0);

    const lateUpdate = buildSubscription({ id: subscription.id, customer, priceId: 'p', ...period });
    expect((await deliver(buildEvent('customer.subscription.updated', lateUpdate, { created: t - 10 }))).body).toMatchObject({ outcome: 'ignored:ended' });
    const latePaid = buildEvent('invoice.paid', buildInvoice({ subscriptionId: subscription.id, customer, start: period.end, end: period.end + 30 * DAY, paid: true }));
    expect((await deliver(latePaid)).body).toMatchObject({ outcome: 'ignored:ended' });
    expect((await subscriptionByStripeId(subscription.id)).status).toBe('cancelled');
  });

  it('an invoice.paid that arrives before checkout.session.completed is recorded and the checkout still grants access', async () => {
    const fx = await createCatalogueFixture(db);
    const userId = await createUser(db);
    const started = await startCheckout(db, { userId, email: `${userId}@example.com`, planId: fx.plans.starter }, createStripeClient(fake.secretKey, fake.baseUrl));
    if (!started.ok) throw new Error('checkout did not start');
    const { session, subscription } = fake.completeCheckout(started.url.split('/').at(-1)!);
    const period = { start: subscription.items.data[0]!.current_period_start, end: subscription.items.data[0]!.current_period_end };
    const early = buildEvent('invoice.paid', buildInvoice({ subscriptionId: subscription.id, customer: String(session.customer), ...period, paid: true }));
    expect((await deliver(early)).body).toMatchObject({ outcome: 'ignored:unknown_subscription' });
    expect((await deliver(buildEvent('checkout.session.completed', session))).body).toMatchObject({ outcome: 'applied' });
    expect((await subscriptionByStripeId(subscription.id)).status).toBe('active');
  });

  it('a second paid checkout for a KB the buyer already has is recorded, not granted twice', async () => {
    const { fx, userId } = await purchasedThroughStripe();
    const started = await startCheckout(db, { userId, email: `${userId}@example.com`, planId: fx.plans.pro }, createStripeClient(fake.secretKey, fake.baseUrl));
    // The app refuses to start it; simulate a second tab that got through before the first purchase landed.
    expect(started).toMatchObject({ ok: false, code: 'already_subscribed' });
    const customer = (await db.query.users.findFirst({ where: (u, { eq: equals }) => equals(u.id, userId) }))!.stripeCustomerId!;
    const sessionId = `cs_test_second_${userId}`;
    fake.sessions.set(sessionId, {
      id: sessionId, object: 'checkout.session', mode: 'subscription', customer, client_reference_id: userId,
      metadata: { userId, planId: fx.plans.pro }, subscription_metadata: { userId, planId: fx.plans.pro }, line_item: { price: null },
    });
    const { session } = fake.completeCheckout(sessionId);
    const res = await deliver(buildEvent('checkout.session.completed', session));
    expect(res.body).toMatchObject({ outcome: 'ignored:conflict' });
    expect(await db.select().from(subscriptions).where(eq(subscriptions.userId, userId))).toHaveLength(1);
  });

  it('dashboard changes of a Stripe subscription go to Stripe first, and a later webhook confirms rather than undoes them', async () => {
    const { subscription, fx, userId } = await purchasedThroughStripe();
    const stripe = createStripeClient(fake.secretKey, fake.baseUrl);
    const sub = await subscriptionByStripeId(subscription.id);
    const stranger = await createUser(db);
    expect(await cancelAtPeriodEnd(db, { userId: stranger, subscriptionId: sub.id }, stripe)).toMatchObject({ ok: false, code: 'not_found' });

    expect((await changePlan(db, { userId, subscriptionId: sub.id, planId: fx.plans.pro }, stripe)).ok).toBe(true);
    const update = fake.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${subscription.id}`).at(-1)!;
    expect(update.params).toMatchObject({ 'metadata[planId]': fx.plans.pro, 'items[0][price_data][unit_amount]': '2900', proration_behavior: 'always_invoice' });
    expect((await subscriptionByStripeId(subscription.id)).planId).toBe(fx.plans.pro);
    // Stripe's echo of that change (ad-hoc price id, plan in metadata) keeps the new plan.
    const echoed = fake.subscriptions.get(subscription.id)!;
    expect((await deliver(buildEvent('customer.subscription.updated', echoed))).body).toMatchObject({ outcome: 'applied' });
    expect((await subscriptionByStripeId(subscription.id)).planId).toBe(fx.plans.pro);

    expect((await cancelAtPeriodEnd(db, { userId, subscriptionId: sub.id }, stripe)).ok).toBe(true);
    expect(fake.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(true);
    expect((await subscriptionByStripeId(subscription.id)).cancelAtPeriodEnd).toBe(true);

    fake.failNext(`/v1/subscriptions/${subscription.id}`, 400);
    expect(await resumeRenewal(db, { userId, subscriptionId: sub.id }, stripe)).toMatchObject({ ok: false, code: 'stripe_unavailable' });
    expect((await subscriptionByStripeId(subscription.id)).cancelAtPeriodEnd).toBe(true);
    expect((await resumeRenewal(db, { userId, subscriptionId: sub.id }, stripe)).ok).toBe(true);
    expect(fake.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(false);
    expect((await subscriptionByStripeId(subscription.id)).cancelAtPeriodEnd).toBe(false);
  });

  it('answers 405 to GET', async () => {
    const { GET } = await import('@/app/api/stripe/webhook/route');
    const res = await GET(new Request('http://localhost/api/stripe/webhook'));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

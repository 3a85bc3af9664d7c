import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as webhookRoute } from '@/app/api/stripe/webhook/route';
import { apiKeys, earnings, keyHandoffs, plans, publishers, stripeEvents, subscriptions, usagePeriods } from '@/db/schema';
import {
  cancelAtPeriodEnd,
  changePlan,
  connectTermsFor,
  downgradeAtRenewal,
  getCheckoutOutcome,
  moveStripeSubscriptionToPlan,
  registerBillingJobs,
  resumeRenewal,
  startCheckout,
  STRIPE_PLAN_MOVE_QUEUE,
} from '@/lib/billing';
import type { Database } from '@/lib/platform/db';
import { getEnv, resetEnvForTesting } from '@/lib/platform/env';
import { dedupeJobId } from '@/lib/platform/job-queues';
import { runDueJobs } from '@/lib/platform/jobs';
import { newId } from '@/lib/platform/ids';
import { hashApiKey } from '@/lib/keys';
import { editPlan, type Actor } from '@/lib/publishing';
import { createStripeClient } from '@/lib/billing/stripe';
import { createTestDatabase } from '../support/db';
import { buildEvent, buildInvoice, buildSubscription, signPayload, startFakeStripe, type FakeStripe } from '../support/fake-stripe';
import { countActive, createCatalogFixture, createUser, subscribersCount, useQueries } from './subscriptions-fixtures';

const WEBHOOK_SECRET = 'whsec_test_fake_almanac_secret';
/** The Connect endpoint's own signing secret (events of connected accounts): STRIPE_WEBHOOK_SECRET lists both. */
const CONNECT_WEBHOOK_SECRET = 'whsec_test_fake_almanac_connect';
const DAY = 86_400;

let db: Database;
let fake: FakeStripe;
const savedEnv = { ...process.env };

beforeAll(async () => {
  db = (await createTestDatabase()).db;
  fake = await startFakeStripe();
  process.env.STRIPE_SECRET_KEY = fake.secretKey;
  process.env.STRIPE_WEBHOOK_SECRET = `${WEBHOOK_SECRET}, ${CONNECT_WEBHOOK_SECRET}`;
  process.env.STRIPE_API_BASE = fake.baseUrl;
  resetEnvForTesting();
  registerBillingJobs();
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
  const fx = await createCatalogFixture(db);
  const userId = await createUser(db);
  const started = await startCheckout(
    db,
    { userId, email: `${userId}@example.com`, planId: fx.plans.starter },
    createStripeClient(fake.secretKey, fake.baseUrl),
  );
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
    const fx = await createCatalogFixture(db);
    const userId = await createUser(db);
    const started = await startCheckout(db, { userId, email: `${userId}@example.com`, planId: fx.plans.pro }, createStripeClient(fake.secretKey, fake.baseUrl));
    if (!started.ok) throw new Error('checkout did not start');
    const sessionId = started.url.split('/').at(-1)!;
    fake.completeCheckout(sessionId);
    expect(await getCheckoutOutcome(db, { userId, checkoutSessionId: sessionId })).toEqual({ status: 'pending' });
    expect(await db.select().from(subscriptions).where(eq(subscriptions.userId, userId))).toHaveLength(0);
  });

  it('rejects a bad signature, a signature for other bytes, and a missing header with 400, changing nothing', async () => {
    const fx = await createCatalogFixture(db);
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
    const invoice = buildInvoice({
      subscriptionId: subscription.id,
      customer: 'c',
      start: sub.currentPeriodEnd.getTime() / 1000,
      end: sub.currentPeriodEnd.getTime() / 1000 + 30 * DAY,
      paid: true,
    });
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

    const older = buildEvent('invoice.paid', buildInvoice({ subscriptionId: subscription.id, customer, start, end: start + 30 * DAY, paid: true }), {
      created: start,
    });
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

    const failed = buildEvent('invoice.payment_failed', buildInvoice({ subscriptionId: subscription.id, customer, ...next, paid: false }), {
      created: t - 100,
    });
    expect((await deliver(failed)).body).toMatchObject({ outcome: 'applied' });
    expect((await subscriptionByStripeId(subscription.id)).status).toBe('past_due');
    expect(await subscribersCount(db, fx.kbId)).toBe(0);

    const paid = buildEvent('invoice.paid', buildInvoice({ subscriptionId: subscription.id, customer, ...next, paid: true }), { created: t - 50 });
    expect((await deliver(paid)).body).toMatchObject({ outcome: 'applied' });
    const active = await subscriptionByStripeId(subscription.id);
    expect(active.status).toBe('active');
    expect(active.currentPeriodStart.getTime()).toBe(next.start * 1000);

    // An earlier retry failure of the same invoice, delivered after the payment: must not suspend a paid subscription.
    const lateFailure = buildEvent('invoice.payment_failed', buildInvoice({ subscriptionId: subscription.id, customer, ...next, paid: false }), {
      created: t - 75,
    });
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

    const older = buildSubscription({
      id: subscription.id,
      customer,
      priceId: 'price_old',
      metadata: { planId: fx.plans.starter },
      ...period,
      cancelAtPeriodEnd: false,
    });
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
    const latePaid = buildEvent(
      'invoice.paid',
      buildInvoice({ subscriptionId: subscription.id, customer, start: period.end, end: period.end + 30 * DAY, paid: true }),
    );
    expect((await deliver(latePaid)).body).toMatchObject({ outcome: 'ignored:ended' });
    expect((await subscriptionByStripeId(subscription.id)).status).toBe('cancelled');
  });

  it('an invoice.paid that arrives before checkout.session.completed is recorded and the checkout still grants access', async () => {
    const fx = await createCatalogFixture(db);
    const userId = await createUser(db);
    const started = await startCheckout(
      db,
      { userId, email: `${userId}@example.com`, planId: fx.plans.starter },
      createStripeClient(fake.secretKey, fake.baseUrl),
    );
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
      id: sessionId,
      object: 'checkout.session',
      mode: 'subscription',
      customer,
      client_reference_id: userId,
      metadata: { userId, planId: fx.plans.pro },
      subscription_metadata: { userId, planId: fx.plans.pro },
      line_item: { price: null },
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
    expect(update.params).toMatchObject({
      'metadata[planId]': fx.plans.pro,
      'items[0][price_data][unit_amount]': '2900',
      proration_behavior: 'always_invoice',
    });
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

describe('a replaced plan at Stripe (docs/api.md §9.2)', () => {
  const operator: Actor = { kind: 'operator', userId: null, via: 'cli' };
  const terms = (overrides: Record<string, unknown>) => ({
    name: 'Starter',
    price: '9',
    currency: 'usd',
    queriesPerPeriod: '100',
    requestsPerMinute: '60',
    ...overrides,
  });
  const subscriptionUpdates = (stripeId: string) => fake.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${stripeId}`);
  const moveJob = async (subscriptionId: string) =>
    (
      await db.execute(
        sql`select id, state, retry_count, output from pgboss.job where name = ${STRIPE_PLAN_MOVE_QUEUE} and data->>'subscriptionId' = ${subscriptionId}`,
      )
    ).rows[0];
  const moveJobById = async (id: string) => (await db.execute(sql`select state, retry_count, output from pgboss.job where id = ${id}::uuid`)).rows;

  it('Stripe bills the replacement’s price from the next invoice, without proration; the plan itself changes at that renewal', async () => {
    const stripe = createStripeClient(fake.secretKey, fake.baseUrl);
    const start = Math.floor(Date.now() / 1000) - 10 * DAY;
    const { subscription, fx } = await purchasedThroughStripe({ start, end: start + 30 * DAY });
    const ours = await subscriptionByStripeId(subscription.id);
    const item = fake.subscriptions.get(subscription.id)!.items.data[0]!;
    expect(item.price.unit_amount).toBe(900);

    const edited = await editPlan(db, operator, fx.plans.starter, terms({ price: '12', queriesPerPeriod: '150' }), stripe);
    if (!edited.ok || !('plan' in edited)) throw new Error('edit refused');
    expect(edited.replaced).toEqual({ oldPlanId: fx.plans.starter, movingSubscriptions: 1 });
    const replacement = edited.plan;
    expect(fake.prices.get(replacement.stripePriceId!)).toMatchObject({ unit_amount: 1200, currency: 'usd' });
    // The move is a durable job, committed with the replacement; Stripe is untouched until it runs.
    expect(await moveJob(ours.id)).toMatchObject({
      state: 'created',
      id: dedupeJobId(STRIPE_PLAN_MOVE_QUEUE, `stripe-plan-move:${ours.id}:${replacement.id}`),
    });
    expect(subscriptionUpdates(subscription.id)).toHaveLength(0);

    await runDueJobs({ queues: [STRIPE_PLAN_MOVE_QUEUE] });
    expect(await moveJob(ours.id)).toMatchObject({ state: 'completed', retry_count: 0 });
    const [update] = subscriptionUpdates(subscription.id);
    expect(update!.params).toEqual({
      proration_behavior: 'none',
      'metadata[planId]': replacement.id,
      'items[0][id]': item.id,
      'items[0][price]': replacement.stripePriceId,
    });
    expect(update!.headers['idempotency-key']).toBe(`almanac-stripe-plan-move:${ours.id}:${replacement.id}`);
    expect(fake.subscriptions.get(subscription.id)!.items.data[0]!.price).toMatchObject({ id: replacement.stripePriceId, unit_amount: 1200 });

    // Mid-period nothing changes here, not even when Stripe echoes the new price.
    expect((await deliver(buildEvent('customer.subscription.updated', fake.subscriptions.get(subscription.id)))).body).toMatchObject({ outcome: 'applied' });
    expect(await subscriptionByStripeId(subscription.id)).toMatchObject({ planId: fx.plans.starter, pendingPlanId: replacement.id });
    // A retried job (a worker that died after Stripe answered) sends nothing more.
    expect(await moveStripeSubscriptionToPlan(db, { subscriptionId: ours.id, planId: replacement.id }, stripe)).toBe('unchanged');
    expect(subscriptionUpdates(subscription.id)).toHaveLength(1);

    // The renewal: Stripe's next invoice charges the new price, and with it the subscription is on the new plan.
    const renewal = fake.renew(subscription.id);
    expect(renewal.amount_paid).toBe(1200);
    expect((await deliver(buildEvent('invoice.paid', renewal))).body).toMatchObject({ outcome: 'applied' });
    const renewed = await subscriptionByStripeId(subscription.id);
    expect(renewed).toMatchObject({ planId: replacement.id, pendingPlanId: null });
    expect(renewed.currentPeriodStart.getTime()).toBe((start + 30 * DAY) * 1000);
    const [paid] = await db
      .select()
      .from(earnings)
      .where(and(eq(earnings.subscriptionId, ours.id), eq(earnings.periodStart, renewed.currentPeriodStart)));
    expect(paid).toMatchObject({ planId: replacement.id, grossCents: 1200 });
  });

  it('leaves alone what the buyer changed since, follows a plan replaced twice, and retries when Stripe fails', async () => {
    const stripe = createStripeClient(fake.secretKey, fake.baseUrl);
    // A buyer who upgrades before the job runs: the upgrade set Stripe's price, the job must not undo it.
    const first = await purchasedThroughStripe();
    const upgrader = await subscriptionByStripeId(first.subscription.id);
    const edited = await editPlan(db, operator, first.fx.plans.starter, terms({ price: '11' }), stripe);
    if (!edited.ok || !('plan' in edited)) throw new Error('edit refused');
    expect((await changePlan(db, { userId: first.userId, subscriptionId: upgrader.id, planId: first.fx.plans.pro }, stripe)).ok).toBe(true);
    expect(await moveStripeSubscriptionToPlan(db, { subscriptionId: upgrader.id, planId: edited.plan.id }, stripe)).toBe('skipped:superseded');
    expect(fake.subscriptions.get(first.subscription.id)!.items.data[0]!.price.unit_amount).toBe(2900);

    // A downgrade scheduled to a plan whose terms then change twice before the job could run: the subscription is
    // bound for the last replacement, and Stripe (still on the first plan's price) is moved straight to it.
    const second = await purchasedThroughStripe();
    await db.update(subscriptions).set({ planId: second.fx.plans.pro }).where(eq(subscriptions.stripeSubscriptionId, second.subscription.id));
    const downgrader = await subscriptionByStripeId(second.subscription.id);
    expect((await downgradeAtRenewal(db, { userId: second.userId, subscriptionId: downgrader.id, planId: second.fx.plans.starter }, stripe)).ok).toBe(true);
    const once = await editPlan(db, operator, second.fx.plans.starter, terms({ price: '10' }), stripe);
    if (!once.ok || !('plan' in once)) throw new Error('edit refused');
    // Only arriving subscribers: still not changed in place (Stripe already bills them this plan's price).
    expect(once.replaced).toEqual({ oldPlanId: second.fx.plans.starter, movingSubscriptions: 1 });
    const twice = await editPlan(db, operator, once.plan.id, terms({ price: '13' }), stripe);
    if (!twice.ok || !('plan' in twice)) throw new Error('edit refused');
    expect(await subscriptionByStripeId(second.subscription.id)).toMatchObject({ planId: second.fx.plans.pro, pendingPlanId: twice.plan.id });
    expect(await moveStripeSubscriptionToPlan(db, { subscriptionId: downgrader.id, planId: once.plan.id }, stripe)).toBe('skipped:superseded');

    // Stripe fails: the job is retried by the queue, and then moves it.
    const lastMove = dedupeJobId(STRIPE_PLAN_MOVE_QUEUE, `stripe-plan-move:${downgrader.id}:${twice.plan.id}`);
    fake.failNext(`/v1/subscriptions/${second.subscription.id}`, 400);
    await runDueJobs({ queues: [STRIPE_PLAN_MOVE_QUEUE], limit: 20 });
    expect(await moveJobById(lastMove)).toMatchObject([{ state: 'retry', output: { message: expect.stringContaining('Injected failure') } }]);
    expect(fake.subscriptions.get(second.subscription.id)!.items.data[0]!.price.unit_amount).toBe(900);
    await db.execute(sql`update pgboss.job set start_after = now() where id = ${lastMove}::uuid`);
    await runDueJobs({ queues: [STRIPE_PLAN_MOVE_QUEUE], limit: 20 });
    expect(fake.subscriptions.get(second.subscription.id)!.items.data[0]!.price).toMatchObject({ id: twice.plan.stripePriceId, unit_amount: 1300 });
    const moved = subscriptionUpdates(second.subscription.id).at(-1)!;
    expect(moved.params).toMatchObject({ proration_behavior: 'none', 'items[0][price]': twice.plan.stripePriceId, 'metadata[planId]': twice.plan.id });
  });

  it('refuses a change of currency while Stripe bills subscribers, before creating any price', async () => {
    const stripe = createStripeClient(fake.secretKey, fake.baseUrl);
    const { fx } = await purchasedThroughStripe();
    const pricesBefore = fake.prices.size;
    expect(await editPlan(db, operator, fx.plans.starter, terms({ currency: 'eur' }), stripe)).toMatchObject({
      ok: false,
      code: 'conflict',
      message: expect.stringContaining('currency'),
    });
    expect(fake.prices.size).toBe(pricesBefore);
    const [starter] = await db.select().from(plans).where(eq(plans.id, fx.plans.starter));
    expect(starter).toMatchObject({ active: true, currency: 'usd', replacedByPlanId: null });
  });

  it('refuses to make a free plan paid while subscribers who gave no card hold it; a new cap for it is a replacement', async () => {
    const stripe = createStripeClient(fake.secretKey, fake.baseUrl);
    const fx = await createCatalogFixture(db);
    const free = newId('plan');
    await db.insert(plans).values({ id: free, kbId: fx.kbId, name: 'Free', priceCents: 0, queriesPerPeriod: 20 });
    const buyer = await createUser(db);
    // With Stripe configured a free plan is taken without Checkout: a live subscription that nothing bills.
    expect(await startCheckout(db, { userId: buyer, email: `${buyer}@example.com`, planId: free }, stripe)).toMatchObject({ ok: true, kind: 'free' });
    const pricesBefore = fake.prices.size;
    expect(await editPlan(db, operator, free, terms({ name: 'Free', price: '5', queriesPerPeriod: '20' }), stripe)).toMatchObject({
      ok: false,
      code: 'conflict',
      message: expect.stringContaining('no card'),
    });
    expect(fake.prices.size).toBe(pricesBefore);
    const smaller = await editPlan(db, operator, free, terms({ name: 'Free', price: '0', queriesPerPeriod: '10' }), stripe);
    expect(smaller).toMatchObject({ ok: true, replaced: { oldPlanId: free, movingSubscriptions: 1 }, plan: { priceCents: 0, stripePriceId: null } });
  });
});

describe('account.updated (Stripe Connect)', () => {
  async function connectedPublisher() {
    const stripe = createStripeClient(fake.secretKey, fake.baseUrl);
    const fx = await createCatalogFixture(db);
    const account = await stripe.accounts.create({ type: 'express' });
    await db.update(publishers).set({ stripeAccountId: account.id }).where(eq(publishers.id, fx.publisherId));
    return { fx, accountId: account.id, stripe };
  }
  /** A Connect event as the Connect endpoint receives it: the account as it was then, signed with that endpoint's secret. */
  const accountEvent = (accountId: string, created: number) =>
    buildEvent('account.updated', { ...fake.accounts.get(accountId) }, { account: accountId, created });
  const deliverConnect = (payload: string) => deliver(payload, signPayload(payload, CONNECT_WEBHOOK_SECRET));
  const onboarded = async (publisherId: string) =>
    (await db.select({ on: publishers.stripeOnboarded }).from(publishers).where(eq(publishers.id, publisherId)))[0]!.on;

  it('onboards the publisher when Stripe says the account can be paid; duplicates and older events change nothing', async () => {
    const { fx, accountId, stripe } = await connectedPublisher();
    const t = Math.floor(Date.now() / 1000);
    const early = accountEvent(accountId, t - 60); // details not submitted yet
    expect((await deliverConnect(early)).body).toMatchObject({ duplicate: false, outcome: 'applied' });
    expect(await onboarded(fx.publisherId)).toBe(false);
    expect(await connectTermsFor(db, fx.kbId)).toBeNull();

    fake.completeOnboarding(accountId);
    const done = accountEvent(accountId, t - 30);
    expect((await deliverConnect(done)).body).toMatchObject({ duplicate: false, outcome: 'applied' });
    expect(await onboarded(fx.publisherId)).toBe(true);
    const [row] = await ledger(JSON.parse(done).id);
    expect(row).toMatchObject({ type: 'account.updated', outcome: 'applied', stripeSubscriptionId: accountId });
    // From now on Checkout for its plans is a destination charge with the platform's fee.
    const buyer = await createUser(db);
    const checkout = await startCheckout(db, { userId: buyer, email: `${buyer}@example.com`, planId: fx.plans.starter }, stripe);
    if (!checkout.ok || checkout.kind !== 'stripe') throw new Error('checkout did not start');
    expect(fake.sessions.get(checkout.url.split('/').at(-1)!)).toMatchObject({
      application_fee_percent: getEnv().PLATFORM_FEE_PERCENT,
      transfer_destination: accountId,
    });

    expect(await deliverConnect(done)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    // Stripe retries the first event (not onboarded) after the newer one: stale, the publisher stays payable.
    expect((await deliverConnect(early.replace(/"id":"evt_[0-9a-f]+"/, '"id":"evt_retry_of_early"'))).body).toMatchObject({ outcome: 'ignored:stale' });
    expect(await onboarded(fx.publisherId)).toBe(true);

    // A genuinely newer event takes it back (Stripe disabled charges on the account).
    Object.assign(fake.accounts.get(accountId)!, { charges_enabled: false });
    expect((await deliverConnect(accountEvent(accountId, t))).body).toMatchObject({ outcome: 'applied' });
    expect(await onboarded(fx.publisherId)).toBe(false);
  });

  it('an account no publisher has, and other events of connected accounts, are recorded and ignored', async () => {
    const { fx } = await connectedPublisher();
    const unknown = buildEvent(
      'account.updated',
      { id: 'acct_nobody_here', object: 'account', details_submitted: true, charges_enabled: true },
      { account: 'acct_nobody_here' },
    );
    expect((await deliverConnect(unknown)).body).toMatchObject({ duplicate: false, outcome: 'ignored:unknown_account' });
    expect(await ledger(JSON.parse(unknown).id)).toHaveLength(1);
    const [publisher] = await db.select().from(publishers).where(eq(publishers.id, fx.publisherId));
    expect(publisher!.stripeOnboarded).toBe(false);

    // A connected account's own invoice is not one of ours, whatever its subscription id says.
    const { subscription } = await purchasedThroughStripe();
    const theirs = buildEvent('invoice.paid', buildInvoice({ subscriptionId: subscription.id, customer: 'cus_theirs', start: 1, end: 2 * DAY, paid: true }), {
      account: 'acct_someone',
    });
    expect((await deliverConnect(theirs)).body).toMatchObject({ outcome: 'ignored:connected_account' });
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, keyHandoffs, knowledgeBases, plans, subscriptions, users } from '@/db/schema';
import { cancelAtPeriodEnd, changePlan, completeTestPurchase, createBillingPortalUrl, getCheckoutOutcome, startCheckout } from '@/lib/billing';
import { parkIssuedKey, revealParkedKey } from '@/lib/billing/handoff';
import type { Database } from '@/lib/platform/db';
import { hashApiKey, parseApiKey } from '@/lib/keys';
import { createStripeClient, type Stripe } from '@/lib/billing/stripe';
import { createTestDatabase } from '../support/db';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe';
import { createCatalogFixture, createUser, subscribersCount } from './subscriptions-fixtures';

let db: Database;
let fake: FakeStripe;
let stripe: Stripe;

beforeAll(async () => {
  db = (await createTestDatabase()).db;
  fake = await startFakeStripe();
  // The real library, pointed at the fake through the same STRIPE_API_BASE parsing the app uses.
  stripe = createStripeClient(fake.secretKey, fake.baseUrl);
});
afterAll(async () => {
  await fake.close();
});

describe('Stripe Checkout (real stripe library against a local fake)', () => {
  it('creates a subscription-mode session with user/plan metadata, a monthly price and the success URL template', async () => {
    const fx = await createCatalogFixture(db);
    const userId = await createUser(db);
    const result = await startCheckout(db, { userId, email: 'buyer@example.com', planId: fx.plans.starter }, stripe);
    expect(result).toMatchObject({ ok: true, kind: 'stripe' });
    if (!result.ok) throw new Error('unreachable');
    expect(result.url.startsWith(`${fake.baseUrl}/pay/cs_test_`)).toBe(true);

    const create = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(create.headers.authorization).toBe(`Bearer ${fake.secretKey}`);
    expect(create.params).toMatchObject({
      mode: 'subscription',
      client_reference_id: userId,
      'metadata[userId]': userId,
      'metadata[planId]': fx.plans.starter,
      'subscription_data[metadata][planId]': fx.plans.starter,
      'line_items[0][price_data][unit_amount]': '900',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][recurring][interval]': 'month',
      'line_items[0][quantity]': '1',
    });
    // Stripe substitutes the literal template; it must reach Stripe unencoded.
    expect(create.params.success_url).toMatch(/\/checkout\/success\?session_id=\{CHECKOUT_SESSION_ID\}$/);
    expect(create.params.cancel_url).toContain(`/knowledge-bases/${fx.kbId}`);
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    expect(user!.stripeCustomerId).toBe(create.params.customer);
  });

  it('reuses one Stripe customer per user across purchases', async () => {
    const a = await createCatalogFixture(db);
    const b = await createCatalogFixture(db);
    const userId = await createUser(db);
    const before = fake.requests.filter((r) => r.path === '/v1/customers').length;
    await startCheckout(db, { userId, email: 'same@example.com', planId: a.plans.starter }, stripe);
    await startCheckout(db, { userId, email: 'same@example.com', planId: b.plans.pro }, stripe);
    const customerCalls = fake.requests.filter((r) => r.path === '/v1/customers');
    expect(customerCalls.length - before).toBe(1);
    const sessionsForUser = fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.params.client_reference_id === userId);
    expect(sessionsForUser).toHaveLength(2);
    expect(new Set(sessionsForUser.map((r) => r.params.customer)).size).toBe(1);
  });

  it('uses the plan’s Stripe price when it has one', async () => {
    const fx = await createCatalogFixture(db);
    await db.update(plans).set({ stripePriceId: 'price_fixture_pro' }).where(eq(plans.id, fx.plans.pro));
    const userId = await createUser(db);
    await startCheckout(db, { userId, email: 'p@example.com', planId: fx.plans.pro }, stripe);
    const create = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(create.params['line_items[0][price]']).toBe('price_fixture_pro');
    expect(create.params['line_items[0][price_data][unit_amount]']).toBeUndefined();
  });

  it('refuses inactive plans, second subscriptions, and reports Stripe failures as a value', async () => {
    const fx = await createCatalogFixture(db);
    const userId = await createUser(db);
    expect(await startCheckout(db, { userId, email: 'x@example.com', planId: fx.plans.retired }, stripe)).toEqual({ ok: false, code: 'invalid_plan' });

    fake.failNext('/v1/checkout/sessions', 400);
    expect(await startCheckout(db, { userId, email: 'x@example.com', planId: fx.plans.starter }, stripe)).toEqual({
      ok: false,
      code: 'stripe_unavailable',
      kbId: fx.kbId,
    });

    const bought = await completeTestPurchase(db, { userId, planId: fx.plans.starter }, { stripeConfigured: false });
    expect(bought.ok).toBe(true);
    const again = await startCheckout(db, { userId, email: 'x@example.com', planId: fx.plans.pro }, stripe);
    expect(again).toMatchObject({ ok: false, code: 'already_subscribed', kbId: fx.kbId });
  });

  it('creates Customer Portal sessions only for buyers with a Stripe customer', async () => {
    const fx = await createCatalogFixture(db);
    const userId = await createUser(db);
    expect(await createBillingPortalUrl(db, userId, stripe)).toEqual({ ok: false, code: 'no_customer' });
    expect(await createBillingPortalUrl(db, userId, null)).toEqual({ ok: false, code: 'stripe_not_configured' });
    await startCheckout(db, { userId, email: 'portal@example.com', planId: fx.plans.starter }, stripe);
    const portal = await createBillingPortalUrl(db, userId, stripe);
    expect(portal.ok && portal.url.startsWith(`${fake.baseUrl}/portal/`)).toBe(true);
    const call = fake.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!;
    expect(call.params.return_url).toMatch(/\/account$/);
  });

  it('without Stripe, test mode goes to the built-in test checkout', async () => {
    const fx = await createCatalogFixture(db);
    const userId = await createUser(db);
    expect(await startCheckout(db, { userId, email: 't@example.com', planId: fx.plans.starter }, null)).toEqual({
      ok: true,
      kind: 'test',
      url: `/checkout/test?planId=${fx.plans.starter}`,
    });
  });
});

describe('test purchase and the one-time key reveal', () => {
  it('issues an alm_sk_test_ key that is revealed exactly once, to its owner only, and never stored in clear', async () => {
    const fx = await createCatalogFixture(db);
    const buyer = await createUser(db);
    const stranger = await createUser(db);
    await db
      .update(knowledgeBases)
      .set({ sampleQuestions: ['  ', 'Which amendment abolished slavery?'] })
      .where(eq(knowledgeBases.id, fx.kbId));
    const result = await completeTestPurchase(db, { userId: buyer, planId: fx.plans.starter }, { stripeConfigured: false });
    if (!result.ok) throw new Error(`purchase failed: ${result.code}`);

    const [parked] = await db.select().from(keyHandoffs).where(eq(keyHandoffs.id, result.handoffId));
    expect(parked!.keyCiphertext).not.toContain('alm_sk_');

    expect(await getCheckoutOutcome(db, { userId: stranger, handoffId: result.handoffId })).toEqual({ status: 'pending' });

    const first = await getCheckoutOutcome(db, { userId: buyer, handoffId: result.handoffId });
    if (first.status !== 'revealed') throw new Error('expected the key');
    expect(first.plaintext.startsWith('alm_sk_test_')).toBe(true);
    expect(parseApiKey(first.plaintext)).toMatchObject({ ok: true, mode: 'test' });
    expect(first).toMatchObject({ subscriptionId: result.subscriptionId, kbId: fx.kbId, planName: 'Starter', mode: 'test' });
    // The reveal's first request: the listing's first real sample question, and the whole cap left.
    expect(first).toMatchObject({ sampleQuestion: 'Which amendment abolished slavery?', usage: { used: 0, cap: 100, remaining: 100 } });
    const [key] = await db.select().from(apiKeys).where(eq(apiKeys.subscriptionId, result.subscriptionId));
    expect(key!.keyHash).toBe(hashApiKey(first.plaintext));

    expect(await getCheckoutOutcome(db, { userId: buyer, handoffId: result.handoffId })).toEqual({ status: 'pending' });
    expect(await db.select().from(keyHandoffs).where(eq(keyHandoffs.id, result.handoffId))).toHaveLength(0);
  });

  it('two concurrent reveals of one handoff show the key once', async () => {
    const fx = await createCatalogFixture(db);
    const buyer = await createUser(db);
    const result = await completeTestPurchase(db, { userId: buyer, planId: fx.plans.pro }, { stripeConfigured: false });
    if (!result.ok) throw new Error('purchase failed');
    const outcomes = await Promise.all([1, 2, 3].map(() => revealParkedKey(db, { userId: buyer, handoffId: result.handoffId })));
    expect(outcomes.filter((o) => o.status === 'revealed')).toHaveLength(1);
  });

  it('expired handoffs reveal nothing', async () => {
    const fx = await createCatalogFixture(db);
    const buyer = await createUser(db);
    const result = await completeTestPurchase(db, { userId: buyer, planId: fx.plans.starter }, { stripeConfigured: false });
    if (!result.ok) throw new Error('purchase failed');
    const later = new Date(Date.now() + 2 * 60 * 60 * 1000);
    expect(await revealParkedKey(db, { userId: buyer, handoffId: result.handoffId }, later)).toEqual({ status: 'none' });
    // The next handoff written after expiry sweeps the stale ciphertext away.
    const [key] = await db.select().from(apiKeys).where(eq(apiKeys.subscriptionId, result.subscriptionId));
    const next = await parkIssuedKey(db, { userId: buyer, subscriptionId: result.subscriptionId, keyId: key!.id, plaintext: 'alm_sk_test_placeholder' }, later);
    const remaining = await db.select({ id: keyHandoffs.id }).from(keyHandoffs).where(eq(keyHandoffs.userId, buyer));
    expect(remaining.map((r) => r.id)).toEqual([next]);
  });

  it('is refused when Stripe is configured, and a second purchase of the same KB is refused', async () => {
    const fx = await createCatalogFixture(db);
    const buyer = await createUser(db);
    expect(await completeTestPurchase(db, { userId: buyer, planId: fx.plans.starter }, { stripeConfigured: true })).toEqual({
      ok: false,
      code: 'stripe_configured',
    });
    expect(await db.select().from(subscriptions).where(eq(subscriptions.userId, buyer))).toHaveLength(0);
    expect((await completeTestPurchase(db, { userId: buyer, planId: fx.plans.starter }, { stripeConfigured: false })).ok).toBe(true);
    expect(await completeTestPurchase(db, { userId: buyer, planId: fx.plans.pro }, { stripeConfigured: false })).toEqual({
      ok: false,
      code: 'already_subscribed',
    });
    expect(await db.select().from(subscriptions).where(eq(subscriptions.userId, buyer))).toHaveLength(1);
  });
});

describe('POST /checkout/start (route handler)', () => {
  const post = async (body: Record<string, string>, headers: Record<string, string>) => {
    const { POST } = await import('@/app/checkout/start/route');
    return POST(
      new Request('http://localhost:3000/checkout/start', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(body).toString(),
      }),
    );
  };

  it('refuses cross-site and origin-less posts with 403 forbidden', async () => {
    const fx = await createCatalogFixture(db);
    const crossSite: Record<string, string>[] = [{ origin: 'https://evil.example' }, { referer: 'https://evil.example/page' }, {}];
    for (const headers of crossSite) {
      const res = await post({ planId: fx.plans.starter }, headers);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: 'forbidden' });
    }
  });

  it('sends a signed-out buyer to sign in, coming back to the knowledge base', async () => {
    const fx = await createCatalogFixture(db);
    const res = await post({ planId: fx.plans.starter }, { origin: 'http://localhost:3000' });
    expect(res.status).toBe(303);
    // A path on this site goes out relative, so the browser stays on the host it used.
    expect(res.headers.get('location')).toMatch(/^\/signin\?/);
    const location = new URL(res.headers.get('location')!, 'http://localhost:3000');
    expect(location.pathname).toBe('/signin');
    expect(location.searchParams.get('callbackUrl')).toBe(`/knowledge-bases/${fx.kbId}`);
  });

  it('answers 400 without a planId', async () => {
    const res = await post({}, { origin: 'http://localhost:3000' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('answers 400, not a database error, for a planId with a control character (docs/api.md §7.2)', async () => {
    for (const planId of ['plan_\u0000', 'plan_\u001b', 'plan_\u007f']) {
      const res = await post({ planId }, { origin: 'http://localhost:3000' });
      expect(res.status, JSON.stringify(planId)).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('answers every other method with a JSON 405 and Allow: POST', async () => {
    const route = await import('@/app/checkout/start/route');
    for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
      const res = await route[method](new Request('http://localhost:3000/checkout/start', { method }));
      expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, 'POST']);
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
      if (method !== 'HEAD') expect(await res.json()).toMatchObject({ error: 'method_not_allowed' });
    }
  });
});

describe('changing plan from the dashboard', () => {
  it('moves only to a plan with more queries, only for the owner; a smaller plan is refused and nothing changes', async () => {
    const fx = await createCatalogFixture(db);
    const buyer = await createUser(db);
    const stranger = await createUser(db);
    const bought = await completeTestPurchase(db, { userId: buyer, planId: fx.plans.starter }, { stripeConfigured: false });
    if (!bought.ok) throw new Error(`purchase failed: ${bought.code}`);
    const subscriptionId = bought.subscriptionId;
    const planOf = async () => (await db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)))[0]!.planId;

    expect(await changePlan(db, { userId: buyer, subscriptionId, planId: fx.plans.starter }, null)).toMatchObject({ ok: false, code: 'conflict' });
    expect(await changePlan(db, { userId: stranger, subscriptionId, planId: fx.plans.pro }, null)).toMatchObject({ ok: false, code: 'not_found' });
    expect(await planOf()).toBe(fx.plans.starter);

    expect(await changePlan(db, { userId: buyer, subscriptionId, planId: fx.plans.pro }, null)).toMatchObject({ ok: true });
    expect(await planOf()).toBe(fx.plans.pro);
    // Back down to 100 queries mid-period: refused (a hand-made form post; no page offers it).
    expect(await changePlan(db, { userId: buyer, subscriptionId, planId: fx.plans.starter }, null)).toMatchObject({ ok: false, code: 'invalid_plan' });
    expect(await planOf()).toBe(fx.plans.pro);
  });
});

describe('buying again after a cancelled subscription ends', () => {
  it('works at once, even when nothing has expired the old subscription yet', async () => {
    const fx = await createCatalogFixture(db);
    const buyer = await createUser(db);
    const first = await completeTestPurchase(db, { userId: buyer, planId: fx.plans.starter }, { stripeConfigured: false });
    if (!first.ok) throw new Error(`purchase failed: ${first.code}`);
    expect((await cancelAtPeriodEnd(db, { userId: buyer, subscriptionId: first.subscriptionId }, null)).ok).toBe(true);

    // Still inside the period: the buyer holds the knowledge base.
    expect(await startCheckout(db, { userId: buyer, email: 'b@example.com', planId: fx.plans.pro }, null)).toMatchObject({
      ok: false,
      code: 'already_subscribed',
      subscriptionId: first.subscriptionId,
    });

    // The period ends; no API call and no sweep has marked it expired.
    await db
      .update(subscriptions)
      .set({ currentPeriodEnd: new Date(Date.now() - 60_000) })
      .where(eq(subscriptions.id, first.subscriptionId));
    expect(await startCheckout(db, { userId: buyer, email: 'b@example.com', planId: fx.plans.pro }, null)).toMatchObject({ ok: true, kind: 'test' });
    const second = await completeTestPurchase(db, { userId: buyer, planId: fx.plans.pro }, { stripeConfigured: false });
    expect(second).toMatchObject({ ok: true });

    const [old] = await db.select().from(subscriptions).where(eq(subscriptions.id, first.subscriptionId));
    expect(old).toMatchObject({ status: 'expired' });
    expect(await subscribersCount(db, fx.kbId)).toBe(1);
  });
});

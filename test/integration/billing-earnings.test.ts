import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as webhookRoute } from '@/app/api/stripe/webhook/route';
import { earnings, plans, subscriptions } from '@/db/schema';
import { connectTermsFor, getConnectStatus, refreshConnectStatus, startCheckout, startConnectOnboarding } from '@/lib/billing';
import { createStripeClient } from '@/lib/billing/stripe';
import type { Database } from '@/lib/platform/db';
import { resetEnvForTesting } from '@/lib/platform/env';
import { newId } from '@/lib/platform/ids';
import { earningsBalance, ensureCurrentPeriod, purchaseSubscription, splitGross } from '@/lib/subscriptions';
import { createTestDatabase } from '../support/db';
import { buildEvent, buildInvoice, signPayload, startFakeStripe, type FakeStripe } from '../support/fake-stripe';
import { createCatalogFixture, createUser } from './subscriptions-fixtures';

/**
 * The publishers' earnings ledger (docs/api.md §9.3): one row per paid period, written in the transaction of the event
 * that paid it: test-checkout purchases and renewals, and Stripe's checkout.session.completed / invoice.paid in any
 * order, duplicates included.
 */

const WEBHOOK_SECRET = 'whsec_test_fake_almanac_earnings';
const DAY = 86_400;
let db: Database;
let fake: FakeStripe;
const savedEnv = { ...process.env };

beforeAll(async () => {
  db = (await createTestDatabase()).db;
  fake = await startFakeStripe();
});
afterAll(async () => {
  process.env = savedEnv;
  resetEnvForTesting();
  await fake.close();
});

const rowsFor = (subscriptionId: string) => db.select().from(earnings).where(eq(earnings.subscriptionId, subscriptionId)).orderBy(asc(earnings.periodStart));

describe('earnings ledger', () => {
  it('splits the gross by PLATFORM_FEE_PERCENT, rounding the fee half up', () => {
    expect([splitGross(900, 20), splitGross(999, 20), splitGross(1, 50), splitGross(2900, 0), splitGross(500, 100)]).toEqual([
      { feeCents: 180, netCents: 720 },
      { feeCents: 200, netCents: 799 },
      { feeCents: 1, netCents: 0 },
      { feeCents: 0, netCents: 2900 },
      { feeCents: 500, netCents: 0 },
    ]);
  });

  it('test mode: the purchase and each renewal are one row each, never twice; a free plan earns nothing', async () => {
    const fx = await createCatalogFixture(db);
    const buyer = await createUser(db);
    const bought = new Date('2026-01-31T10:00:00Z');
    const purchase = await purchaseSubscription(db, { userId: buyer, planId: fx.plans.starter, mode: 'test', now: bought });
    if (!purchase.ok) throw new Error(purchase.message);
    expect(await rowsFor(purchase.subscription.id)).toMatchObject([
      {
        publisherId: fx.publisherId,
        kbId: fx.kbId,
        planId: fx.plans.starter,
        grossCents: 900,
        feeCents: 180,
        netCents: 720,
        currency: 'usd',
        source: 'test_purchase',
      },
    ]);
    const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, purchase.subscription.id));
    const later = new Date('2026-03-01T12:00:00Z');
    await Promise.all([ensureCurrentPeriod(db, sub!, later), ensureCurrentPeriod(db, sub!, later)]);
    await ensureCurrentPeriod(db, sub!, later);
    const rows = await rowsFor(purchase.subscription.id);
    expect(rows.map((r) => [r.source, r.periodStart.toISOString(), r.grossCents])).toEqual([
      ['test_purchase', '2026-01-31T10:00:00.000Z', 900],
      ['test_renewal', '2026-02-28T10:00:00.000Z', 900],
    ]);

    const freePlan = newId('plan');
    await db.insert(plans).values({ id: freePlan, kbId: fx.kbId, name: 'Free', priceCents: 0, queriesPerPeriod: 20 });
    const other = await createUser(db);
    const free = await purchaseSubscription(db, { userId: other, planId: freePlan, mode: 'test' });
    if (!free.ok) throw new Error(free.message);
    expect(await rowsFor(free.subscription.id)).toEqual([]);
    expect(await earningsBalance(db, fx.publisherId)).toEqual([{ currency: 'usd', grossCents: 1800, feeCents: 360, netCents: 1440, periods: 2 }]);
  });

  describe('with Stripe', () => {
    beforeAll(() => {
      process.env.STRIPE_SECRET_KEY = fake.secretKey;
      process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
      process.env.STRIPE_API_BASE = fake.baseUrl;
      process.env.PLATFORM_FEE_PERCENT = '25';
      resetEnvForTesting();
    });

    async function deliver(payload: string) {
      const response = await webhookRoute(
        new Request('http://localhost/api/stripe/webhook', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(payload, WEBHOOK_SECRET) },
          body: payload,
        }),
      );
      return (await response.json()) as { duplicate: boolean; outcome?: string };
    }

    it('Connect: an Express account and onboarding link from the console, then Checkout is a destination charge with the fee', async () => {
      const stripe = createStripeClient(fake.secretKey, fake.baseUrl);
      const fx = await createCatalogFixture(db);
      const owner = await createUser(db);
      expect(await startConnectOnboarding(db, { userId: owner, email: 'p@example.com' }, stripe)).toMatchObject({ ok: false, code: 'not_found' });
      await db.execute(sql`update publishers set owner_user_id = ${owner} where id = ${fx.publisherId}`);
      const started = await startConnectOnboarding(db, { userId: owner, email: 'p@example.com' }, stripe);
      if (!started.ok) throw new Error(started.message);
      const status = await getConnectStatus(db, owner);
      expect(status).toMatchObject({ configured: true, onboarded: false, accountId: expect.stringMatching(/^acct_/) });
      expect(started.url).toBe(`${fake.baseUrl}/connect/${status.accountId}`);
      const link = fake.requests.filter((r) => r.path === '/v1/account_links').at(-1)!;
      expect(link.params).toMatchObject({
        account: status.accountId,
        type: 'account_onboarding',
        return_url: expect.stringContaining('/publish/earnings?connect=return'),
      });
      // Again: a new link for the same account.
      const accountsBefore = fake.accounts.size;
      expect(await startConnectOnboarding(db, { userId: owner, email: 'p@example.com' }, stripe)).toMatchObject({ ok: true });
      expect(fake.accounts.size).toBe(accountsBefore);

      // Not onboarded yet: Checkout charges the platform alone.
      expect(await connectTermsFor(db, fx.kbId)).toBeNull();
      expect((await refreshConnectStatus(db, owner, stripe)).onboarded).toBe(false);
      fake.completeOnboarding(status.accountId!);
      expect((await refreshConnectStatus(db, owner, stripe)).onboarded).toBe(true);

      const buyer = await createUser(db);
      const checkout = await startCheckout(db, { userId: buyer, email: `${buyer}@example.com`, planId: fx.plans.starter }, stripe);
      if (!checkout.ok || checkout.kind !== 'stripe') throw new Error('checkout did not start');
      const session = fake.sessions.get(checkout.url.split('/').at(-1)!)!;
      expect(session).toMatchObject({ application_fee_percent: 25, transfer_destination: status.accountId });
    });

    it('invoice.paid before and after checkout.session.completed, duplicates and a renewal: one row per paid period', async () => {
      const fx = await createCatalogFixture(db);
      const userId = await createUser(db);
      const started = await startCheckout(
        db,
        { userId, email: `${userId}@example.com`, planId: fx.plans.pro },
        createStripeClient(fake.secretKey, fake.baseUrl),
      );
      if (!started.ok || started.kind !== 'stripe') throw new Error('checkout did not start');
      const start = Math.floor(Date.now() / 1000) - DAY;
      const { session, subscription } = fake.completeCheckout(started.url.split('/').at(-1)!, { start, end: start + 30 * DAY });
      const customer = String(session.customer);
      const firstInvoice = buildInvoice({ subscriptionId: subscription.id, customer, start, end: start + 30 * DAY, paid: true, amountPaid: 2900 });

      // Out of order: the first invoice arrives before the subscription exists here.
      expect((await deliver(buildEvent('invoice.paid', firstInvoice))).outcome).toBe('ignored:unknown_subscription');
      const completed = buildEvent('checkout.session.completed', session);
      expect((await deliver(completed)).outcome).toBe('applied');
      expect(await deliver(completed)).toMatchObject({ duplicate: true });
      // Stripe retries the first invoice.paid later (a new delivery of the same invoice): still one row.
      expect((await deliver(buildEvent('invoice.paid', firstInvoice))).outcome).toBe('applied');
      const [ours] = await db.select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, subscription.id));
      expect((await rowsFor(ours!.id)).map((r) => [r.source, r.grossCents, r.feeCents, r.netCents])).toEqual([['stripe_invoice', 2900, 725, 2175]]);

      const renewal = buildEvent(
        'invoice.paid',
        buildInvoice({
          subscriptionId: subscription.id,
          customer,
          start: start + 30 * DAY,
          end: start + 60 * DAY,
          paid: true,
          amountPaid: 3100,
          currency: 'usd',
        }),
      );
      expect((await deliver(renewal)).outcome).toBe('applied');
      expect(await deliver(renewal)).toMatchObject({ duplicate: true });
      const rows = await rowsFor(ours!.id);
      expect(rows.map((r) => [r.periodStart.getTime() / 1000 - start, r.grossCents, r.feeCents, r.netCents, r.publisherId])).toEqual([
        [0, 2900, 725, 2175, fx.publisherId],
        [30 * DAY, 3100, 775, 2325, fx.publisherId],
      ]);
    });
  });
});

import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { startFakeStripe, type FakeStripe } from '../test/support/fake-stripe';
import { rememberSecret } from '../test/support/log-scan';
import { startAppServer, type AppServer } from './support/app-server';
import { confirmSignUpByEmail } from './support/auth';

/**
 * The Stripe purchase path in a browser, without the network: a local fake of Stripe (test/support/fake-stripe.ts:
 * its API for the real `stripe` library, a hosted checkout page and a signed webhook) and a second app server from
 * the same production build (e2e/support/app-server.ts) whose Stripe configuration points at it, on a scratch
 * PostgreSQL database seeded with the sample catalogue. Playwright's own server has no Stripe keys (test checkout).
 *
 * The fake starts first (the app needs its URL); the app's URL, known only once it serves, then becomes the fake's
 * webhook target. The fake delivers checkout.session.completed a few seconds after paying, so the success page must
 * first say it is waiting, with Stripe paid but no subscription in the database, and then reveal the key by itself:
 * access is granted only by the signed webhook.
 */
const webhookSecret = `whsec_e2e_${randomBytes(24).toString('hex')}`;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let fake: FakeStripe | undefined;
let app: AppServer | undefined;

test.beforeAll(async () => {
  // The first start may include the production build; seeding the catalogue takes a few seconds more.
  test.setTimeout(240_000);
  fake = await startFakeStripe();
  app = await startAppServer({
    name: 'stripe',
    readyPath: '/signin',
    env: {
      SEED_ON_START: 'true',
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: fake.baseUrl,
    },
  });
  // Held until the spec has seen the page wait without it (a timer lost that race on a loaded machine).
  fake.setWebhook({ url: `${app.url}/api/stripe/webhook`, secret: webhookSecret, held: true });
  // The global teardown proves neither the Stripe key nor the webhook secret reached this server's logs.
  rememberSecret(fake.secretKey, webhookSecret);
});

test.afterAll(async () => {
  await app?.close();
  await fake?.close();
});

test('Stripe Checkout: pay, wait for the webhook, see the key once, query, open the billing portal', async ({ page, request }) => {
  test.setTimeout(90_000);
  const server = app!;
  const stripe = fake!;

  const listing = (await (await request.get(`${server.url}/api/marketplace/knowledge-bases?query=constitution&category=legal`)).json()) as {
    items: { id: string; title: string }[];
  };
  const kb = listing.items.find((i) => i.title === 'U.S. Constitution Companion');
  expect(kb, 'the seeded catalogue lists the U.S. Constitution Companion').toBeDefined();
  const kbId = kb!.id;
  const [plan] = await server.query<{ id: string; price_cents: number; currency: string }>(
    "select id, price_cents, currency from plans where kb_id = $1 and name = 'Professional'",
    [kbId],
  );
  expect(plan).toBeDefined();

  const email = `stripe-${Date.now()}@example.com`;
  await page.goto(`${server.url}/signup?callbackUrl=${encodeURIComponent(`/knowledge-bases/${kbId}`)}`);
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await confirmSignUpByEmail(page, email);
  await expect(page).toHaveURL(new RegExp(`/knowledge-bases/${kbId}`));

  // Buying leads to Stripe's hosted checkout, for a session the app created with the real library.
  await page.getByRole('button', { name: /Buy Professional/ }).click();
  await expect(page).toHaveURL(new RegExp(`^${escapeRegExp(stripe.baseUrl)}/pay/cs_test_[0-9a-f]+$`));
  const sessionId = new URL(page.url()).pathname.split('/').at(-1)!;
  const [user] = await server.query<{ id: string; stripe_customer_id: string | null }>('select id, stripe_customer_id from users where email = $1', [email]);
  expect(user!.stripe_customer_id).toMatch(/^cus_/);
  expect(stripe.customers.has(user!.stripe_customer_id!)).toBe(true);
  const created = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions');
  expect(created).toHaveLength(1);
  expect(created[0]!.params).toMatchObject({
    mode: 'subscription',
    customer: user!.stripe_customer_id,
    client_reference_id: user!.id,
    'metadata[userId]': user!.id,
    'metadata[planId]': plan!.id,
    'metadata[kbId]': kbId,
    'subscription_data[metadata][planId]': plan!.id,
    'line_items[0][price_data][unit_amount]': String(plan!.price_cents),
    'line_items[0][price_data][currency]': plan!.currency,
    success_url: `${server.url}/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
  });
  expect(created[0]!.headers.authorization).toBe(`Bearer ${stripe.secretKey}`);

  // Paid at Stripe, yet no access until the webhook: the page waits, the database holds no subscription.
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(`${server.url}/checkout/success?session_id=${sessionId}`);
  await expect(page.getByRole('heading', { name: 'Confirming your payment…' })).toBeVisible();
  await expect(page.getByTestId('api-key')).toHaveCount(0);
  expect(stripe.sessions.get(sessionId)).toMatchObject({ status: 'complete', payment_status: 'paid' });
  expect(await server.query('select id from subscriptions where user_id = $1', [user!.id])).toEqual([]);
  expect(stripe.deliveries).toEqual([]);

  // The signed webhook arrives; the page, refreshing itself, reveals the key with no action from the buyer.
  stripe.releaseWebhooks();
  await expect(page.getByTestId('api-key')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('heading', { name: 'You are subscribed' })).toBeVisible();
  await expect(page.getByText(/TEST MODE/)).toHaveCount(0);
  const apiKey = (await page.getByTestId('api-key').textContent())!.trim();
  rememberSecret(apiKey);
  expect(apiKey).toMatch(/^alm_sk_live_[0-9A-Za-z]{38}$/);
  await expect
    .poll(() => stripe.deliveries)
    .toEqual([{ eventId: expect.stringMatching(/^evt_/), type: 'checkout.session.completed', url: `${server.url}/api/stripe/webhook`, status: 200 }]);
  const stripeSubscriptionId = stripe.sessions.get(sessionId)!.subscription as string;
  expect(stripe.subscriptions.has(stripeSubscriptionId)).toBe(true);
  expect(
    await server.query('select status, mode, kb_id, plan_id, stripe_subscription_id, stripe_checkout_session_id from subscriptions where user_id = $1', [
      user!.id,
    ]),
  ).toEqual([
    { status: 'active', mode: 'live', kb_id: kbId, plan_id: plan!.id, stripe_subscription_id: stripeSubscriptionId, stripe_checkout_session_id: sessionId },
  ]);
  expect(await server.query('select id, type, outcome from stripe_events')).toEqual([
    { id: stripe.deliveries[0]!.eventId, type: 'checkout.session.completed', outcome: 'applied' },
  ]);

  // Shown once: a reload says where the subscription is and no longer holds the key.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Purchase complete' })).toBeVisible();
  await expect(page.getByTestId('api-key')).toHaveCount(0);
  expect(await page.content()).not.toContain(apiKey);

  const answered = await request.post(`${server.url}/kb/${kbId}/query`, {
    headers: { Authorization: `Bearer ${apiKey}` },
    data: { query: 'How many senators does each state have?' },
  });
  expect(answered.status()).toBe(200);
  expect(answered.headers()['x-usage-cap']).toBe('500');
  expect(answered.headers()['x-usage-used']).toBe('1');
  const answer = (await answered.json()) as { answer: unknown; citations: unknown[]; tokens_used: unknown };
  expect(typeof answer.answer).toBe('string');
  expect((answer.answer as string).trim()).not.toBe('');
  expect(answer.citations.length).toBeGreaterThan(0);

  // The dashboard shows the paid subscription and opens Stripe's billing portal for this buyer's customer.
  await page.goto(`${server.url}/account`);
  const card = page.getByTestId('subscription-card');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('U.S. Constitution Companion');
  await expect(card).toContainText('Professional');
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: 'Billing and invoices' }).click();
  await expect(page).toHaveURL(new RegExp(`^${escapeRegExp(stripe.baseUrl)}/portal/p_[0-9a-f]+$`));
  const portal = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions');
  expect(portal).toHaveLength(1);
  expect(portal[0]!.params).toEqual({ customer: user!.stripe_customer_id, return_url: `${server.url}/account` });
});

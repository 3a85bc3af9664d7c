import { expect, test } from '@playwright/test';
import { startFakeStripe, type FakeStripe } from '../test/support/fake-stripe';

/**
 * The Stripe purchase path in a browser, against the local fake of Stripe (hosted checkout page + signed webhook).
 * Opt-in, because the app server must be started with Stripe configured to point at the fake:
 *
 *   STRIPE_SECRET_KEY=sk_test_fake_almanac_0000000000 STRIPE_WEBHOOK_SECRET=whsec_e2e_fake \
 *   STRIPE_API_BASE=http://127.0.0.1:3460 APP_URL=http://127.0.0.1:3458 DATA_DIR=$(mktemp -d) npx next start -p 3458
 *   E2E_STRIPE_APP_URL=http://127.0.0.1:3458 E2E_STRIPE_FAKE_PORT=3460 E2E_STRIPE_WEBHOOK_SECRET=whsec_e2e_fake \
 *   E2E_BASE_URL=http://127.0.0.1:3458 npx playwright test e2e/journey-stripe.spec.ts
 *
 * The fake delivers checkout.session.completed three seconds after paying, so the success page must first say it
 * is waiting and then reveal the key by itself: access is granted only by the webhook.
 */
const appUrl = process.env.E2E_STRIPE_APP_URL;
const fakePort = Number(process.env.E2E_STRIPE_FAKE_PORT ?? 0);
const webhookSecret = process.env.E2E_STRIPE_WEBHOOK_SECRET ?? '';

test.skip(!appUrl || !fakePort || !webhookSecret, 'needs a server started with Stripe pointed at the fake (see the comment above)');

let fake: FakeStripe;
test.beforeAll(async () => {
  fake = await startFakeStripe({ port: fakePort, webhook: { url: `${appUrl}/api/stripe/webhook`, secret: webhookSecret, delayMs: 3_000 } });
});
test.afterAll(async () => {
  await fake?.close();
});

test('Stripe Checkout: pay, wait for the webhook, see the key once, query, open the billing portal', async ({ page, request }) => {
  test.setTimeout(120_000);
  const listing = await (await request.get(`${appUrl}/api/marketplace/knowledge-bases?query=constitution&category=legal`)).json();
  const kbId = listing.items.find((i: { title: string }) => i.title === 'U.S. Constitution Companion').id as string;

  await page.goto(`${appUrl}/signup?callbackUrl=${encodeURIComponent(`/knowledge-bases/${kbId}`)}`);
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill(`stripe-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(new RegExp(`/knowledge-bases/${kbId}`));

  await page.getByRole('button', { name: /Buy Professional/ }).click();
  await expect(page).toHaveURL(new RegExp(`^http://127.0.0.1:${fakePort}/pay/cs_test_`));
  const created = fake.requests.find((r) => r.path === '/v1/checkout/sessions')!;
  expect(created.params.mode).toBe('subscription');

  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/checkout\/success\?session_id=cs_test_/);
  await expect(page.getByRole('heading', { name: 'Confirming your payment…' })).toBeVisible();
  await expect(page.getByTestId('api-key')).toBeVisible({ timeout: 15_000 });
  const apiKey = (await page.getByTestId('api-key').textContent())!.trim();
  expect(apiKey).toMatch(/^alm_sk_live_/);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Purchase complete' })).toBeVisible();
  await expect(page.getByTestId('api-key')).toHaveCount(0);

  const answered = await request.post(`${appUrl}/kb/${kbId}/query`, {
    headers: { Authorization: `Bearer ${apiKey}` },
    data: { query: 'How many senators does each state have?' },
  });
  expect(answered.status()).toBe(200);
  expect(answered.headers()['x-usage-cap']).toBe('500');

  await page.goto(`${appUrl}/account`);
  await page.getByRole('button', { name: 'Billing and invoices' }).click();
  await expect(page).toHaveURL(new RegExp(`^http://127.0.0.1:${fakePort}/portal/`));
});

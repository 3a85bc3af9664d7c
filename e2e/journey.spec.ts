import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { confirmSignUpByEmail } from './support/auth';

/**
 * The buyer's whole journey on a fresh server in test mode (no Stripe keys): browse → search → filter → open a
 * knowledge base → sign up → buy → copy the key → call the API over real HTTP → usage rises in the dashboard →
 * revoke → the API refuses the key with 403 key_revoked. Account pages are scanned with axe and photographed.
 */
const screenshots = path.resolve('e2e/artifacts/screenshots');

async function snap(page: Page, name: string) {
  await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
}

test('browse, buy in test mode, query with the key, watch usage, revoke', async ({ page, request, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);

  // Browse → search → filter.
  await page.goto('/knowledge-bases');
  const search = page.getByLabel('Search knowledge bases');
  await search.fill('constitution');
  await search.press('Enter');
  await expect(page).toHaveURL(/query=constitution/);
  await page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: /Legal/ }).click();
  await expect(page).toHaveURL(/category=legal/);
  await expect(page).toHaveURL(/query=constitution/);

  await page.getByRole('link', { name: 'U.S. Constitution Companion' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'U.S. Constitution Companion' })).toBeVisible();
  const kbId = new URL(page.url()).pathname.split('/').at(-1)!;
  expect(kbId).toMatch(/^kb_/);
  // Anyone may ask a few free questions before buying (docs/api.md §10.6).
  await expect(page.getByRole('region', { name: 'Try it' }).getByTestId('try-it-usage')).toContainText('Free preview');

  // Buying while signed out leads to sign-in, then sign-up, and back to the knowledge base.
  await page.getByRole('button', { name: /Buy Starter/ }).click();
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to buy Starter of U.S. Constitution Companion');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/signup\?callbackUrl=/);
  // Client forms: type only once React has hydrated them (otherwise hydration resets what was typed).
  await page.waitForLoadState('networkidle');
  const email = `journey-${Date.now()}@example.com`;
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  // The address is confirmed through the email that arrived (docs/api.md §11.3), which signs in and comes back here.
  await confirmSignUpByEmail(page, email);
  await expect(page).toHaveURL(new RegExp(`/knowledge-bases/${kbId}`));
  // Signed in without a plan: free preview questions until they buy.
  await expect(page.getByRole('region', { name: 'Try it' }).getByTestId('try-it-usage')).toContainText('Free preview');

  await page.getByRole('button', { name: /Buy Starter/ }).click();
  await expect(page).toHaveURL(/\/checkout\/test\?planId=/);
  await expect(page.getByText(/TEST MODE/)).toBeVisible();
  await expect(page.locator('input[autocomplete^="cc-"], input[name*="card" i]')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'test checkout');
  await snap(page, 'account-test-checkout');
  await page.getByRole('button', { name: 'Complete test purchase' }).click();

  await expect(page).toHaveURL(/\/checkout\/success\?handoff=/);
  await expect(page.getByText('you will not see it again')).toBeVisible();
  const apiKey = (await page.getByTestId('api-key').textContent())!.trim();
  expect(apiKey).toMatch(/^alm_sk_test_[0-9A-Za-z]{38}$/);
  await expect(page.getByTestId('curl-command')).toContainText(`/kb/${kbId}/query`);
  await expect(page.getByTestId('curl-command')).toContainText(apiKey);
  await page.getByTestId('copy-key').click();
  await expect(page.getByText('Copied', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);
  await expectNoSeriousA11yViolations(page, 'key reveal');
  await snap(page, 'account-key-reveal');
  await page.reload();
  await expect(page.getByTestId('api-key')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Nothing to show' })).toBeVisible();

  // The key works over real HTTP.
  const answered = await request.post(`/kb/${kbId}/query`, {
    headers: { Authorization: `Bearer ${apiKey}` },
    data: { query: 'How many senators does each state have?' },
  });
  expect(answered.status()).toBe(200);
  const body = await answered.json();
  expect(typeof body.answer).toBe('string');
  expect(body.answer.length).toBeGreaterThan(0);
  expect(Array.isArray(body.citations)).toBe(true);
  expect(answered.headers()['x-usage-used']).toBe('1');

  await page.goto('/account');
  const card = page.getByTestId('subscription-card').filter({ hasText: 'U.S. Constitution Companion' });
  await expect(card.getByTestId('usage-text')).toHaveText('1 / 100 queries used');
  await expect(card.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '1');
  await expectNoSeriousA11yViolations(page, 'dashboard');
  await snap(page, 'account-dashboard');

  // Try it on the knowledge-base page counts against the same cap.
  await page.goto(`/knowledge-bases/${kbId}`);
  await expect(page.getByTestId('try-it-usage')).toContainText('1 of 100 used');
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Your question').fill('How can the Constitution be amended?');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(page.getByTestId('try-it-answer')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('try-it-answer')).toContainText('2 / 100 queries used');
  await snap(page, 'account-try-it');

  // Subscription page: usage, chart, plan.
  await page.goto('/account');
  await card.getByRole('link', { name: /Usage, plan and keys/ }).click();
  await expect(page).toHaveURL(/\/account\/subscriptions\/sub_/);
  await expect(page.getByTestId('usage-text')).toHaveText('2 / 100 queries used');
  await expect(page.getByRole('img', { name: /Queries per day/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'subscription');
  await snap(page, 'account-subscription');

  // Revoke, behind a confirmation step. The key's last use is already recorded.
  await page.goto('/account/keys');
  await expect(page.locator('[data-testid^="key-row-"]').first()).toContainText(/Last used\s*(within the last minute|[A-Z][a-z]{2} \d)/);
  await expectNoSeriousA11yViolations(page, 'keys');
  await snap(page, 'account-keys');
  await page
    .getByRole('link', { name: /Revoke key/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Revoke this key?' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'revoke confirmation');
  await snap(page, 'account-revoke-confirm');
  await page.getByRole('button', { name: 'Yes, revoke this key' }).click();
  await expect(page.getByTestId('flash')).toContainText('The key was revoked');
  await expect(page.getByText('Revoked', { exact: true })).toBeVisible();
  // A revoked key is history: nothing to rename.
  await expect(page.getByRole('link', { name: /^Rename key/ })).toHaveCount(0);

  await expect
    .poll(
      async () => {
        const res = await request.post(`/kb/${kbId}/query`, { headers: { Authorization: `Bearer ${apiKey}` }, data: { query: 'Still there?' } });
        return { status: res.status(), error: (await res.json()).error };
      },
      { timeout: 3_000 },
    )
    .toEqual({ status: 403, error: 'key_revoked' });
});

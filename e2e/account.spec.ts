import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { buyOverHttp, verifiedBuyer } from './support/buyer';

/** Dashboard actions beyond the main journey: upgrade and downgrade with their confirmation, cancel/resume, named replacement key and rename, ownership, CSRF. */

async function firstKnowledgeBaseId(page: Page): Promise<string> {
  const res = await page.request.get('/api/marketplace/knowledge-bases?query=constitution&category=legal');
  const body = await res.json();
  return body.items.find((i: { title: string }) => i.title === 'U.S. Constitution Companion').id as string;
}

/** Bought over HTTP, then on the subscription's page: the purchase pages are driven by journey.spec.ts and account-recovery.spec.ts. */
async function buyStarter(page: Page, kbId: string): Promise<string> {
  const { apiKey, subscriptionPath } = await buyOverHttp(page.request, kbId, 'Starter');
  await page.goto(subscriptionPath);
  await expect(page).toHaveURL(/\/account\/subscriptions\/sub_/);
  return apiKey;
}

test('upgrade at once, cancel at period end and resume, replacement key shown once', async ({ page }) => {
  test.setTimeout(120_000);
  const kbId = await firstKnowledgeBaseId(page);
  await verifiedBuyer(page);
  const firstKey = await buyStarter(page, kbId);
  const subscriptionUrl = page.url();

  await expect(page.getByTestId('usage-text')).toHaveText('0 / 100 queries used');
  // Nothing is chosen for the buyer: the current plan is listed, marked and not selectable, and the review waits for a choice.
  const review = page.getByRole('button', { name: 'Review plan change' });
  const current = page.getByTestId('current-plan-choice');
  await expect(current).toContainText('Starter');
  await expect(current).toContainText('Your current plan');
  await expect(current.getByRole('radio')).toBeDisabled();
  await expect(page.getByRole('radio', { checked: true })).toHaveCount(0);
  await expect(review).toBeDisabled();
  await expect(page.getByText('Pick a plan above to review the change.')).toBeVisible();
  // An upgrade, by keyboard, is confirmed on a summary page: the new price and cap, and what is charged (nothing in test mode).
  await page.getByLabel(/Professional/).focus();
  await page.keyboard.press('Space');
  await expect(page.getByLabel(/Professional/)).toBeChecked();
  await expect(review).toBeEnabled();
  await page.keyboard.press('Tab');
  await expect(review).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Upgrade to Professional?');
  await expect(page.getByTestId('plan-change-summary')).toContainText(/\/month, 500 queries, 120 per minute/);
  await expect(page.getByTestId('plan-change-charge')).toContainText('Test mode: no charge');
  await page.screenshot({ path: path.resolve('e2e/artifacts/screenshots/plan-change-upgrade.png'), fullPage: true });
  await page.getByRole('button', { name: 'Confirm upgrade' }).click();
  await expect(page.getByTestId('flash')).toContainText('Plan changed');
  await expect(page.getByTestId('usage-text')).toHaveText('0 / 500 queries used');
  await expect(page.getByText(/Professional plan/)).toBeVisible();

  // A downgrade waits for the renewal: scheduled, the cap unchanged, and it can be withdrawn.
  await expect(current).toContainText('Professional');
  await expect(page.getByRole('radio', { checked: true })).toHaveCount(0);
  await page.getByLabel(/Starter/).check();
  await page.getByRole('button', { name: 'Review plan change' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Downgrade to Starter?');
  await expect(page.getByTestId('plan-change-summary')).toContainText('At the next renewal');
  await expect(page.getByTestId('plan-change-charge')).toContainText('Nothing now');
  const confirmAxe = await new AxeBuilder({ page }).analyze();
  expect(confirmAxe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.getByRole('button', { name: 'Confirm downgrade' }).click();
  await expect(page.getByTestId('flash')).toContainText('Downgrade scheduled');
  await expect(page.getByTestId('pending-plan')).toContainText('your plan becomes Starter');
  await expect(page.getByTestId('usage-text')).toHaveText('0 / 500 queries used');
  await page.getByRole('button', { name: 'Keep the Professional plan' }).click();
  await expect(page.getByTestId('flash')).toContainText('downgrade was withdrawn');
  await expect(page.getByTestId('pending-plan')).toHaveCount(0);

  // Cancelled: nothing is offered but resuming.
  // Cancelling asks first, in the page: Escape keeps the subscription and gives the focus back.
  const cancel = page.getByRole('button', { name: 'Cancel at period end…' });
  await cancel.click();
  const confirmStep = page.getByTestId('confirm-step');
  await expect(confirmStep).toContainText('Nothing more is charged');
  await expect(confirmStep.getByRole('button', { name: 'Cancel at period end', exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirmStep).toHaveCount(0);
  await expect(cancel).toBeFocused();
  await cancel.click();
  await confirmStep.getByRole('button', { name: 'Cancel at period end', exact: true }).click();
  await expect(page.getByTestId('flash')).toContainText('will end at the end of the current period');
  await expect(page.getByText('Ends at period end')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Review plan change' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancel at period end' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Resume subscription' }).click();
  await expect(page.getByTestId('flash')).toContainText('renew as usual');
  await expect(page.getByRole('button', { name: 'Review plan change' })).toBeVisible();

  await page.getByLabel("New key's name (optional)").fill('staging server');
  await page.getByRole('button', { name: 'Create replacement key' }).click();
  await expect(page).toHaveURL(/\/account\/keys\/reveal\?handoff=/);
  const secondKey = (await page.getByTestId('api-key').textContent())!.trim();
  expect(secondKey).toMatch(/^alm_sk_test_/);
  expect(secondKey).not.toBe(firstKey);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: path.resolve('e2e/artifacts/screenshots/account-replacement-key.png'), fullPage: true });
  await page.reload();
  await expect(page).toHaveURL(/\/account\/keys\?flash=key_gone/);
  await expect(page.getByTestId('api-key')).toHaveCount(0);

  await page.goto(subscriptionUrl);
  const rows = page.getByRole('table', { name: /Keys for/ }).locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Active' })).toHaveCount(2);
  await expect(rows.first().getByTestId('key-name')).toHaveText('staging server');
  // The first key gets a name later; Created shows the time too.
  await rows
    .nth(1)
    .getByRole('link', { name: /^Rename key/ })
    .click();
  await page.getByLabel('Name', { exact: true }).fill('  production   server ');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page).toHaveURL(/\/account\/subscriptions\/sub_.*flash=key_renamed/);
  await expect(rows.nth(1).getByTestId('key-name')).toHaveText('production server');
  await expect(rows.nth(1)).toContainText(/\d{1,2}:\d{2} [AP]M UTC/);
  await expect(page.getByRole('table', { name: /Keys for/ })).not.toContainText(firstKey);
  await expect(page.getByRole('table', { name: /Keys for/ })).toContainText(firstKey.slice(0, 20));

  // The knowledge-base page no longer offers a second purchase (e2e/kb-page-subscriber.spec.ts), but a Buy form
  // left open in another tab still posts one: it leads to the existing subscription instead.
  await page.goto(`/knowledge-bases/${kbId}`);
  await expect(page.getByRole('region', { name: 'Plans' }).getByRole('button', { name: /^Buy / })).toHaveCount(0);
  const detail = await (await page.request.get(`/api/marketplace/knowledge-bases/${kbId}`)).json();
  const enterprise = detail.plans.find((p: { name: string }) => p.name === 'Enterprise').id as string;
  const stale = await page.request.post('/checkout/start', {
    form: { planId: enterprise },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(stale.status()).toBe(303);
  expect(stale.headers().location).toMatch(/\/account\/subscriptions\/sub_.*flash=already_subscribed/);
});

test('another buyer cannot see or act on a subscription; cross-site purchase posts are refused', async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const kbId = await firstKnowledgeBaseId(page);
  await verifiedBuyer(page);
  await buyStarter(page, kbId);
  const subscriptionUrl = page.url();

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await verifiedBuyer(otherPage);
  const res = await otherPage.goto(subscriptionUrl);
  expect(res?.status()).toBe(404);
  await other.close();

  const forged = await request.post('/checkout/start', {
    form: { planId: 'plan_anything' },
    headers: { Origin: 'https://evil.example' },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  expect((await forged.json()).error).toBe('forbidden');
});

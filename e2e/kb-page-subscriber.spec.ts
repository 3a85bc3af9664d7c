import { expect, test, type Locator } from '@playwright/test';
import path from 'node:path';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { signUp } from './support/auth';

/**
 * A subscriber comes back to the knowledge-base page: it names their plan and this period's usage, marks the plan
 * card as theirs instead of offering to buy it again, offers the other plans as upgrades or downgrades through the dashboard's
 * plan change (which really raises the cap), prefills Try it with a sample question, and once on the largest plan
 * offers nothing more.
 */
const screenshots = path.resolve('e2e/artifacts/screenshots');

interface Detail {
  id: string;
  plans: { id: string; name: string; queriesPerPeriod: number }[];
  sampleQuestions: string[];
}

function planCard(plans: Locator, name: string): Locator {
  return plans.getByRole('listitem').filter({ has: plans.page().getByRole('heading', { level: 3, name, exact: true }) });
}

test('a subscriber sees their plan and usage, upgrades from the knowledge-base page, and the cap rises', async ({ page, request }) => {
  test.setTimeout(120_000);
  const listing = await (await request.get('/api/marketplace/knowledge-bases?query=constitution&category=legal')).json();
  const kbId = listing.items.find((i: { title: string }) => i.title === 'U.S. Constitution Companion').id as string;
  const detail = (await (await request.get(`/api/marketplace/knowledge-bases/${kbId}`)).json()) as Detail;
  expect(detail.plans.map((p) => [p.name, p.queriesPerPeriod])).toEqual([
    ['Taster', 20],
    ['Starter', 100],
    ['Professional', 500],
    ['Enterprise', 2000],
  ]);
  const kbPath = `/knowledge-bases/${kbId}`;

  // Signed in without a subscription: every plan is for sale, as for anonymous visitors.
  await signUp(page, undefined, kbPath);
  await expect(page).toHaveURL(new RegExp(`${kbPath}$`));
  const plans = page.getByRole('region', { name: 'Plans' });
  await expect(plans.getByRole('button', { name: /^Buy / })).toHaveCount(3);
  await expect(page.getByTestId('subscription-standing')).toHaveCount(0);

  // Buy Starter through the built-in test checkout.
  await plans.getByRole('button', { name: /^Buy Starter/ }).click();
  await page.getByRole('button', { name: 'Complete test purchase' }).click();
  await expect(page).toHaveURL(/\/checkout\/success\?handoff=/);
  const apiKey = (await page.getByTestId('api-key').textContent())!.trim();

  // Back on the knowledge-base page: their plan, usage this period, the way to the subscription.
  await page.goto(kbPath);
  const standing = page.getByTestId('subscription-standing');
  await expect(standing.getByRole('heading', { level: 3 })).toHaveText('You are subscribed to the Starter plan');
  await expect(standing.getByTestId('usage-text')).toHaveText('0 / 100 queries used');
  await expect(standing).toContainText(/resets [A-Z][a-z]{2} \d{1,2}, \d{4}/);
  const manage = standing.getByRole('link', { name: 'Manage your subscription' });
  await expect(manage).toHaveAttribute('href', /^\/account\/subscriptions\/sub_/);
  const subscriptionPath = (await manage.getAttribute('href'))!;

  // Starter is theirs and cannot be bought again; the bigger plans are upgrades.
  const starter = planCard(plans, 'Starter');
  await expect(starter).toContainText('Your plan');
  await expect(starter).toContainText('You are on this plan');
  await expect(starter.getByRole('button')).toHaveCount(0);
  await expect(plans.getByRole('button', { name: /^Buy / })).toHaveCount(0);
  await expect(planCard(plans, 'Professional').getByRole('button')).toHaveText(/^Upgrade to Professional/);
  await expect(planCard(plans, 'Enterprise').getByRole('button')).toHaveText(/^Upgrade to Enterprise/);
  await expect(standing).toContainText('An upgrade takes effect at once');

  // Try it is ready with the first sample question.
  await expect(page.getByLabel('Your question')).toHaveValue(detail.sampleQuestions[0]!);
  await page.getByRole('region', { name: 'Try it' }).screenshot({ path: path.join(screenshots, 'kb-subscriber-try-it.png') });

  await expectNoSeriousA11yViolations(page, 'knowledge-base page, Starter subscriber');
  await page.screenshot({ path: path.join(screenshots, 'kb-subscriber-starter.png'), fullPage: true });
  await plans.screenshot({ path: path.join(screenshots, 'kb-subscriber-starter-plans.png') });

  // Upgrade with the keyboard: the dashboard's confirmation page (price, cap, charge), then the subscription page.
  const upgrade = planCard(plans, 'Enterprise').getByRole('button', { name: /^Upgrade to Enterprise plan for \$[\d,.]+ a month$/ });
  await upgrade.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Upgrade to Enterprise?');
  await expect(page.getByTestId('plan-change-charge')).toContainText('Test mode: no charge');
  await page.getByRole('button', { name: 'Confirm upgrade' }).click();
  await expect(page).toHaveURL(new RegExp(`${subscriptionPath}\\?flash=plan_changed$`));
  await expect(page.getByTestId('flash')).toContainText('Plan changed');
  await expect(page.getByText(/Enterprise plan/)).toBeVisible();
  await expect(page.getByTestId('usage-text')).toHaveText('0 / 2,000 queries used');

  // The dashboard shows the bigger cap, and the gateway enforces it.
  await page.goto('/account');
  const card = page.getByTestId('subscription-card').filter({ hasText: 'U.S. Constitution Companion' });
  await expect(card.getByTestId('usage-text')).toHaveText('0 / 2,000 queries used');
  const answered = await request.post(`/kb/${kbId}/query`, {
    headers: { Authorization: `Bearer ${apiKey}` },
    data: { query: 'How many senators does each state have?' },
  });
  expect(answered.status()).toBe(200);
  expect(answered.headers()['x-usage-cap']).toBe('2000');
  expect(answered.headers()['x-usage-used']).toBe('1');

  // On the largest plan: nothing to buy or upgrade; smaller plans are downgrades at the next renewal.
  await page.goto(kbPath);
  await expect(standing.getByRole('heading', { level: 3 })).toHaveText('You are subscribed to the Enterprise plan');
  await expect(standing.getByTestId('usage-text')).toHaveText('1 / 2,000 queries used');
  await expect(standing).toContainText('You are on the largest plan of this knowledge base.');
  await expect(planCard(plans, 'Enterprise')).toContainText('Your plan');
  await expect(plans.getByRole('button', { name: /^(Buy|Upgrade) / })).toHaveCount(0);
  for (const name of ['Starter', 'Professional']) {
    await expect(planCard(plans, name).getByRole('button')).toHaveText(new RegExp(`^Downgrade to ${name}`));
    await expect(planCard(plans, name)).not.toContainText('Your plan');
  }
  await expect(page.getByTestId('try-it-usage')).toContainText('1 of 2,000 used');
  await expectNoSeriousA11yViolations(page, 'knowledge-base page, Enterprise subscriber');
  await plans.screenshot({ path: path.join(screenshots, 'kb-subscriber-largest-plans.png') });
});

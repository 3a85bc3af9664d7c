import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { newAccount, signIn } from './support/auth';
import { listViaApi } from './support/pages';

/** Try before you buy, as a buyer meets it, at 1366 and 390 px (docs/api.md §10.6). */
const screenshots = path.resolve('e2e/artifacts/screenshots');

interface Detail {
  id: string;
  title: string;
  sampleQuestions: string[];
  plans: { name: string; priceCents: number }[];
}

async function detailOf(page: Page, title: string): Promise<Detail> {
  const { items } = await listViaApi(page.request, `query=${encodeURIComponent(title)}`);
  const item = items.find((i) => i.title === title);
  if (!item) throw new Error(`${title} is not in the seeded catalogue`);
  return (await (await page.request.get(`/api/marketplace/knowledge-bases/${item.id}`)).json()) as Detail;
}

test('free previews before buying: sample questions answer with sources, a daily allowance, Try-it beside the plans', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  // Its own knowledge base: the allowance is per address (every spec is 127.0.0.1) and per knowledge base.
  const kb = await detailOf(page, "GDPR Practitioner's Guide");
  expect(kb.plans[0]).toMatchObject({ name: 'Taster', priceCents: 0 });
  await page.goto(`/knowledge-bases/${kb.id}`);

  const tryIt = page.getByRole('region', { name: 'Try it' });
  const plans = page.getByRole('region', { name: 'Plans' });
  await expect(tryIt.getByTestId('try-it-usage')).toHaveText('Free preview, not counted against any plan: 3 of 3 questions left today.');
  await expect(plans.getByRole('button', { name: /^Get Taster plan, free$/ })).toBeVisible();
  // Side by side on a wide screen: Try-it starts level with the plans, to their right.
  const [plansBox, tryBox] = [await plans.boundingBox(), await tryIt.boundingBox()];
  expect(tryBox!.x).toBeGreaterThan(plansBox!.x + plansBox!.width - 1);
  expect(Math.abs(tryBox!.y - plansBox!.y)).toBeLessThan(40);

  // The documents it answers from, and the agent set-up folded away until asked for.
  const documents = page.getByRole('region', { name: /^Documents \(\d+\)$/ });
  await expect(documents.getByRole('columnheader')).toHaveText(['Title', 'Type', 'Pages', 'Updated']);
  expect(await documents.getByRole('row').count()).toBeGreaterThan(1);
  const setUp = page.locator('details', { hasText: 'Use it from your code or an AI agent' });
  await expect(setUp.getByLabel('curl example')).toBeHidden();
  await setUp.locator('summary').click();
  await expect(setUp.getByLabel('curl example')).toBeVisible();

  // A sample question asks itself: the answer, its sources, the allowance left.
  await tryIt.getByRole('button', { name: kb.sampleQuestions[0]!, exact: true }).click();
  const answer = tryIt.getByTestId('try-it-answer');
  await expect(answer).toBeVisible({ timeout: 30_000 });
  await expect(answer).toContainText(kb.sampleQuestions[0]!);
  await expect(answer.getByRole('heading', { name: 'Sources' })).toBeVisible();
  await expect(answer).toContainText('Free preview: 2 of 3 questions left today.');
  await page.screenshot({ path: path.join(screenshots, 'try-kb-page-1366.png'), fullPage: true });

  // By keyboard: focus the second sample question and press Enter.
  const second = tryIt.getByRole('button', { name: kb.sampleQuestions[1]!, exact: true });
  await second.focus();
  await page.keyboard.press('Enter');
  await expect(answer).toContainText(kb.sampleQuestions[1]!, { timeout: 30_000 });
  await expect(answer).toContainText('1 of 3 questions left today');

  // A question of one's own uses the last one; then the allowance is spent and says so.
  await tryIt.getByLabel('Your question').fill('What is a data protection impact assessment?');
  await tryIt.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(answer).toContainText('0 of 3 questions left today', { timeout: 30_000 });
  await tryIt.getByLabel('Your question').fill('Who is a data controller?');
  await tryIt.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(tryIt.getByRole('alert')).toContainText('You have asked your 3 free questions for today');
  await expect(tryIt.getByRole('button', { name: 'Ask', exact: true })).toBeDisabled();
  await page.reload();
  await expect(tryIt.getByTestId('try-it-usage')).toHaveText("You have used today's 3 free questions for this knowledge base.");
  await expectNoSeriousA11yViolations(page, 'knowledge-base page with free previews');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(screenshots, 'try-kb-page-390.png'), fullPage: true });

  // Shared on social sites, the page has a preview image of its own (Open Graph), drawn on the server.
  const ogImage = new URL((await page.locator('meta[property="og:image"]').getAttribute('content'))!);
  expect(ogImage.origin).toBe(new URL(page.url()).origin);
  expect(ogImage.pathname).toContain(`/knowledge-bases/${kb.id}/opengraph-image`);
  const image = await page.request.get(ogImage.pathname + ogImage.search);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/png');
  expect((await image.body()).length).toBeGreaterThan(10_000);
});

test('cards say what they sell; a search whose words never all match shows the closest; the sort select browses by keyboard', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/knowledge-bases');
  const firstCard = page.getByRole('list', { name: 'Knowledge bases' }).getByRole('article').first();
  await expect(firstCard.getByTestId('card-facts')).toHaveText(/^Free plan · from \$[\d.]+\/month · English · \d+ documents?$/);
  await page.screenshot({ path: path.join(screenshots, 'try-catalogue-1366.png') });

  // "Sort by" with the arrow keys moves the choice without reloading; Enter applies it.
  const sort = page.getByLabel('Sort by');
  await sort.focus();
  await page.keyboard.press('ArrowDown');
  await page.waitForTimeout(500);
  await expect(page).toHaveURL(/\/knowledge-bases$/);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/sort=/);

  // No listing holds every word: the ones holding most of them, said plainly.
  await page.goto('/knowledge-bases?query=diabetes%20zqxwv');
  await expect(page.getByTestId('some-words')).toContainText('No knowledge base matches every word of “diabetes zqxwv”');
  await expect(page.getByRole('list', { name: 'Knowledge bases' }).getByRole('article').first()).toContainText(/Diabetes/);

  // On a phone the first result starts above the fold; the tags past the first five wait under "More tags".
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/knowledge-bases');
  const firstOnPhone = page.getByRole('list', { name: 'Knowledge bases' }).getByRole('article').first();
  expect((await firstOnPhone.getByRole('heading').boundingBox())!.y).toBeLessThan(844);
  await page.screenshot({ path: path.join(screenshots, 'try-catalogue-390.png') });
});

test('a publisher page has a social preview image of its own, in the colour of its mark', async ({ page }) => {
  await page.goto('/knowledge-bases');
  const firstCard = page.getByRole('list', { name: 'Knowledge bases' }).getByRole('article').first();
  const publisherLink = firstCard.locator('a[href^="/publishers/"]');
  const slug = decodeURIComponent((await publisherLink.getAttribute('href'))!.replace('/publishers/', ''));
  await page.goto(`/publishers/${encodeURIComponent(slug)}`);
  const ogImage = new URL((await page.locator('meta[property="og:image"]').getAttribute('content'))!);
  expect(ogImage.origin).toBe(new URL(page.url()).origin);
  expect(ogImage.pathname).toContain(`/publishers/${slug}/opengraph-image`);
  const image = await page.request.get(ogImage.pathname + ogImage.search);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/png');
  expect((await image.body()).length).toBeGreaterThan(10_000);
});

test('an unconfirmed account sees the banner with Resend; settings errors sit beside the form that failed', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  const account = newAccount();
  await page.goto('/signup');
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Check your inbox')).toBeVisible();
  await signIn(page, account, '/knowledge-bases');

  // Before any Buy fails: the banner, on every page, with the resend button.
  const banner = page.getByTestId('verify-email-banner');
  await expect(banner).toContainText(`Confirm your email address to buy plans and create API keys: open the link we sent to ${account.email}.`);
  await banner.getByRole('button', { name: 'Resend the link' }).click();
  await expect(page).toHaveURL(/\/account\/settings\?done=verification_sent/);
  await expect(page.getByRole('region', { name: 'Email address' }).getByTestId('email-message')).toContainText('We sent a new verification link');

  // A wrong current password: the message is inside the password form the page scrolls to.
  const passwordForm = page.getByRole('region', { name: 'Change password' });
  await passwordForm.getByLabel('Current password').fill('not my password at all');
  await passwordForm.getByLabel('New password', { exact: true }).fill('another long password 123');
  await passwordForm.getByRole('button', { name: 'Save new password' }).click();
  const passwordMessage = page.getByRole('region', { name: 'Change password' }).getByTestId('password-message');
  await expect(passwordMessage).toHaveText('That is not your current password. Nothing was changed.');
  await expect(passwordMessage).toBeInViewport();

  // Delete account with the right address and a wrong password: the address stays, the message is beside it.
  const deleteForm = page.getByRole('region', { name: 'Delete account' });
  await deleteForm.getByLabel('Type your email address to confirm').fill(account.email);
  await deleteForm.getByLabel('Password', { exact: true }).fill('wrong password here');
  await deleteForm.getByRole('button', { name: 'Delete my account' }).click();
  const deleteMessage = page.getByRole('region', { name: 'Delete account' }).getByTestId('delete-message');
  await expect(deleteMessage).toHaveText('That is not your password. Nothing was deleted.');
  await expect(deleteMessage).toBeInViewport();
  await expect(page.getByRole('region', { name: 'Delete account' }).getByLabel('Type your email address to confirm')).toHaveValue(account.email);
  await page.screenshot({ path: path.join(screenshots, 'try-settings-error-1366.png') });
});

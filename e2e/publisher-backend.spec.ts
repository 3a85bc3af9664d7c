import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { signUpOverHttp } from './support/auth';
import { draftListingOverHttp } from './support/publisher';
import { snapAtBothWidths } from './support/screenshots';

/**
 * The own-endpoint backend form: the browser generates both secrets, a refused save keeps them
 * (and the URL as typed) so nothing is invented or retyped twice, and the page says to save before a test. Keyboard
 * only once the form is open. Then the draft is deleted through the one in-page confirmation.
 */

async function newDraftListing(page: Page): Promise<string> {
  const suffix = Date.now().toString(36);
  await signUpOverHttp(page.request);
  return draftListingOverHttp(page.request, {
    publisher: `Own Endpoint ${suffix}`,
    slug: `own-endpoint-${suffix}`,
    title: `Tide tables ${suffix}`,
    summary: 'High and low water for the east coast harbours.',
  });
}

test('generated endpoint secrets survive a refused save, a test asks for a save first, and the draft is deleted after an in-page confirmation', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const kbId = await newDraftListing(page);
  await page.goto(`/publish/listings/${kbId}/content`);
  await page.waitForLoadState('networkidle');

  const disclosure = page.getByText('Answer from your own endpoint instead');
  await disclosure.focus();
  await page.keyboard.press('Enter');
  const url = page.getByLabel('Endpoint URL');
  const infraKey = page.getByLabel('Infrastructure key');
  const signingSecret = page.getByLabel('Signing secret');
  await expect(url).toBeVisible();
  // Before anything is saved there is nothing to test: the page says so instead of failing a call.
  await expect(page.getByTestId('save-backend-first')).toContainText('save it with its two secrets first');
  await expect(page.getByRole('button', { name: 'Send a test query' })).toHaveCount(0);

  // Both secrets are generated, long enough, shown in clear (to be copied) and different on each page load.
  await expect(infraKey).toHaveValue(/^infra_[0-9A-Za-z]{32}$/);
  await expect(signingSecret).toHaveValue(/^whsec_[0-9A-Za-z]{40}$/);
  await expect(infraKey).toHaveAttribute('type', 'text');
  const generated = { infraKey: await infraKey.inputValue(), signingSecret: await signingSecret.inputValue() };

  // A refused save (plain http): the message sits under the URL, the URL is kept as typed, the secrets are unchanged.
  await url.focus();
  await page.keyboard.type('http://tides.example/almanac');
  await page.keyboard.press('Enter');
  const urlError = page.locator('#field-endpointUrl-error');
  await expect(urlError).toBeVisible();
  await expect(url).toHaveValue('http://tides.example/almanac');
  await expect(infraKey).toHaveValue(generated.infraKey);
  await expect(signingSecret).toHaveValue(generated.signingSecret);
  await expect(page.getByTestId('save-backend-first')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'backend form after a refused save');
  await snapAtBothWidths(page, 'publish-backend-refused');

  // A secret the publisher shortened is refused under its own field and kept as typed, beside the other one.
  await infraKey.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('too-short');
  await page.keyboard.press('Enter');
  await expect(page.locator('#field-infraKey-error')).toContainText('at least 16 characters');
  await expect(infraKey).toHaveValue('too-short');
  await expect(signingSecret).toHaveValue(generated.signingSecret);

  // "Generate new secrets" replaces both, in clear, and a reload generates others (nothing was stored).
  await page.getByRole('button', { name: 'Generate new secrets' }).focus();
  await page.keyboard.press('Enter');
  await expect(infraKey).toHaveValue(/^infra_[0-9A-Za-z]{32}$/);
  await expect(signingSecret).not.toHaveValue(generated.signingSecret);
  await page.reload();
  await page.waitForLoadState('networkidle');
  await page.getByText('Answer from your own endpoint instead').click();
  await expect(page.getByLabel('Signing secret')).toHaveValue(/^whsec_[0-9A-Za-z]{40}$/);
  await expect(page.getByLabel('Signing secret')).not.toHaveValue(generated.signingSecret);

  // The draft goes the way every delete goes: asked in the page, Escape keeps it, the confirmation deletes it.
  await page.goto(`/publish/listings/${kbId}`);
  await page.waitForLoadState('networkidle');
  const opener = page.getByRole('button', { name: 'Delete draft…' });
  await opener.focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByTestId('confirm-step');
  await expect(confirm).toContainText('with its plans and documents? This cannot be undone.');
  await expect(confirm.getByRole('button', { name: 'Delete draft', exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(opener).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('flash')).toContainText('The draft listing was deleted, with its plans and documents.');
  expect((await page.goto(`/publish/listings/${kbId}`))?.status()).toBe(404);
});

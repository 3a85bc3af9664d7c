import { expect, test } from '@playwright/test';
import { subscribeThroughCli, verifiedBuyer } from './support/buyer';
import { listViaApi } from './support/pages';

/**
 * A buyer's usage-alert webhook on the subscription page (docs/api.md §11.4): save, see the secret once, replace with a
 * bad URL, remove. Saving contacts nothing, so a public address literal is enough (this machine resolves no names).
 */
const HOOK = 'https://93.184.216.34/almanac-hook';

test('the webhook section always shows the webhook as it stands, and the secret only while it is that webhook', async ({ page, request }) => {
  const kb = (await listViaApi(request, 'query=constitution')).items[0]!;
  const email = await verifiedBuyer(page);
  const subscriptionId = subscribeThroughCli(email, kb.id);
  await page.goto(`/account/subscriptions/${subscriptionId}`);
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'Usage alerts' }) });

  await section.getByLabel('Webhook URL').fill(HOOK);
  await section.getByRole('button', { name: 'Save webhook' }).click();
  await expect(section.getByText('Copy the signing secret now')).toBeVisible();
  await expect(section.locator('code', { hasText: /^whsec_/ })).toBeVisible();
  // The page knows the webhook at once: where it sends, a test event, removal, and a replacement form.
  await expect(section.getByText(`Sending to ${HOOK}`)).toBeVisible();
  await expect(section.getByRole('button', { name: 'Remove webhook' })).toBeVisible();

  // A refused replacement keeps what was typed, says why, and leaves the saved webhook on show.
  const replace = section.getByLabel('Replace the webhook URL (a new secret is made)');
  await replace.fill('ftp://93.184.216.34/x');
  await section.getByRole('button', { name: 'Save URL and new secret' }).click();
  await expect(section.getByText(/must use https/)).toBeVisible();
  await expect(replace).toHaveValue('ftp://93.184.216.34/x');
  await expect(section.getByText(`Sending to ${HOOK}`)).toBeVisible();
  await expect(section.locator('code', { hasText: /^whsec_/ })).toHaveCount(0);

  // Removing it leaves the removal notice alone: no secret of a webhook that no longer exists.
  await section.getByRole('button', { name: 'Remove webhook' }).click();
  await expect(section.getByText('The webhook was removed; alerts still come by email.')).toBeVisible();
  await expect(section.getByText('Copy the signing secret now')).toHaveCount(0);
  await expect(section.getByText(/Sending to/)).toHaveCount(0);

  // Saved again from the same address (still ?alerts=removed): the removal notice goes.
  await section.getByLabel('Webhook URL').fill(HOOK);
  await section.getByRole('button', { name: 'Save webhook' }).click();
  await expect(section.getByText('Copy the signing secret now')).toBeVisible();
  await expect(section.getByText('The webhook was removed; alerts still come by email.')).toHaveCount(0);
});

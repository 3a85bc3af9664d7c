import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { signInOverHttp, signUpOverHttp } from './support/auth';
import { snapAtBothWidths } from './support/screenshots';

/**
 * The operator's page: suspend a listing with a reason, see it recorded, restore it. It runs in the
 * "alone" project (playwright.config.ts): a suspended listing leaves the catalogue, which specs running beside it
 * would see.
 */

test('the operator suspends and restores a listing on /admin/listings', async ({ page }) => {
  test.setTimeout(180_000);
  // ADMIN_EMAILS is operator@example.test on the e2e server; an earlier run on the same server may have made the
  // account already. Over HTTP: marketplace-accounts.spec.ts drives the sign-in and sign-up pages.
  const operator = { email: 'operator@example.test', password: 'e2e password that is long', name: 'Operator' };
  if (!(await signInOverHttp(page.request, operator))) await signUpOverHttp(page.request, operator);
  await page.goto('/admin/listings');
  await expect(page.getByRole('heading', { level: 1, name: 'Listings and publishers' })).toBeVisible();
  const firstListing = page
    .getByRole('list', { name: /^Listings of / })
    .first()
    .getByRole('listitem')
    .first();
  await firstListing.getByLabel(/Reason/).fill('Reported as misleading');
  await firstListing.getByRole('button', { name: 'Suspend listing' }).click();
  await expect(page.getByTestId('flash')).toContainText('Suspended');
  const suspended = page.getByRole('listitem').filter({ hasText: 'Reason: Reported as misleading' }).first();
  await expect(suspended).toContainText('Suspended');
  await expectNoSeriousA11yViolations(page, 'admin listings');
  await snapAtBothWidths(page, 'admin-listings');
  await suspended.getByRole('button', { name: 'Restore listing' }).click();
  await expect(page.getByTestId('flash')).toContainText('Restored');
});

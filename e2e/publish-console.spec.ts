import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { newAccount, signUp } from './support/auth';

/**
 * The publisher console's own journey (issue 15): a new account follows "Publish" from the header, becomes a
 * publisher and creates a listing with the keyboard alone, adds a free and a paid plan, publishes, and the listing
 * is in the catalogue. Every console page is scanned with axe and photographed at 1366 and 390 px (no sideways
 * scroll on a phone).
 */

const shots = 'e2e/artifacts/screenshots';

async function snap(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: `${shots}/${name}-1366.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // The layout must have followed the new width before the full-page capture.
  await page.waitForFunction(() => window.innerWidth === 390 && document.documentElement.clientWidth <= 390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${shots}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** Presses Tab until `target` has the focus (the keyboard's way to a field), failing after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

async function typeInto(page: Page, target: Locator, text: string): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

test('a new account becomes a publisher, lists, prices and publishes a knowledge base (keyboard only up to the draft)', async ({ page }) => {
  // Long on a loaded two-core machine: every step is a server round trip, and several scans and screenshots.
  test.setTimeout(360_000);
  const account = await signUp(page, newAccount(), '/');
  const suffix = Date.now().toString(36);

  // The header's Publish leads to the console; an account without a profile is offered one.
  await page.goto('/');
  await tabTo(page, page.getByRole('banner').getByRole('link', { name: 'Publish', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/publish$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Become a publisher' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expectNoSeriousA11yViolations(page, 'become a publisher');
  await snap(page, 'publish-become');

  // A mistake is explained under its field, by keyboard.
  await typeInto(page, page.getByLabel('Publisher name'), `Fenland Survey ${suffix}`);
  await typeInto(page, page.getByLabel('Public address'), 'Not A Slug!');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Use lower-case letters, digits and single hyphens')).toBeVisible();
  await typeInto(page, page.getByLabel('Public address'), `fenland-${suffix}`);
  await typeInto(page, page.getByLabel('Short bio (optional)'), 'Field guides to the fens.');
  await tabTo(page, page.getByRole('button', { name: 'Create publisher profile' }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('flash')).toContainText('Your publisher profile is ready');
  await expect(page.getByRole('heading', { level: 1, name: 'Your listings' })).toBeVisible();
  // What was typed before the refused submission was kept, not reset.
  await expect(page.getByText(`Publishing as Fenland Survey ${suffix}`)).toBeVisible();
  await snap(page, 'publish-overview-empty');

  // A listing, by keyboard, watching the live preview.
  await tabTo(page, page.getByRole('link', { name: 'New listing' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/publish\/listings\/new$/);
  await page.waitForLoadState('networkidle');
  const title = `Fen birds ${suffix}`;
  await typeInto(page, page.getByLabel('Title'), title);
  await typeInto(page, page.getByLabel('Summary'), 'Which birds breed in the fens, when, and where to hear them.');
  await typeInto(page, page.getByLabel('Description'), '## Seasons\n\nBitterns **boom** in spring. <img src=x onerror=alert(1)>\n\n- Marsh harrier\n- Bearded tit');
  await tabTo(page, page.locator('#field-category'));
  await page.keyboard.press('ArrowDown'); // education
  await page.keyboard.press('ArrowDown'); // policy
  await page.keyboard.press('ArrowDown'); // health
  await page.keyboard.press('ArrowDown'); // research
  await typeInto(page, page.locator('#field-tags'), 'Birds, Fens , birds');
  await typeInto(page, page.getByLabel('Sample questions'), 'When do bitterns boom?\nWhere do marsh harriers nest?');
  const preview = page.getByRole('complementary', { name: 'Preview' });
  await expect(preview.getByRole('heading', { name: title })).toBeVisible();
  await expect(preview.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText(['birds', 'fens']);
  await expect(preview.locator('strong', { hasText: 'boom' })).toBeVisible();
  await expect(preview.locator('img')).toHaveCount(0); // raw HTML in the Markdown is not rendered
  await expectNoSeriousA11yViolations(page, 'new listing');
  await snap(page, 'publish-listing-new');
  await tabTo(page, page.getByRole('button', { name: 'Create draft' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/publish\/listings\/kb_[0-9A-Za-z]+\?flash=listing_created/, { timeout: 60_000 });
  const kbId = /\/publish\/listings\/(kb_[0-9A-Za-z]+)/.exec(page.url())![1]!;
  await expect(page.getByText('Draft', { exact: true }).first()).toBeVisible();

  // Publishing without a plan is refused with the reason.
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByTestId('flash')).toContainText('Add at least one plan before publishing');
  await expectNoSeriousA11yViolations(page, 'listing editor');
  await snap(page, 'publish-listing-editor');

  // A free plan (its cap is checked) and a paid one.
  await page.getByRole('navigation', { name: 'This listing' }).getByRole('link', { name: 'Plans' }).click();
  await expect(page).toHaveURL(new RegExp(`/publish/listings/${kbId}/plans$`));
  await page.waitForLoadState('networkidle');
  const add = page.locator('section', { has: page.getByRole('heading', { name: 'Add a plan' }) });
  await add.getByLabel('Plan name').fill('Free');
  await add.getByLabel('Monthly price').fill('0');
  await add.getByLabel('Queries per month').fill('500');
  await add.getByRole('button', { name: 'Add plan' }).click();
  await expect(add.getByText('A free plan allows at most 100 queries a month.')).toBeVisible();
  await add.getByLabel('Queries per month').fill('50');
  await add.getByRole('button', { name: 'Add plan' }).click();
  await expect(page.getByTestId('flash')).toContainText('Plan added');
  await add.getByLabel('Plan name').fill('Ringer');
  await add.getByLabel('Monthly price').fill('12.50');
  await add.getByLabel('Queries per month').fill('400');
  await add.getByRole('button', { name: 'Add plan' }).click();
  await expect(page.getByTestId('flash')).toContainText('Plan added');
  const forSale = page.locator('section', { has: page.getByRole('heading', { name: /For sale/ }) });
  await expect(forSale.getByRole('heading', { level: 3 })).toHaveText(['Free', 'Ringer']);
  await expect(forSale).toContainText('$12.50 a month');
  await expectNoSeriousA11yViolations(page, 'plans');
  await snap(page, 'publish-plans');

  // Publish: it is in the catalogue, with both plans for sale.
  await page.getByRole('navigation', { name: 'This listing' }).getByRole('link', { name: 'Listing' }).click();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByTestId('flash')).toContainText('Published');
  await page.goto(`/knowledge-bases?query=${encodeURIComponent(title)}`);
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  await page.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Seasons' })).toBeVisible();
  await expect(page.getByText('Ringer').first()).toBeVisible();

  // The overview and the profile.
  await page.goto('/publish');
  await expect(page.getByRole('list', { name: 'Your listings' })).toContainText('Published');
  await expectNoSeriousA11yViolations(page, 'overview');
  await snap(page, 'publish-overview');
  await page.getByRole('navigation', { name: 'Publisher console' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByLabel('Contact email for the operator')).toHaveValue(account.email);
  await expectNoSeriousA11yViolations(page, 'profile');
  await snap(page, 'publish-profile');

  // The public publisher page shows the profile and the published listing.
  await page.goto(`/publishers/fenland-${suffix}`);
  await expect(page.getByText('Field guides to the fens.')).toBeVisible();
  await expect(page.getByRole('link', { name: title })).toBeVisible();
});

test('signed out, Publish leads through sign-in to the console', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Publish', exact: true }).click();
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fpublish/);
});

test('the operator suspends and restores a listing on /admin/listings', async ({ page }) => {
  test.setTimeout(180_000);
  // ADMIN_EMAILS is operator@example.test on the e2e server; another spec may have made the account already.
  const operator = { email: 'operator@example.test', password: 'e2e password that is long', name: 'Operator' };
  await page.goto('/signin?callbackUrl=%2Fadmin%2Flistings');
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const signedIn = await page
    .getByRole('banner')
    .getByText(operator.email)
    .waitFor({ timeout: 5_000 })
    .then(() => true, () => false);
  if (!signedIn) await signUp(page, operator, '/admin/listings');
  await page.goto('/admin/listings');
  await expect(page.getByRole('heading', { level: 1, name: 'Listings and publishers' })).toBeVisible();
  const firstListing = page.getByRole('list', { name: /^Listings of / }).first().getByRole('listitem').first();
  await firstListing.getByLabel(/Reason/).fill('Reported as misleading');
  await firstListing.getByRole('button', { name: 'Suspend listing' }).click();
  await expect(page.getByTestId('flash')).toContainText('Suspended');
  const suspended = page.getByRole('listitem').filter({ hasText: 'Reason: Reported as misleading' }).first();
  await expect(suspended).toContainText('Suspended');
  await expectNoSeriousA11yViolations(page, 'admin listings');
  await snap(page, 'admin-listings');
  await suspended.getByRole('button', { name: 'Restore listing' }).click();
  await expect(page.getByTestId('flash')).toContainText('Restored');
});

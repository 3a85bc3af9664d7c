import { expect, test } from '@playwright/test';
import { signUpOverHttp } from './support/auth';
import { publisherProfileOverHttp } from './support/publisher';

/**
 * The listing editor's messages: a refused save puts each message under its field; a message goes
 * as soon as its field is fixed, stays (or comes back) while the field is still wrong, and the summary at the top
 * counts the fields left. Keyboard only once the form is open.
 */
test('a listing-form error clears once its field is fixed, and only then', async ({ page }) => {
  test.setTimeout(120_000);
  await signUpOverHttp(page.request);
  const suffix = Date.now().toString(36);
  await publisherProfileOverHttp(page.request, { name: `Form Errors ${suffix}`, slug: `form-errors-${suffix}` });

  await page.goto('/publish/listings/new');
  await page.waitForLoadState('networkidle');
  const title = page.getByLabel('Title');
  const summary = page.getByLabel('Summary');
  const category = page.locator('#field-category');
  const titleError = page.locator('#field-title-error');
  const summaryError = page.locator('#field-summary-error');
  const categoryError = page.locator('#field-category-error');
  const banner = page.getByRole('alert').filter({ hasText: 'Nothing was saved' });

  // Save the empty form: three messages, each under its field, and a summary of them.
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(titleError).toBeVisible();
  await expect(summaryError).toBeVisible();
  await expect(categoryError).toHaveText('Choose a category.');
  await expect(banner).toContainText('correct the 3 fields');
  await expect(title).toHaveAttribute('aria-invalid', 'true');

  // Still too short: the title's message stays. Long enough: it goes, and the summary counts two fields.
  await title.focus();
  await page.keyboard.type('Fe');
  await expect(titleError).toBeVisible();
  await page.keyboard.type('n birds');
  await expect(titleError).toHaveCount(0);
  await expect(title).not.toHaveAttribute('aria-invalid', 'true');
  await expect(banner).toContainText('correct the 2 fields');
  // Broken again (emptied): the message comes back.
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await expect(titleError).toBeVisible();
  await page.keyboard.type('Fen birds');
  await expect(titleError).toHaveCount(0);

  // The category, by keyboard; then the summary. No message is left, and nothing else was cleared.
  await category.focus();
  await page.keyboard.press('ArrowDown');
  await expect(categoryError).toHaveCount(0);
  await summary.focus();
  await page.keyboard.type('Which birds breed in the fens.');
  await expect(summaryError).toHaveCount(0);
  await expect(banner).toHaveCount(0);
  await expect(title).toHaveValue('Fen birds');

  // The fixed form saves.
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page).toHaveURL(/\/publish\/listings\/(?!new)[^/?]+/);
});

import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { listViaApi } from './support/pages';

/**
 * Catalogue search that finds on the seeded catalogue: a search typed with a typo offers "Did you
 * mean", whose link gives the corrected search in relevance order; the category and tag counts follow the search;
 * "Skip to results" takes a keyboard user past the filters; all of it without JavaScript too. axe-clean (scanned with
 * JavaScript on: axe runs in the page); screenshots
 * at 1366 and 390 px in e2e/artifacts/screenshots/.
 */

const SCREENSHOTS = path.resolve('e2e/artifacts/screenshots');
const searchbox = (page: Page) => page.getByRole('searchbox', { name: 'Search knowledge bases' });
const cardTitles = (page: Page) => page.getByRole('list', { name: 'Knowledge bases' }).getByRole('heading', { level: 3 });
const categories = (page: Page) => page.getByRole('navigation', { name: 'Categories' });
const allCount = async (page: Page) => Number((await categories(page).getByRole('link', { name: /^All/ }).innerText()).replace(/\D/g, ''));

test('a typo is corrected: "Did you mean" leads to the search in relevance order; counts follow the search', async ({ page, request }) => {
  test.slow(); // two axe scans
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/knowledge-bases');
  const everything = await allCount(page);

  await searchbox(page).fill('constituton');
  await searchbox(page).press('Enter');
  await expect(page).toHaveURL(/query=constituton/);
  const didYouMean = page.getByRole('link', { name: 'constitution', exact: true });
  await expect(didYouMean).toBeVisible();
  await expect(page.getByText('Nothing matches “constituton”, so these are the results for “constitution”.')).toBeVisible();
  await expect(cardTitles(page).first()).toHaveText('U.S. Constitution Companion');
  await expectNoSeriousA11yViolations(page, 'typo corrected');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'catalogue-search-typo-1366.png'), fullPage: true });

  await didYouMean.click();
  await expect(page).toHaveURL(/query=constitution(&|$)/);
  await expect(page.getByRole('link', { name: 'constitution', exact: true })).toHaveCount(0);
  const relevance = await listViaApi(request, 'query=constitution&sort=relevance');
  await expect(cardTitles(page)).toHaveText(relevance.items.map((i) => i.title));
  await expect(cardTitles(page).first()).toHaveText('U.S. Constitution Companion');
  await expect(page.getByLabel('Sort by')).toHaveValue('relevance');

  // Facets: the "All" tab counts this search's results, not the catalogue; tags are the results' tags with counts.
  expect(await allCount(page)).toBe(relevance.total);
  expect(relevance.total).toBeLessThan(everything);
  const tags = page.getByRole('navigation', { name: /Filter by tags/ });
  const firstTag = tags.getByRole('link').first();
  const name = (await firstTag.getAttribute('href'))!;
  const tag = new URL(name, 'http://x').searchParams.get('tags')!;
  const withTag = await listViaApi(request, `query=constitution&tags=${tag}`);
  await expect(firstTag).toHaveAccessibleName(`${tag} (${withTag.total} knowledge base${withTag.total === 1 ? '' : 's'})`);
  await firstTag.click();
  await expect(page).toHaveURL(new RegExp(`tags=${tag}`));
  await page.waitForLoadState('load');
  expect(await allCount(page)).toBe(withTag.total);
  await expectNoSeriousA11yViolations(page, 'search with a tag');
});

test('"Skip to results" takes the keyboard past the filters to the first result', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/knowledge-bases?query=constitution');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to results' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  // Five key presses from the top of the page to the first result.
  await expect(page.getByRole('list', { name: 'Knowledge bases' }).getByRole('link').first()).toBeFocused();
});

test('the language filter: labelled, keyboard-operable, in the URL, kept by the other filters (issue 32)', async ({ page, request }) => {
  test.slow(); // an axe scan
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/knowledge-bases');
  await page.waitForLoadState('networkidle');
  const language = page.getByLabel('Language', { exact: true });
  const spanish = await listViaApi(request, 'language=es');
  expect(spanish.total).toBeGreaterThan(0);
  await expect(language.locator('option', { hasText: 'Spanish' })).toHaveText(`Spanish (${spanish.total})`);

  await language.selectOption('es');
  await expect(page).toHaveURL(/[?&]language=es(&|$)/);
  await expect(cardTitles(page)).toHaveText(spanish.items.map((i) => i.title));
  await expect(page.getByRole('status').filter({ hasText: 'written in Spanish' })).toBeVisible();
  for (const facts of await page.getByTestId('card-facts').allInnerTexts()) expect(facts).toContain('Spanish');
  // The other filters keep the language: a category tab's link, the search form.
  await expect(categories(page).getByRole('link', { name: /^All/ })).toHaveAttribute('href', /language=es/);
  await expectNoSeriousA11yViolations(page, 'language filter');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'catalogue-language-1366.png'), fullPage: true });

  // Arrow keys only move the choice (no reload per step); Enter applies it.
  await language.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  const url = page.url();
  await page.waitForTimeout(300);
  expect(page.url()).toBe(url);
  const chosen = await language.inputValue();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]language=${chosen}(&|$)`));
  await expect(page.getByLabel('Language', { exact: true })).toHaveValue(chosen);

  // "Clear filters" clears the language too; a phone shows the control without sideways scrolling.
  await page.getByRole('link', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/knowledge-bases$/);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/knowledge-bases?language=fr');
  await expect(page.getByLabel('Language', { exact: true })).toHaveValue('fr');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'catalogue-language-390.png'), fullPage: true });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('search, "Did you mean", sort and tags are plain GET forms and links', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/knowledge-bases');
    await searchbox(page).fill('constituton');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/query=constituton/);
    await expect(cardTitles(page).first()).toHaveText('U.S. Constitution Companion');
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'catalogue-search-typo-390.png'), fullPage: true });

    await page.getByRole('link', { name: 'constitution', exact: true }).click();
    await expect(page).toHaveURL(/query=constitution(&|$)/);
    await page.getByLabel('Sort by').selectOption('new');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(page).toHaveURL(/sort=new/);
    await expect(page).toHaveURL(/query=constitution/);
    await page
      .getByRole('navigation', { name: /Filter by tags/ })
      .getByRole('link')
      .first()
      .click();
    await expect(page).toHaveURL(/tags=/);
    await expect(page).toHaveURL(/sort=new/);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'catalogue-search-390.png'), fullPage: true });
  });
});

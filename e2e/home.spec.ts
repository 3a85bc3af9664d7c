import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { listViaApi } from './support/pages';
import { snapAtBothWidths } from './support/screenshots';

/**
 * The home page, by keyboard at 1366 and 390 px: the hero's search lands on the catalogue's
 * results, each category card leads to its tab with the count it showed, and the most popular listings are the
 * catalogue's first six, each a link to its page.
 */

async function tabTo(page: Page, name: string | RegExp, role: 'link' | 'searchbox' = 'link', max = 80): Promise<void> {
  const target = page.getByRole('main').getByRole(role, { name }).first();
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${String(name)}`);
}

for (const viewport of [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`home at ${viewport.width} px: search, categories and the most popular listings by keyboard`, async ({ page, request }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    const api = await listViaApi(request);
    await page.goto('/');
    await expect(page).toHaveTitle('Almanac — knowledge bases with a query API');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Answers your product can cite, from sources you can trust.');
    const popular = page.getByRole('region', { name: 'Most popular' });
    await expect(popular.getByRole('heading', { level: 3 })).toHaveText(api.items.slice(0, 6).map((i) => i.title));
    if (viewport.width === 1366) {
      await expectNoSeriousA11yViolations(page, 'home');
      await snapAtBothWidths(page, 'home');
      await page.setViewportSize(viewport);
    }

    // The hero's search, by keyboard: Enter sends it to the catalogue.
    await tabTo(page, 'Search knowledge bases', 'searchbox');
    await page.keyboard.type('diabetes');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/knowledge-bases\?(.*&)?query=diabetes(&|$)/);
    await expect(page.getByRole('list', { name: 'Knowledge bases' }).getByRole('heading', { level: 3 }).first()).toContainText(/Diabetes/);

    // A category card says how many it holds, and its tab agrees.
    await page.goto('/');
    const health = page.getByRole('region', { name: 'Browse by category' }).getByRole('link', { name: /^Health/ });
    const count = /(\d+) knowledge bases?/.exec((await health.textContent())!)![1]!;
    await tabTo(page, /^Health/);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/knowledge-bases\?(.*&)?category=health(&|$)/);
    await expect(page.getByText(new RegExp(`^${count} knowledge bases`)).first()).toBeVisible();

    // The first popular listing opens its page.
    await page.goto('/');
    await tabTo(page, api.items[0]!.title);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/knowledge-bases/${api.items[0]!.id}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(api.items[0]!.title);
  });
}

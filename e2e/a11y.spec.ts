import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signUpOverHttp } from './support/auth';
import { MAIN_PAGES, type MainPage } from './support/pages';

/**
 * axe-core on every main page (WCAG 2.0/2.1 A and AA rules): no serious or critical violations. Each page is also
 * saved as a full-page screenshot under e2e/artifacts/screenshots/ for review.
 */
const SCREENSHOTS = path.resolve('e2e/artifacts/screenshots');
mkdirSync(SCREENSHOTS, { recursive: true });

async function scan(page: Page, mainPage: MainPage, target: string): Promise<void> {
  await page.goto(target);
  await expect(page.locator('main#main')).toBeVisible();
  // Every page names itself and has exactly one top-level heading.
  await expect(page).toHaveTitle(/Almanac/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);

  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = blocking.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`);
  expect(summary, `axe violations on ${target}`).toEqual([]);

  await page.screenshot({ path: path.join(SCREENSHOTS, `${mainPage.name}.png`), fullPage: true });
}

for (const mainPage of MAIN_PAGES.filter((p) => !p.signedIn)) {
  test(`${mainPage.name}: no serious or critical accessibility violations`, async ({ page, request }) => {
    await scan(page, mainPage, await mainPage.path(request));
  });
}

// One fresh buyer for all the signed-in pages: a sign-up includes the confirmation email's round trip. Made over HTTP:
// the sign-up pages are scanned above.
test('the signed-in pages: no serious or critical accessibility violations', async ({ page, request }) => {
  await signUpOverHttp(page.request);
  for (const mainPage of MAIN_PAGES.filter((p) => p.signedIn)) {
    await test.step(mainPage.name, () => mainPage.path(request).then((target) => scan(page, mainPage, target)));
  }
});

test('focus is visible on keyboard navigation', async ({ page }) => {
  await page.goto('/knowledge-bases');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
  expect(outline).not.toBe('none');
});

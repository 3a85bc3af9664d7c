import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { signUpOverHttp } from './support/auth';
import { firstKnowledgeBase } from './support/pages';

/**
 * The site header: one row at 390 px and at 1366 px on every kind of page. On a phone its links and
 * account actions sit behind a "Menu" disclosure button (aria-expanded) that the keyboard opens, walks and closes
 * with Escape; from 768 px up they are in the row itself and there is no menu button.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

/** The header's height and whether the logo and the last control of the row share one line. */
async function headerRow(page: Page): Promise<{ height: number; oneRow: boolean }> {
  return page.getByRole('banner').evaluate((header) => {
    const row = header.firstElementChild!;
    const visible = Array.from(row.querySelectorAll('a, button')).filter((el) => {
      const style = getComputedStyle(el);
      const rect = el.getBoundingClientRect();
      // The phone's panel hangs below the row when open; it is not part of the row.
      return rect.width > 0 && style.visibility !== 'hidden' && !el.closest('[data-header-panel="open"]');
    });
    const boxes = visible.map((el) => el.getBoundingClientRect());
    const first = boxes[0]!;
    const oneRow = boxes.every((box) => box.top < first.bottom && box.bottom > first.top);
    return { height: header.getBoundingClientRect().height, oneRow };
  });
}

async function pagesToCheck(page: Page, signedIn: boolean): Promise<string[]> {
  const kb = await firstKnowledgeBase(page.request);
  return signedIn ? ['/account', '/publish', `/knowledge-bases/${kb.id}`] : ['/', '/knowledge-bases', `/knowledge-bases/${kb.id}`, '/signin', '/docs'];
}

async function expectOneRowEverywhere(page: Page, signedIn: boolean): Promise<void> {
  const banner = page.getByRole('banner');
  for (const path of await pagesToCheck(page, signedIn)) {
    await page.setViewportSize(PHONE);
    await page.goto(path);
    const menu = banner.getByRole('button', { name: 'Menu' });
    await expect(menu, path).toBeVisible();
    await expect(menu, path).toHaveAttribute('aria-expanded', 'false');
    await expect(banner.getByRole('link', { name: 'Knowledge bases' }), path).toBeHidden();
    const phone = await headerRow(page);
    expect(phone, `${path} at 390 px`).toEqual({ height: expect.any(Number), oneRow: true });
    expect(phone.height, `${path} header height at 390 px`).toBeLessThan(70);

    await page.setViewportSize(DESKTOP);
    await expect(menu, path).toBeHidden();
    await expect(banner.getByRole('link', { name: 'Knowledge bases' }), path).toBeVisible();
    await expect(banner.getByRole('link', { name: signedIn ? 'Account' : 'Sign up' }), path).toBeVisible();
    const desktop = await headerRow(page);
    expect(desktop.oneRow, `${path} at 1366 px`).toBe(true);
    expect(desktop.height, `${path} header height at 1366 px`).toBeLessThan(70);
  }
}

test('signed out: the header is one row on a phone and a desktop, and its menu works with the keyboard', async ({ page }) => {
  test.setTimeout(120_000);
  await expectOneRowEverywhere(page, false);

  await page.setViewportSize(PHONE);
  await page.goto('/');
  const banner = page.getByRole('banner');
  const menu = banner.getByRole('button', { name: 'Menu' });
  // Skip link, logo, then the menu button: the keyboard meets it before the page.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(menu).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  const panel = page.locator(`#${await menu.getAttribute('aria-controls')}`);
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('link')).toHaveText(['Knowledge bases', 'API reference', 'Publish', 'Sign in', 'Sign up']);
  await expectNoSeriousA11yViolations(page, 'header menu open at 390 px');
  await page.screenshot({ path: 'e2e/artifacts/screenshots/header-menu-open-390.png' });
  // The next Tab goes into the panel; Escape closes it and gives the focus back to the button.
  await page.keyboard.press('Tab');
  await expect(panel.getByRole('link', { name: 'Knowledge bases' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(panel).toBeHidden();
  await expect(menu).toBeFocused();
  // A followed link closes the panel over the next page.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(panel.getByRole('link', { name: 'API reference' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/docs$/);
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(panel).toBeHidden();
  // A press outside closes it too.
  await menu.click();
  await expect(panel).toBeVisible();
  await page.locator('main').click({ position: { x: 10, y: 200 } });
  await expect(panel).toBeHidden();
});

test('signed in: the header is one row on the dashboard, the publisher console and a knowledge-base page', async ({ page }) => {
  test.setTimeout(120_000);
  const account = await signUpOverHttp(page.request);
  await expectOneRowEverywhere(page, true);
  await page.setViewportSize(PHONE);
  await page.goto('/account');
  const menu = page.getByRole('banner').getByRole('button', { name: 'Menu' });
  await menu.click();
  const panel = page.locator(`#${await menu.getAttribute('aria-controls')}`);
  await expect(panel).toContainText(account.email);
  await expect(panel.getByRole('link', { name: 'Account' })).toBeVisible();
  await panel.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
  await expect(panel.getByRole('link', { name: 'Sign in' })).toBeVisible();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a phone shows the links and actions under the logo, since the menu button could open nothing', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/knowledge-bases');
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('button', { name: 'Menu' })).toBeHidden();
    for (const name of ['Knowledge bases', 'API reference', 'Publish', 'Sign in', 'Sign up']) await expect(banner.getByRole('link', { name })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

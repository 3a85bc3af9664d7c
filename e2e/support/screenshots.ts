import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { checksPages } from './a11y';

const SCREENSHOTS = path.resolve('e2e/artifacts/screenshots');

/** Fails when the phone layout scrolls sideways; leaves the viewport at 1366 px. */
export async function snapAtBothWidths(page: Page, name: string): Promise<void> {
  if (!checksPages()) return;
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-1366.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // The layout must have followed the new width before it is measured and captured.
  await page.waitForFunction(() => window.innerWidth === 390 && document.documentElement.clientWidth <= 390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
}

import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/**
 * Whether this project checks how pages look (axe, screenshots, phone widths). The scale-out project says no in its
 * metadata (playwright.config.ts): it serves the very build the chromium project checked, and is there for what two
 * instances change, not for the pages' markup.
 */
export function checksPages(): boolean {
  return test.info().project.metadata?.pageChecks !== false;
}

/** axe-core on the page as it is now: no serious or critical violations, listed with their elements when there are. */
export async function expectNoSeriousA11yViolations(page: Page, label: string): Promise<void> {
  if (!checksPages()) return;
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${label}: ${v.id} — ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

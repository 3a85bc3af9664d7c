import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/** The scale-out project says no: it serves the very build the chromium project checked. */
export function checksPages(): boolean {
  return test.info().project.metadata?.pageChecks !== false;
}

export async function expectNoSeriousA11yViolations(page: Page, label: string): Promise<void> {
  if (!checksPages()) return;
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${label}: ${v.id} — ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

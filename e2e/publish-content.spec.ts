import { expect, test, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { newAccount, signUp } from './support/auth';

/**
 * The publisher's content, analytics and earnings (issue 15): a new account becomes a publisher and creates a draft,
 * uploads three documents (one PDF) and watches them become ready, asks a question as a buyer would, adds a paid plan
 * and publishes; a buyer buys it in the test checkout and queries it with the key; the publisher sees the answered
 * query in analytics and the paid period in earnings. Console pages are scanned with axe and photographed at 1366
 * and 390 px.
 */

const shots = 'e2e/artifacts/screenshots';

async function snap(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: `${shots}/${name}-1366.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${shots}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
}

async function tidePdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of ['Harbour pilotage: every vessel over twenty metres takes a pilot at the fairway buoy.', 'Pilots board from the pilot cutter on the port side at slack water.']) {
    pdf.addPage([595, 842]).drawText(text, { x: 50, y: 780, size: 11, font });
  }
  return Buffer.from(await pdf.save());
}

test('upload content, try it, publish, sell one period, see it in analytics and earnings', async ({ page, browser, request }) => {
  test.setTimeout(300_000);
  const publisher = await signUp(page, newAccount(), '/publish');
  const suffix = Date.now().toString(36);

  // Become a publisher and create a draft.
  await page.goto('/publish');
  await page.getByLabel('Publisher name').fill(`Harbour Press ${suffix}`);
  await page.getByLabel('Public address').fill(`harbour-${suffix}`);
  await page.getByLabel('Contact email for the operator').fill(publisher.email);
  await page.getByRole('button', { name: 'Create publisher profile' }).click();
  await page.goto('/publish/listings/new');
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Title').fill(`Harbour Handbook ${suffix}`);
  await page.getByLabel('Summary').fill('Tides, pilots and harbour rules for small ports.');
  await page.locator('#field-category').selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page).toHaveURL(/\/publish\/listings\/kb_[0-9A-Za-z]+/);
  const kbId = /\/publish\/listings\/(kb_[0-9A-Za-z]+)/.exec(page.url())![1]!;

  // Three documents, one of them a PDF, sent together; each becomes ready in the background.
  await page.goto(`/publish/listings/${kbId}/content`);
  await page.waitForLoadState('networkidle');
  await page.locator('#content-files').setInputFiles([
    { name: 'tides.md', mimeType: 'text/markdown', buffer: Buffer.from('# Tides\n\nSpring tides come two days after the new and full moon, when the range is largest.\n\n## Neaps\n\nNeap tides have the smallest range.') },
    { name: 'moorings.txt', mimeType: 'text/plain', buffer: Buffer.from('Visitor moorings are the yellow buoys north of the breakwater. Raft no more than three boats on each buoy.') },
    { name: 'pilotage.pdf', mimeType: 'application/pdf', buffer: await tidePdf() },
  ]);
  await expect(page.getByTestId('document-row')).toHaveCount(3);
  await expect(page.locator('[data-testid="document-row"][data-status="ready"]')).toHaveCount(3, { timeout: 60_000 });
  await expect(page.locator('[data-testid="document-row"]', { hasText: 'pilotage.pdf' }).getByTestId('document-status')).toContainText('2 pages');

  // A file over the limit never leaves the browser.
  await page.locator('#content-files').setInputFiles([{ name: 'notes.docx', mimeType: 'application/octet-stream', buffer: Buffer.from('x') }]);
  await expect(page.getByTestId('upload-row').filter({ hasText: 'notes.docx' })).toContainText('Not sent');

  // Try it as a buyer would.
  await page.getByLabel('Question').fill('When do spring tides come?');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(page.getByTestId('try-answer')).toContainText(/spring tides/i);
  await expectNoSeriousA11yViolations(page, 'publisher content');
  await snap(page, 'publish-content');

  // A paid plan, then publish.
  await page.goto(`/publish/listings/${kbId}/plans`);
  await page.waitForLoadState('networkidle');
  const addPlan = page.locator('form').filter({ has: page.getByRole('button', { name: 'Add plan' }) });
  await addPlan.getByLabel('Plan name').fill('Harbour Pro');
  await addPlan.getByLabel('Monthly price').fill('9');
  await addPlan.getByLabel('Queries per month').fill('100');
  await addPlan.getByRole('button', { name: 'Add plan' }).click();
  await expect(page.getByText('Harbour Pro').first()).toBeVisible();
  await page.goto(`/publish/listings/${kbId}`);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByTestId('flash')).toContainText('Published');

  // A buyer finds it, buys in the test checkout, and queries it with the key.
  const buyerContext = await browser.newContext();
  const buyer = await buyerContext.newPage();
  await signUp(buyer, newAccount(), `/knowledge-bases/${kbId}`);
  await buyer.goto(`/knowledge-bases/${kbId}`);
  await buyer.getByRole('button', { name: /Buy Harbour Pro/ }).click();
  await buyer.getByRole('button', { name: 'Complete test purchase' }).click();
  await expect(buyer).toHaveURL(/\/checkout\/success\?handoff=/);
  const apiKey = (await buyer.getByTestId('api-key').textContent())!.trim();
  await buyerContext.close();
  const answered = await request.post(`/kb/${kbId}/query`, { headers: { Authorization: `Bearer ${apiKey}` }, data: { query: 'Where are the visitor moorings?' } });
  expect(answered.status()).toBe(200);

  // The publisher sees the answered query (aggregated off the hot path within a second or two) and the paid period.
  await expect(async () => {
    await page.goto(`/publish/listings/${kbId}/analytics`);
    await expect(page.getByTestId('stat-answered')).toHaveText('1', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole('cell', { name: 'Harbour Pro' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'publisher analytics');
  await snap(page, 'publish-analytics');
  const csv = await page.request.get(`/publish/listings/${kbId}/analytics/export?days=30`);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toMatch(/^knowledge_base,day,answered,abstained,errors/);

  await page.goto('/publish/earnings');
  const history = page.getByTestId('earnings-history');
  await expect(history).toContainText('Harbour Pro');
  await expect(history).toContainText('$9');
  await expect(history).toContainText('$7.20');
  await expectNoSeriousA11yViolations(page, 'publisher earnings');
  await snap(page, 'publish-earnings');
});

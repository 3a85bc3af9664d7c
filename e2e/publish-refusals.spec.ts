import { expect, test, type APIResponse, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { signUpOverHttp } from './support/auth';
import { draftListingOverHttp } from './support/publisher';
import { tabTo } from './support/keyboard';
import { snapAtBothWidths } from './support/screenshots';

/**
 * Refusals reach the publisher: a buyer on a free plan of 2 queries a month and 4 requests a minute asks twice
 * (answered), twice more (429 query_cap_exceeded: the cap is used up) and once more (429 rate_limit_exceeded: the
 * refused requests count against the per-minute limit, docs/api.md §3.2). The publisher, reaching the listing's
 * analytics by keyboard at 390 and at 1366 px, sees them counted by code beside the answers.
 */

const CAP = 2;
const PER_MINUTE = 4;

/** A published listing with two answerable documents and one free plan (cap and per-minute limit above); its id. */
async function publishedListingWithTasterPlan(page: Page): Promise<string> {
  const suffix = Date.now().toString(36);
  await signUpOverHttp(page.request);
  const kbId = await draftListingOverHttp(page.request, {
    publisher: `Reed Beds ${suffix}`,
    slug: `reed-beds-${suffix}`,
    title: `Reed bed birds ${suffix}`,
    summary: 'When bitterns boom and where marsh harriers nest.',
  });

  await page.goto(`/publish/listings/${kbId}/content`);
  await page.waitForLoadState('networkidle');
  await page.locator('#content-files').setInputFiles([
    {
      name: 'bitterns.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Bitterns\n\nBitterns boom from March to May, mostly at dawn, from deep reed beds.'),
    },
    { name: 'harriers.txt', mimeType: 'text/plain', buffer: Buffer.from('Marsh harriers nest on the ground in tall reeds.') },
  ]);
  await expect(page.locator('[data-testid="document-row"][data-status="ready"]')).toHaveCount(2, { timeout: 60_000 });

  await page.goto(`/publish/listings/${kbId}/plans`);
  await page.waitForLoadState('networkidle');
  const add = page.locator('section', { has: page.getByRole('heading', { name: 'Add a plan' }) });
  await add.getByLabel('Plan name').fill('Taster');
  await add.getByLabel('Monthly price').fill('0');
  await add.getByLabel('Queries per month').fill(String(CAP));
  await add.getByLabel('Requests per minute').fill(String(PER_MINUTE));
  await add.getByRole('button', { name: 'Add plan' }).click();
  await expect(page.getByTestId('flash')).toContainText('Plan added');

  await page.goto(`/publish/listings/${kbId}`);
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByTestId('flash')).toContainText('Published');
  return kbId;
}

async function expectRefusal(response: APIResponse, code: string): Promise<void> {
  expect(response.status()).toBe(429);
  expect(await response.json()).toMatchObject({ error: code, request_id: expect.stringMatching(/^req_/) });
}

/** By keyboard from the listing's editor: Tab to "Analytics" in the listing's navigation, then Enter. */
async function openAnalyticsByKeyboard(page: Page, kbId: string): Promise<void> {
  await page.goto(`/publish/listings/${kbId}`);
  await page.waitForLoadState('networkidle');
  await tabTo(page, page.getByRole('navigation', { name: 'This listing' }).getByRole('link', { name: 'Analytics' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/publish/listings/${kbId}/analytics$`));
}

/** The "Refused by code" table as the page shows it, at either width: each row's label and count. */
async function expectRefusedByCode(page: Page): Promise<void> {
  const table = page.getByRole('table', { name: 'Refused by code' });
  await expect(table).toBeVisible();
  const rows = table.locator('tbody > tr');
  await expect(rows.locator('td:nth-child(1)')).toHaveText(['Cap reached (query_cap_exceeded)', 'Rate limited (rate_limit_exceeded)']);
  // The count is the last span of the second cell (on a phone the column's name comes before it).
  const counts = rows.locator('td:nth-child(2) > span:last-child');
  await expect(counts).toHaveText(['2', '1']);
  for (const count of await counts.all()) await expect(count).toBeVisible();
}

test('a buyer past the cap and the per-minute limit shows up in the publisher analytics as refusals by code (keyboard, 390 and 1366 px)', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const kbId = await publishedListingWithTasterPlan(page);

  // A buyer takes the free plan from the listing's page and gets its key.
  const buyerContext = await browser.newContext();
  const buyer = await buyerContext.newPage();
  await signUpOverHttp(buyer.request);
  await buyer.goto(`/knowledge-bases/${kbId}`);
  await buyer.getByRole('button', { name: 'Get Taster plan, free' }).click();
  // Without Stripe every plan, a free one too, passes through the test checkout.
  await buyer.getByRole('button', { name: 'Complete test purchase' }).click();
  await expect(buyer).toHaveURL(/\/checkout\/success\?handoff=/);
  const apiKey = (await buyer.getByTestId('api-key').textContent())!.trim();
  await buyerContext.close();

  const ask = (query: string) => request.post(`/kb/${kbId}/query`, { headers: { Authorization: `Bearer ${apiKey}` }, data: { query } });
  for (const query of ['When do bitterns boom?', 'Where do marsh harriers nest?']) {
    const answered = await ask(query);
    expect(answered.status()).toBe(200);
    expect((await answered.json()).citations).not.toHaveLength(0);
  }
  // The cap is used up: refused, and (from step 7 on) counted against the per-minute limit.
  for (let i = 0; i < PER_MINUTE - CAP; i++) {
    const capped = await ask('When do bitterns boom?');
    await expectRefusal(capped, 'query_cap_exceeded');
    expect(await capped.json()).toMatchObject({ usage: { used: CAP, cap: CAP } });
  }
  const limited = await ask('When do bitterns boom?');
  await expectRefusal(limited, 'rate_limit_exceeded');
  expect(limited.headers()['retry-after']).toMatch(/^[1-9][0-9]*$/);

  // On a phone, by keyboard: the figures (aggregated off the hot path within a second or two) and the refusals by code.
  await page.setViewportSize({ width: 390, height: 844 });
  await openAnalyticsByKeyboard(page, kbId);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('stat-refused')).toHaveText('3', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByTestId('stat-answered')).toHaveText('2');
  await expect(page.getByTestId('stat-abstained')).toHaveText('0');
  await expect(page.getByTestId('stat-errors')).toHaveText('0');
  await expect(page.getByTestId('stat-refused').locator('..')).toContainText('Refused (cap or rate limit)');
  await expectRefusedByCode(page);
  await expect(page.getByText('No errors in this period.')).toBeVisible();

  // On a desktop, by keyboard again: the same counts, in a table with its column headings.
  await page.setViewportSize({ width: 1366, height: 900 });
  await openAnalyticsByKeyboard(page, kbId);
  await expect(page.getByTestId('stat-refused')).toHaveText('3');
  await expectRefusedByCode(page);
  await expect(page.getByRole('table', { name: 'Refused by code' }).getByRole('columnheader')).toHaveText(['Code', 'Requests']);
  // The export carries the same counts, a column for each refusal code (today is the last row).
  const csv = (await (await page.request.get(`/publish/listings/${kbId}/analytics/export?days=30`)).text()).trim().split('\n');
  expect(csv[0]).toBe('knowledge_base,day,answered,abstained,previews,refused,errors,refused_query_cap_exceeded,refused_rate_limit_exceeded');
  expect(csv.at(-1)).toMatch(/^Reed bed birds [0-9a-z]+,\d{4}-\d{2}-\d{2},2,0,0,3,0,2,1$/);
  await expectNoSeriousA11yViolations(page, 'publisher analytics with refusals');
  await snapAtBothWidths(page, 'publish-analytics-refusals');
});

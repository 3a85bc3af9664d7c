import { expect, test, type Locator, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { signUpOverHttp } from './support/auth';
import { tabTo } from './support/keyboard';
import { snapAtBothWidths } from './support/screenshots';

/**
 * The publisher's whole journey, one account from start to payout: it follows "Publish" from the header,
 * becomes a publisher and creates a listing with the keyboard alone, uploads three documents (one PDF) and watches
 * them become ready, asks a question as a buyer would, adds a free and a paid plan and publishes; a second account
 * finds the listing in the catalogue, buys the paid plan in the test checkout and queries it with its key; the
 * publisher then sees the answered query in analytics and the paid period in earnings. Every console page is scanned
 * with axe and photographed at 1366 and 390 px (no sideways scroll on a phone).
 */

async function typeInto(page: Page, target: Locator, text: string): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

async function fieldGuidePdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of [
    'Bearded tits feed on reed seed through the winter and move in small flocks.',
    'Cranes returned to the fens in 2001 and now breed on the washes each spring.',
  ]) {
    pdf.addPage([595, 842]).drawText(text, { x: 50, y: 780, size: 11, font });
  }
  return Buffer.from(await pdf.save());
}

test('a new account becomes a publisher, lists, fills, prices and publishes a knowledge base, sells it and sees the sale (keyboard only up to the draft)', async ({
  page,
  browser,
  request,
}) => {
  // Long on a loaded two-core machine: every step is a server round trip, and several scans and screenshots.
  test.setTimeout(420_000);
  // Both accounts are made over HTTP: journey.spec.ts drives signing up, here and in the scale-out project.
  const account = await signUpOverHttp(page.request);
  const suffix = Date.now().toString(36);

  // The header's Publish leads to the console; an account without a profile is offered one.
  await page.goto('/');
  await tabTo(page, page.getByRole('banner').getByRole('link', { name: 'Publish', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/publish$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Become a publisher' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expectNoSeriousA11yViolations(page, 'become a publisher');
  await snapAtBothWidths(page, 'publish-become');

  // A mistake is explained under its field, by keyboard.
  await typeInto(page, page.getByLabel('Publisher name'), `Fenland Survey ${suffix}`);
  await typeInto(page, page.getByLabel('Public address'), 'Not A Slug!');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Use lower-case letters, digits and single hyphens')).toBeVisible();
  await typeInto(page, page.getByLabel('Public address'), `fenland-${suffix}`);
  await typeInto(page, page.getByLabel('Short bio (optional)'), 'Field guides to the fens.');
  await tabTo(page, page.getByRole('button', { name: 'Create publisher profile' }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('flash')).toContainText('Your publisher profile is ready');
  await expect(page.getByRole('heading', { level: 1, name: 'Your listings' })).toBeVisible();
  // What was typed before the refused submission was kept, not reset.
  await expect(page.getByText(`Publishing as Fenland Survey ${suffix}`)).toBeVisible();
  await snapAtBothWidths(page, 'publish-overview-empty');

  // A listing, by keyboard, watching the live preview.
  await tabTo(page, page.getByRole('link', { name: 'New listing' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/publish\/listings\/new$/);
  await page.waitForLoadState('networkidle');
  const title = `Fen birds ${suffix}`;
  await typeInto(page, page.getByLabel('Title'), title);
  await typeInto(page, page.getByLabel('Summary'), 'Which birds breed in the fens, when, and where to hear them.');
  await typeInto(
    page,
    page.getByLabel('Description'),
    '## Seasons\n\nBitterns **boom** in spring. <img src=x onerror=alert(1)>\n\n- Marsh harrier\n- Bearded tit',
  );
  await tabTo(page, page.locator('#field-category'));
  await page.keyboard.press('ArrowDown'); // education
  await page.keyboard.press('ArrowDown'); // policy
  await page.keyboard.press('ArrowDown'); // health
  await page.keyboard.press('ArrowDown'); // research
  await typeInto(page, page.locator('#field-tags'), 'Birds, Fens , birds');
  await typeInto(page, page.getByLabel('Sample questions'), 'When do bitterns boom?\nWhere do marsh harriers nest?');
  const preview = page.getByRole('complementary', { name: 'Preview' });
  await expect(preview.getByRole('heading', { name: title })).toBeVisible();
  await expect(preview.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText(['birds', 'fens']);
  await expect(preview.locator('strong', { hasText: 'boom' })).toBeVisible();
  await expect(preview.locator('img')).toHaveCount(0); // raw HTML in the Markdown is not rendered
  await expectNoSeriousA11yViolations(page, 'new listing');
  await snapAtBothWidths(page, 'publish-listing-new');
  await tabTo(page, page.getByRole('button', { name: 'Create draft' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/publish\/listings\/kb_[0-9A-Za-z]+\?flash=listing_created/, { timeout: 60_000 });
  const kbId = /\/publish\/listings\/(kb_[0-9A-Za-z]+)/.exec(page.url())![1]!;
  await expect(page.getByText('Draft', { exact: true }).first()).toBeVisible();

  // Publishing without a plan is refused with the reason.
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByTestId('flash')).toContainText('Add at least one plan before publishing');
  await expectNoSeriousA11yViolations(page, 'listing editor');
  await snapAtBothWidths(page, 'publish-listing-editor');

  // Three documents, one of them a PDF, sent together; each becomes ready in the background.
  await page.getByRole('navigation', { name: 'This listing' }).getByRole('link', { name: 'Content' }).click();
  await expect(page).toHaveURL(new RegExp(`/publish/listings/${kbId}/content$`));
  await page.waitForLoadState('networkidle');
  await page.locator('#content-files').setInputFiles([
    {
      name: 'bitterns.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(
        '# Bitterns\n\nBitterns boom from March to May, mostly at dawn, from deep reed beds.\n\n## Nests\n\nThe nest is a platform of reeds above the water.',
      ),
    },
    {
      name: 'harriers.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Marsh harriers nest on the ground in tall reeds. The male passes food to the female in the air.'),
    },
    { name: 'field-guide.pdf', mimeType: 'application/pdf', buffer: await fieldGuidePdf() },
  ]);
  await expect(page.getByTestId('document-row')).toHaveCount(3);
  await expect(page.locator('[data-testid="document-row"][data-status="ready"]')).toHaveCount(3, { timeout: 60_000 });
  await expect(page.locator('[data-testid="document-row"]', { hasText: 'field-guide.pdf' }).getByTestId('document-status')).toContainText('2 pages');

  // A file of a kind that cannot be read never leaves the browser.
  await page.locator('#content-files').setInputFiles([{ name: 'notes.docx', mimeType: 'application/octet-stream', buffer: Buffer.from('x') }]);
  await expect(page.getByTestId('upload-row').filter({ hasText: 'notes.docx' })).toContainText('Not sent');

  await page.getByLabel('Question').fill('When do bitterns boom?');
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect(page.getByTestId('try-answer')).toContainText(/March to May/);
  await expectNoSeriousA11yViolations(page, 'publisher content');
  await snapAtBothWidths(page, 'publish-content');

  // A free plan (its cap is checked) and a paid one.
  await page.getByRole('navigation', { name: 'This listing' }).getByRole('link', { name: 'Plans' }).click();
  await expect(page).toHaveURL(new RegExp(`/publish/listings/${kbId}/plans$`));
  await page.waitForLoadState('networkidle');
  const add = page.locator('section', { has: page.getByRole('heading', { name: 'Add a plan' }) });
  await add.getByLabel('Plan name').fill('Free');
  await add.getByLabel('Monthly price').fill('0');
  await add.getByLabel('Queries per month').fill('500');
  await add.getByRole('button', { name: 'Add plan' }).click();
  await expect(add.getByText('A free plan allows at most 100 queries a month.')).toBeVisible();
  await add.getByLabel('Queries per month').fill('50');
  await add.getByRole('button', { name: 'Add plan' }).click();
  await expect(page.getByTestId('flash')).toContainText('Plan added');
  await add.getByLabel('Plan name').fill('Ringer');
  await add.getByLabel('Monthly price').fill('12.50');
  await add.getByLabel('Queries per month').fill('400');
  await add.getByRole('button', { name: 'Add plan' }).click();
  await expect(page.getByTestId('flash')).toContainText('Plan added');
  const forSale = page.locator('section', { has: page.getByRole('heading', { name: /For sale/ }) });
  await expect(forSale.getByRole('heading', { level: 3 })).toHaveText(['Free', 'Ringer']);
  await expect(forSale).toContainText('$12.50 a month');
  await expectNoSeriousA11yViolations(page, 'plans');
  await snapAtBothWidths(page, 'publish-plans');

  // Publish: it is in the catalogue, with both plans for sale.
  await page.getByRole('navigation', { name: 'This listing' }).getByRole('link', { name: 'Listing' }).click();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByTestId('flash')).toContainText('Published');
  await page.goto(`/knowledge-bases?query=${encodeURIComponent(title)}`);
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  await page.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Seasons' })).toBeVisible();
  await expect(page.getByText('Ringer').first()).toBeVisible();

  await page.goto('/publish');
  await expect(page.getByRole('list', { name: 'Your listings' })).toContainText('Published');
  await expectNoSeriousA11yViolations(page, 'overview');
  await snapAtBothWidths(page, 'publish-overview');
  await page.getByRole('navigation', { name: 'Publisher console' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByLabel('Contact email for the operator')).toHaveValue(account.email);
  await expectNoSeriousA11yViolations(page, 'profile');
  await snapAtBothWidths(page, 'publish-profile');

  // The public publisher page shows the profile and the published listing.
  await page.goto(`/publishers/fenland-${suffix}`);
  await expect(page.getByText('Field guides to the fens.')).toBeVisible();
  await expect(page.getByRole('link', { name: title })).toBeVisible();

  // A second account finds it in the catalogue, buys the paid plan in the test checkout, and queries it with the key.
  const buyerContext = await browser.newContext();
  const buyer = await buyerContext.newPage();
  await signUpOverHttp(buyer.request);
  await buyer.goto(`/knowledge-bases?query=${encodeURIComponent(title)}`);
  await buyer.getByRole('link', { name: title }).click();
  // Before buying, a free preview: a sample question answers on the page (the publisher sees it as a preview).
  const tryIt = buyer.getByRole('region', { name: 'Try it' });
  await tryIt.getByRole('button', { name: 'When do bitterns boom?', exact: true }).click();
  await expect(tryIt.getByTestId('try-it-answer')).toBeVisible({ timeout: 30_000 });
  await buyer.getByRole('button', { name: /Buy Ringer/ }).click();
  await buyer.getByRole('button', { name: 'Complete test purchase' }).click();
  await expect(buyer).toHaveURL(/\/checkout\/success\?handoff=/);
  const apiKey = (await buyer.getByTestId('api-key').textContent())!.trim();
  await buyerContext.close();
  const answered = await request.post(`/kb/${kbId}/query`, {
    headers: { Authorization: `Bearer ${apiKey}` },
    data: { query: 'Where do marsh harriers nest?' },
  });
  expect(answered.status()).toBe(200);
  expect(await answered.json()).toMatchObject({ answer: expect.stringContaining('on the ground in tall reeds'), citations: [{ title: 'Harriers' }] });

  // The publisher sees the answered query (aggregated off the hot path within a second or two) and the paid period.
  await expect(async () => {
    await page.goto(`/publish/listings/${kbId}/analytics`);
    await expect(page.getByTestId('stat-answered')).toHaveText('1', { timeout: 1_000 });
    await expect(page.getByTestId('stat-previews')).toHaveText('1', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  // Each figure against the period before, which saw nothing.
  await expect(page.getByTestId('analytics-period')).toContainText('compared with the previous 30 days');
  await expect(page.getByTestId('stat-previews').locator('..')).toContainText('+1 vs the previous 30 days');
  await expect(page.getByRole('cell', { name: 'Ringer' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'publisher analytics');
  await snapAtBothWidths(page, 'publish-analytics');
  const csv = await page.request.get(`/publish/listings/${kbId}/analytics/export?days=30`);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toMatch(/^knowledge_base,day,answered,abstained,previews,refused,errors/);

  await page.goto('/publish/earnings');
  const history = page.getByTestId('earnings-history');
  await expect(history).toContainText('Ringer');
  await expect(history).toContainText('$12.50');
  await expect(history).toContainText('$10'); // net of the 20% platform fee
  await expectNoSeriousA11yViolations(page, 'publisher earnings');
  await snapAtBothWidths(page, 'publish-earnings');
});

test('signed out, Publish leads through sign-in to the console', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Publish', exact: true }).click();
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fpublish/);
});

import { expect, test, type Page } from '@playwright/test';
import { listViaApi } from './support/pages';

/**
 * The buyer's browsing journey over the seeded catalogue. Expected results are read from the public listing API
 * in the same run, so the page must show exactly what the API (the single source of truth) returns.
 */

const results = (page: Page) => page.getByRole('list', { name: 'Knowledge bases' });
const cardTitles = (page: Page) => results(page).getByRole('heading', { level: 3 });
const statusLine = (page: Page) => page.getByRole('status').filter({ hasText: 'knowledge base' });
const searchParams = (page: Page) => new URL(page.url()).searchParams;

test('browse: the first page shows the API’s first twelve in popular order, with the total', async ({ page, request }) => {
  const api = await listViaApi(request);
  await page.goto('/knowledge-bases');
  await expect(page).toHaveTitle(/Browse knowledge bases/);
  await expect(cardTitles(page)).toHaveText(api.items.map((i) => i.title));
  await expect(statusLine(page)).toContainText(`${api.total} knowledge bases`);
  await expect(statusLine(page)).toContainText(`page 1 of ${api.totalPages}`);
  const first = results(page).getByRole('article').first();
  await expect(first).toContainText(api.items[0]!.publisher);
  await expect(first.getByText('Subscribers')).toBeVisible();
  await expect(first.getByText('Queries')).toBeVisible();
  await expect(first.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
});

test('search: a word prefix finds the constitution, and the count matches the API', async ({ page, request }) => {
  // With a search term the page orders by relevance (docs/api.md §2.5).
  const api = await listViaApi(request, 'query=constit&sort=relevance');
  expect(api.total).toBeGreaterThan(0);
  await page.goto('/knowledge-bases');
  await page.getByRole('searchbox', { name: 'Search knowledge bases' }).fill('constit');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/query=constit/);
  await expect(cardTitles(page)).toHaveText(api.items.map((i) => i.title));
  await expect(cardTitles(page).filter({ hasText: 'U.S. Constitution Companion' })).toHaveCount(1);
  await expect(statusLine(page)).toContainText(`${api.total} knowledge base`);
  await expect(page.getByRole('searchbox', { name: 'Search knowledge bases' })).toHaveValue('constit');
});

test('filter: a category tab and two tags combine with AND, like the API', async ({ page, request }) => {
  await page.goto('/knowledge-bases');
  const categories = page.getByRole('navigation', { name: 'Categories' });
  await categories.getByRole('link', { name: /^Health/ }).click();
  await expect(page).toHaveURL(/category=health/);
  await expect(categories.getByRole('link', { name: /^Health/ })).toHaveAttribute('aria-current', 'page');
  await expect(categories.getByRole('link', { name: /^All/ })).not.toHaveAttribute('aria-current', 'page');
  const health = await listViaApi(request, 'category=health');
  await expect(cardTitles(page)).toHaveText(health.items.map((i) => i.title));

  // Pick the two tags most common among health knowledge bases, so the intersection is not empty.
  const tagCounts = new Map<string, number>();
  for (const item of (await listViaApi(request, 'category=health&pageSize=50')).items) for (const t of item.tags) tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1);
  const [tagA, tagB] = [...tagCounts.entries()].sort((a, b) => b[1] - a[1]).map(([t]) => t);
  const tags = page.getByRole('navigation', { name: /Filter by tags/ });
  await tags.getByRole('link', { name: new RegExp(`^${tagA} \\(`) }).click();
  await expect(page).toHaveURL(new RegExp(`tags=${tagA}`));
  await tags.getByRole('link', { name: new RegExp(`^${tagB} \\(`) }).click();
  await expect(page).toHaveURL(new RegExp(`tags=${tagB}`));
  expect(searchParams(page).getAll('tags').sort()).toEqual([tagA, tagB].sort());
  expect(searchParams(page).get('category')).toBe('health');
  await expect(tags.getByRole('link', { name: new RegExp(`^✓?\\s*${tagA}`) })).toHaveAttribute('aria-current', 'true');

  const both = await listViaApi(request, `category=health&tags=${tagA}&tags=${tagB}`);
  expect(both.total).toBeGreaterThan(0);
  await expect(cardTitles(page)).toHaveText(both.items.map((i) => i.title));
  for (const card of await results(page).getByRole('article').all()) {
    const cardTags = card.getByRole('list', { name: 'Tags' });
    await expect(cardTags).toContainText(tagA!);
    await expect(cardTags).toContainText(tagB!);
  }

  // Clicking a selected chip removes it again.
  await tags.getByRole('link', { name: new RegExp(`${tagA} \\(selected`) }).click();
  await expect.poll(() => searchParams(page).getAll('tags')).toEqual([tagB]);
});

test('empty result: says so and offers a way out', async ({ page }) => {
  await page.goto('/knowledge-bases?query=zzzqqqxxy');
  await expect(page.getByRole('heading', { name: 'No knowledge bases match' })).toBeVisible();
  await expect(statusLine(page)).toContainText('0 knowledge bases for “zzzqqqxxy”');
  // A way on that needs no better words: each category as a whole listing.
  const categories = page.getByRole('navigation', { name: 'Or browse a category' });
  await expect(categories.getByRole('link')).toHaveText(['Education', 'Policy', 'Health', 'Research', 'Legal']);
  await expect(categories.getByRole('link', { name: 'Health' })).toHaveAttribute('href', '/knowledge-bases?category=health');
  await page.getByRole('link', { name: 'Clear all filters' }).click();
  await expect(page).toHaveURL(/\/knowledge-bases$/);
  await expect(cardTitles(page)).toHaveCount(12);
});

test('invalid parameters: an error state instead of a crash', async ({ page }) => {
  const response = await page.goto('/knowledge-bases?sort=sideways');
  expect(response?.status()).toBe(200);
  // Scoped to the page content: Next's route announcer is another (empty) alert.
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toContainText('These filters could not be applied');
  await expect(alert).toContainText('sort');
  await page.getByRole('link', { name: 'Show all knowledge bases' }).click();
  await expect(cardTitles(page)).toHaveCount(12);
});

test('sort and paginate, then the back button restores each state', async ({ page, request }) => {
  await page.goto('/knowledge-bases?category=research');
  await page.getByLabel('Sort by').selectOption('new');
  await expect(page).toHaveURL(/sort=new/);
  const newest = await listViaApi(request, 'category=research&sort=new');
  await expect(cardTitles(page)).toHaveText(newest.items.map((i) => i.title));
  expect(searchParams(page).get('category')).toBe('research');

  const all = await listViaApi(request, 'sort=new');
  const page2 = await listViaApi(request, 'sort=new&page=2');
  await page.goto('/knowledge-bases?sort=new');
  await expect(cardTitles(page)).toHaveText(all.items.map((i) => i.title));
  const pagination = page.getByRole('navigation', { name: 'Pagination' });
  await pagination.getByRole('link', { name: /Next/ }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(pagination.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await expect(cardTitles(page)).toHaveText(page2.items.map((i) => i.title));
  await expect(page.getByLabel('Sort by')).toHaveValue('new');

  await page.goBack();
  await expect(page).not.toHaveURL(/page=2/);
  await expect(cardTitles(page)).toHaveText(all.items.map((i) => i.title));
  await page.goBack();
  await expect(page).toHaveURL(/category=research&sort=new/);
  await expect(cardTitles(page)).toHaveText(newest.items.map((i) => i.title));
  await expect(page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: /^Research/ })).toHaveAttribute('aria-current', 'page');
  await page.goForward();
  await expect(cardTitles(page)).toHaveText(all.items.map((i) => i.title));
});

test('a page past the end explains itself and links to the last page', async ({ page, request }) => {
  const { totalPages } = await listViaApi(request);
  await page.goto(`/knowledge-bases?page=${totalPages + 5}`);
  await expect(page.getByRole('heading', { name: `There is no page ${totalPages + 5}` })).toBeVisible();
  await page.getByRole('link', { name: 'Go to the last page' }).click();
  await expect(page).toHaveURL(new RegExp(`page=${totalPages}$`));
  await expect(cardTitles(page).first()).toBeVisible();
});

test('open a knowledge base: facts, plans with Buy buttons, snippets for this id, then its publisher', async ({ page, request, baseURL, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const [first] = (await listViaApi(request)).items;
  await page.goto('/knowledge-bases');
  await cardTitles(page).first().getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/knowledge-bases/${first!.id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(first!.title);
  await expect(page).toHaveTitle(`${first!.title} · Almanac`);

  const detail = await (await request.get(`/api/marketplace/knowledge-bases/${first!.id}`)).json();
  for (const fact of ['Category', 'Documents', 'Language', 'Licence']) await expect(page.locator('dt', { hasText: fact })).toBeVisible();
  await expect(page.locator('dd', { hasText: detail.licence })).toBeVisible();
  const plans = page.getByRole('region', { name: 'Plans' });
  // Paid plans say "Buy", a free one (the seeded Taster) "Get".
  const buy = plans.getByRole('button', { name: /^(Buy|Get) / });
  await expect(buy).toHaveCount(detail.plans.length);
  for (const plan of detail.plans) {
    await expect(plans.getByRole('heading', { name: plan.name })).toBeVisible();
    await expect(plans.locator(`input[name="planId"][value="${plan.id}"]`)).toHaveCount(1);
  }
  await expect(plans.locator('form[action="/checkout/start"][method="post"]')).toHaveCount(detail.plans.length);
  for (const q of detail.sampleQuestions) await expect(page.getByText(q, { exact: true }).first()).toBeVisible();

  // The code and agent set-up is folded below the plans and Try-it.
  await page.locator('details', { hasText: 'Use it from your code or an AI agent' }).locator('summary').click();
  const endpoint = `${baseURL}/kb/${first!.id}/query`;
  for (const label of ['curl example', 'TypeScript example', 'Python example', 'Python, streamed example'])
    await expect(page.getByLabel(label, { exact: true })).toContainText(endpoint);
  await page.getByRole('button', { name: 'Copy curl' }).click();
  await expect(page.getByText('Copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(endpoint);

  await page.getByRole('main').getByRole('link', { name: first!.publisher }).first().click();
  await expect(page).toHaveURL(/\/publishers\//);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(first!.publisher);
  await expect(cardTitles(page).filter({ hasText: first!.title })).toHaveCount(1);
  const byPublisher = (await listViaApi(request, 'pageSize=50')).items.filter((i) => i.publisher === first!.publisher);
  const more = await listViaApi(request, 'pageSize=50&page=2');
  const total = byPublisher.length + more.items.filter((i) => i.publisher === first!.publisher).length;
  await expect(cardTitles(page)).toHaveCount(total);
});

test('unknown knowledge base and publisher answer 404 with a way back', async ({ page }) => {
  const kb = await page.goto('/knowledge-bases/kb_doesnotexist0000');
  expect(kb?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'We could not find that page' })).toBeVisible();
  const publisher = await page.goto('/publishers/no-such-publisher');
  expect(publisher?.status()).toBe(404);
  await page.getByRole('link', { name: 'Browse knowledge bases' }).click();
  await expect(cardTitles(page)).toHaveCount(12);
});

test('keyboard: skip link, search with Enter, then Tab reaches tabs, chips and cards in order', async ({ page }) => {
  await page.goto('/knowledge-bases');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  const search = page.getByRole('searchbox', { name: 'Search knowledge bases' });
  for (let i = 0; i < 10 && !(await search.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(search).toBeFocused();
  await page.keyboard.type('health');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/query=health/);
  await expect(cardTitles(page).first()).toBeVisible();

  // Walk forward with Tab from the search box and record what receives focus.
  await search.focus();
  const visited: string[] = [];
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    visited.push(
      await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el) return '';
        const zone = el.closest('nav[aria-label="Categories"]')
          ? 'tab'
          : el.closest('nav[aria-labelledby="tag-filter-heading"]')
            ? 'chip'
            : el.closest('article')
              ? 'card'
              : 'other';
        return `${zone}:${(el.textContent ?? '').trim()}`;
      }),
    );
  }
  const firstTab = visited.findIndex((v) => v.startsWith('tab:All'));
  const firstChip = visited.findIndex((v) => v.startsWith('chip:'));
  const firstCard = visited.findIndex((v) => v.startsWith('card:'));
  expect(firstTab).toBeGreaterThanOrEqual(0);
  expect(firstChip).toBeGreaterThan(firstTab);
  expect(firstCard).toBeGreaterThan(firstChip);
  // Every category tab with results is a stop (one that would show nothing is plain text: catalog-controls.tsx).
  const tabLinks = await page.getByRole('navigation', { name: 'Categories' }).getByRole('link').count();
  expect(visited.slice(firstTab, firstChip).filter((v) => v.startsWith('tab:'))).toHaveLength(tabLinks);

  // Enter on a focused tab applies it and keeps the search.
  await page
    .getByRole('navigation', { name: 'Categories' })
    .getByRole('link', { name: /^Policy/ })
    .focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/query=health&category=policy|category=policy.*query=health/);
  // Enter on a focused card title opens it.
  await cardTitles(page).first().getByRole('link').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/knowledge-bases\/kb_/);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('search, tabs and the sort form still work through plain GET requests', async ({ page, request }) => {
    await page.goto('/knowledge-bases');
    await page.getByRole('searchbox', { name: 'Search knowledge bases' }).fill('policy');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/query=policy/);
    await page.getByLabel('Sort by').selectOption('updated');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(page).toHaveURL(/query=policy.*sort=updated/);
    const api = await listViaApi(request, 'query=policy&sort=updated');
    await expect(cardTitles(page)).toHaveText(api.items.map((i) => i.title));
  });
});

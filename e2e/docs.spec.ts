import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { firstKnowledgeBase } from './support/pages';

/**
 * /docs, the human-readable API reference: the hand-written getting-started with examples that copy, and the
 * reference rendered on the server from the OpenAPI document, at desktop width and on a 390 px phone, by keyboard, with nothing
 * loaded from another origin. Screenshots: e2e/artifacts/screenshots/docs-*.png.
 */
const screenshots = path.resolve('e2e/artifacts/screenshots');

/** Every response the page received from another origin (none may arrive: no CDN, no font or image from elsewhere). */
function watchOtherOrigins(page: Page, origin: string): string[] {
  const arrived: string[] = [];
  page.on('response', (response) => {
    const url = response.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) arrived.push(url);
  });
  return arrived;
}

/**
 * The reference is in the page as served (rendered on the server: no loading text), with short headings, examples
 * filled in from the catalogue, and none of the operators' variables or our internal section numbers.
 */
async function expectReference(page: Page) {
  const reference = page.getByTestId('api-reference');
  await expect(reference.getByRole('heading', { level: 3, name: 'Ask a knowledge base a question', exact: true })).toBeVisible();
  await expect(reference.getByRole('heading', { level: 3, name: 'List published knowledge bases', exact: true })).toBeVisible();
  await expect(reference.getByText('/kb/{kb_id}/query').filter({ visible: true }).first()).toBeVisible();
  await expect(page.getByText('Loading the reference')).toHaveCount(0);
  const text = (await reference.textContent())!;
  expect(text).not.toMatch(/§|docs\/api\.md|CATALOG_CACHE_TTL_MS|"string"/);
}

test('desktop: getting started copies, the reference renders from the OpenAPI document, by keyboard, offline', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const origin = new URL(baseURL!).origin;
  const fromElsewhere = watchOtherOrigins(page, origin);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page).toHaveTitle('API reference · Almanac');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('API reference');
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(page.getByTestId('base-url')).toHaveText(origin);
  await expectReference(page);

  // The examples name this deployment's base URL; each copies exactly what it shows.
  for (const [id, label] of [
    ['curl', 'curl'],
    ['typescript', 'TypeScript'],
    ['python', 'Python'],
    ['python-stream', 'Python, streamed'],
    ['langchain', 'LangChain'],
    ['mcp', 'MCP client config'],
    ['claude-desktop', 'Claude Desktop config'],
    ['python-mcp', 'Python (mcp 2.x)'],
  ] as const) {
    const snippet = page.getByTestId(`snippet-${id}`);
    const shown = (await snippet.locator('code').textContent())!;
    expect(shown).toContain(origin);
    await snippet.getByRole('button', { name: `Copy ${label}` }).click();
    await expect(snippet.getByRole('status')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
  }
  expect(JSON.parse((await page.getByTestId('snippet-mcp').locator('code').textContent())!).mcpServers.almanac.url).toBe(`${origin}/kb/<kb_id>/mcp`);
  const dify = page.getByTestId('dify-registration');
  await expect(dify).toContainText(`${origin}/dify`);
  await dify.getByRole('button', { name: 'Copy API Endpoint' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${origin}/dify`);

  // By keyboard: Tab reaches the first copy button and Enter copies; the reference's menu opens an operation with Enter.
  await page.goto('/docs');
  await expectReference(page);
  await page.evaluate(() => navigator.clipboard.writeText(''));
  const copyCurl = page.getByRole('button', { name: 'Copy curl' });
  for (let i = 0; i < 40 && !(await copyCurl.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(copyCurl).toBeFocused();
  await page.keyboard.press('Enter');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`curl -X POST '${origin}/kb/<kb_id>/query'`);
  const operation = page.getByRole('navigation', { name: 'Endpoints' }).getByRole('link', { name: /Ask a knowledge base a question/ });
  await expect(operation).toBeVisible();
  await operation.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#queryKnowledgeBase$/);
  await expect(page.getByRole('heading', { level: 3, name: 'Ask a knowledge base a question', exact: true })).toBeInViewport();

  await expectNoSeriousA11yViolations(page, '/docs');
  await page.goto('/docs');
  await expectReference(page);
  await page.screenshot({ path: path.join(screenshots, 'docs-desktop.png'), fullPage: false });
  await page.getByRole('heading', { level: 3, name: 'Ask a knowledge base a question', exact: true }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(screenshots, 'docs-desktop-reference.png'), fullPage: false });
  expect(fromElsewhere, 'responses from other origins').toEqual([]);
});

test('390 px phone: from a knowledge base’s agent snippets to /docs filled in for it, nothing overflows, the reference renders', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const origin = new URL(baseURL!).origin;
  const fromElsewhere = watchOtherOrigins(page, origin);
  const kb = await firstKnowledgeBase(request);
  await page.setViewportSize({ width: 390, height: 844 });

  // From the knowledge-base page, next to its code snippets.
  await page.goto(`/knowledge-bases/${kb.id}`);
  // The set-up is folded below the plans and Try-it: open it.
  await page.locator('details', { hasText: 'Use it from your code or an AI agent' }).locator('summary').click();
  const agents = page.getByRole('region', { name: 'Use it from an AI agent' });
  await expect(agents.getByTestId('snippet-mcp')).toContainText(`"url": "${origin}/kb/${kb.id}/mcp"`);
  await expect(agents.getByTestId('snippet-claude-desktop')).toContainText(`"${origin}/kb/${kb.id}/mcp"`);
  await expect(agents.getByTestId('dify-registration')).toContainText(`${origin}/dify`);
  await expect(agents.getByTestId('dify-registration')).toContainText(kb.id);
  const api = page.getByRole('region', { name: 'Query it from your code' });
  await api.getByRole('link', { name: 'the API reference' }).click();
  await expect(page).toHaveURL(new RegExp(`/docs\\?kb=${kb.id}$`));
  await expect(page.getByTestId('examples-for')).toContainText(kb.title);
  await expect(page.getByTestId('snippet-curl')).toContainText(`${origin}/kb/${kb.id}/query`);
  await expect(page.getByTestId('snippet-mcp')).toContainText(`${origin}/kb/${kb.id}/mcp`);
  await expect(page.getByTestId('dify-registration')).toContainText(kb.id);
  await expectReference(page);
  // The reference's examples are this knowledge base's: its id and its first sample question.
  const detail = (await (await request.get(`/api/marketplace/knowledge-bases/${kb.id}`)).json()) as { sampleQuestions: string[] };
  const queryExample = page.locator('#queryKnowledgeBase').getByLabel('Request body');
  await expect(queryExample).toContainText(JSON.stringify(detail.sampleQuestions[0]));

  // Nothing wider than the phone: long lines scroll inside their code blocks.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(page.getByRole('heading', { level: 1 })).toBeInViewport();
  await page.screenshot({ path: path.join(screenshots, 'docs-phone.png'), fullPage: false });
  await page.getByRole('heading', { level: 3, name: 'Ask a knowledge base a question', exact: true }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(screenshots, 'docs-phone-reference.png'), fullPage: false });

  // An unknown id leaves the placeholders.
  await page.goto('/docs?kb=kb_doesnotexist0000');
  await expect(page.getByTestId('snippet-curl')).toContainText(`${origin}/kb/<kb_id>/query`);
  expect(fromElsewhere, 'responses from other origins').toEqual([]);
});

import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y';
import { subscribeThroughCli, verifiedBuyer as signedInBuyer } from './support/buyer';
import { listViaApi, publisherPathOf } from './support/pages';

/**
 * Every page fits a phone: at 390 px no page scrolls sideways. The pages are discovered from app/, so a page added
 * later is measured without editing this file; a route ROUTE_VALUES cannot fill fails the test with the line to add.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const ROOT = path.resolve(import.meta.dirname, '..');

function discoverPageRoutes(dir = 'app'): string[] {
  const routes: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = path.posix.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) routes.push(...discoverPageRoutes(rel));
    else if (name === 'page.tsx') {
      const segments = dir
        .split('/')
        .slice(1)
        .filter((s) => !/^\(.*\)$/.test(s) && !s.startsWith('@'));
      routes.push(`/${segments.join('/')}`);
    }
  }
  return routes.sort();
}

interface Fixture {
  kbId: string;
  publisherPath: string;
  planId: string;
  subscriptionId: string;
  keyId: string;
  /** A paid plan of another knowledge base, for the test checkout (the buyer holds none of its plans). */
  checkoutPlanId: string;
}

/** The full pattern first, then the segment name alone. */
const ROUTE_VALUES: Record<string, (f: Fixture) => string> = {
  '/knowledge-bases/[kbId]': (f) => `/knowledge-bases/${f.kbId}`,
  '/publishers/[slug]': (f) => f.publisherPath,
  '/account/subscriptions/[id]': (f) => `/account/subscriptions/${f.subscriptionId}`,
  '/account/subscriptions/[id]/change': (f) => `/account/subscriptions/${f.subscriptionId}/change?plan=${f.planId}`,
  '/account/keys/[id]/revoke': (f) => `/account/keys/${f.keyId}/revoke`,
  '/account/keys/[id]/rename': (f) => `/account/keys/${f.keyId}/rename`,
  // For a buyer who publishes nothing and is no operator, these show an onboarding step, a refusal or a 404.
  '[kbId]': (f) => f.kbId,
  '[id]': (f) => f.kbId,
  '[slug]': (f) => f.publisherPath.split('/').at(-1)!,
};

/** Pages worth measuring beyond the bare routes: their crowded states. */
const EXTRA_PATHS = (f: Fixture) => [
  '/knowledge-bases?query=constitution',
  '/knowledge-bases?tags=constitution&category=legal&sort=new',
  '/knowledge-bases?page=99',
  '/knowledge-bases?page=abc',
  `/docs?kb=${f.kbId}`,
  // The test checkout's summary holds the buyer's whole email address, the longest word on any page.
  `/checkout/test?planId=${f.checkoutPlanId}`,
  '/no-such-page-at-all',
];

function pathFor(route: string, fixture: Fixture): string | null {
  if (!route.includes('[')) return route;
  const exact = ROUTE_VALUES[route];
  if (exact) return exact(fixture);
  let unresolved = false;
  const filled = route.replace(/\[[^\]]+\]/g, (segment) => {
    const value = ROUTE_VALUES[segment];
    if (!value) unresolved = true;
    return value ? value(fixture) : segment;
  });
  return unresolved ? null : filled;
}

async function measure(page: Page): Promise<{ scrollWidth: number; innerWidth: number; offenders: string[] }> {
  return page.evaluate(() => {
    const innerWidth = window.innerWidth;
    const offenders: string[] = [];
    // An element inside a box that scrolls or clips sideways (a tab row, a code sample) does not widen the page.
    const contained = (el: Element): boolean => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') return true;
      }
      return false;
    };
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const rect = el.getBoundingClientRect();
      if (rect.width > 0 && rect.right > innerWidth + 1 && offenders.length < 5 && !contained(el)) {
        const id = el.id ? `#${el.id}` : '';
        const cls = typeof el.className === 'string' && el.className ? `.${el.className.split(/\s+/).slice(0, 3).join('.')}` : '';
        offenders.push(`${el.tagName.toLowerCase()}${id}${cls} (right ${Math.round(rect.right)})`);
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth, offenders };
  });
}

/** Pages photographed at both widths and scanned with axe on the phone, by file name. */
const SHOTS = (f: Fixture): [string, string][] => [
  ['legal-terms', '/terms'],
  ['legal-privacy', '/privacy'],
  ['legal-refunds', '/refunds'],
  ['account', '/account'],
  ['account-keys', '/account/keys'],
  ['key-rename', `/account/keys/${f.keyId}/rename`],
  ['subscription', `/account/subscriptions/${f.subscriptionId}`],
  ['plan-change-confirm', `/account/subscriptions/${f.subscriptionId}/change?plan=${f.planId}`],
  ['catalogue-past-last-page', '/knowledge-bases?page=99'],
  ['catalogue-bad-parameter', '/knowledge-bases?page=abc'],
];

const screenshot = (page: Page, name: string, width: number) =>
  page.screenshot({ path: path.resolve(`e2e/artifacts/screenshots/${name}-${width}.png`), fullPage: true });

test('every page fits a 390 px phone without sideways scrolling; the new pages pass axe and are photographed at both widths', async ({ page, request }) => {
  test.setTimeout(360_000);
  const kb = (await listViaApi(request, 'query=constitution&category=legal')).items.find((i) => i.title === 'U.S. Constitution Companion')!;
  const detail = await (await request.get(`/api/marketplace/knowledge-bases/${kb.id}`)).json();
  const other = (await listViaApi(request)).items.find((i) => i.id !== kb.id)!;
  const otherPlans: { id: string; priceCents: number }[] = (await (await request.get(`/api/marketplace/knowledge-bases/${other.id}`)).json()).plans;
  const email = await signedInBuyer(page);
  await page.setViewportSize(PHONE);
  const subscriptionId = subscribeThroughCli(email, kb.id);
  // A second, named key, so the key tables hold two rows.
  await page.goto(`/account/subscriptions/${subscriptionId}`);
  await page.getByLabel("New key's name (optional)").fill('a rather long key name for a small screen');
  await page.getByRole('button', { name: 'Create replacement key' }).click();
  await expect(page).toHaveURL(/\/account\/keys\/reveal\?handoff=/);
  await page.goto('/account/keys');
  const keyId = (await page.locator('[data-testid^="key-row-"]').first().getAttribute('data-testid'))!.replace('key-row-', '');
  const fixture: Fixture = {
    kbId: kb.id,
    publisherPath: await publisherPathOf(request, kb.id),
    planId: detail.plans.find((p: { name: string }) => p.name === 'Professional').id,
    subscriptionId,
    keyId,
    checkoutPlanId: otherPlans.find((p) => p.priceCents > 0)!.id,
  };

  const routes = discoverPageRoutes();
  const unresolved = routes.filter((r) => pathFor(r, fixture) === null);
  expect(unresolved, 'add these routes to ROUTE_VALUES in e2e/phone-widths.spec.ts').toEqual([]);
  const shots = SHOTS(fixture);
  const paths = [...new Set([...routes.map((r) => pathFor(r, fixture)!), ...EXTRA_PATHS(fixture), ...shots.map(([, p]) => p)])];

  const tooWide: string[] = [];
  for (const p of paths) {
    await page.goto(p, { waitUntil: 'load' });
    const m = await measure(page);
    if (m.scrollWidth > m.innerWidth)
      tooWide.push(`${p} → ${page.url().replace(/^https?:\/\/[^/]+/, '')}: ${m.scrollWidth} px > ${m.innerWidth} px; ${m.offenders.join(', ')}`);
    const shot = shots.find(([, s]) => s === p);
    if (shot) {
      await screenshot(page, shot[0], PHONE.width);
      await expectNoSeriousA11yViolations(page, `${shot[0]} at ${PHONE.width} px`);
    }
  }
  expect(tooWide).toEqual([]);
  expect(paths.length).toBeGreaterThan(25);

  await page.setViewportSize(DESKTOP);
  for (const [name, p] of shots) {
    await page.goto(p, { waitUntil: 'load' });
    await screenshot(page, name, DESKTOP.width);
  }
  // The small things: the catalogue speaks to people, not API clients.
  await page.goto('/knowledge-bases?page=abc');
  await expect(page.locator('main').getByRole('alert')).toContainText('That page number does not exist');
  await expect(page.locator('main').getByRole('alert')).not.toContainText('Invalid "page"');
  await page.goto('/knowledge-bases?page=99');
  await expect(page.locator('main').getByRole('status').first()).toContainText('past the last page');
  await expect(page.getByRole('link', { name: 'Go to the last page' })).toBeVisible();
});

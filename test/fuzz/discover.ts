import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { encodeForm, parseForms, type FormTarget } from '../support/html-forms';
import { send, type WireRequest, type WireResponse } from './wire';

/**
 * What the fuzz aims at, found on the running server the way a visitor finds it: the routes of app/ (every page and
 * route handler, so a new one is fuzzed without touching the fuzz), real ids from the public API and the pages, a
 * signed-up buyer with a test purchase (session cookie and API key), and every form those pages render, with the
 * server-action ids Next embeds in them.
 */

interface RouteTemplate {
  /** `/knowledge-bases/[kbId]`, `/api/[[...path]]`. */
  template: string;
  kind: 'page' | 'route';
}

export interface FuzzTargets {
  routes: RouteTemplate[];
  kbIds: string[];
  planIds: string[];
  slugs: string[];
  subscriptionIds: string[];
  keyIds: string[];
  cookie: string;
  /** The buyer's test key, for keyed cases that reach past authentication. */
  apiKey: string;
  forms: FormTarget[];
  actionIds: string[];
  /** Pages worth fetching, with real ids: the seeds of page cases. */
  pages: string[];
}

const APP = path.resolve(import.meta.dirname, '..', '..', 'app');

/** Route groups left out. */
function appRoutes(dir = APP): RouteTemplate[] {
  const out: RouteTemplate[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...appRoutes(full));
    else if (/^(page|route)\.tsx?$/.test(name)) {
      const segments = path
        .relative(APP, dir)
        .split(path.sep)
        .filter((s) => s && !/^\(.*\)$/.test(s));
      out.push({ template: `/${segments.join('/')}`, kind: name.startsWith('page') ? 'page' : 'route' });
    }
  }
  return out;
}

interface Fetched extends WireResponse {
  text: string;
}

class Browser {
  cookie = '';
  constructor(private base: URL) {}

  async fetch(method: string, target: string, options: { headers?: [string, string][]; body?: Buffer; cookie?: boolean } = {}): Promise<Fetched> {
    const headers: [string, string][] = [...(options.headers ?? [])];
    if (options.cookie !== false && this.cookie) headers.push(['Cookie', this.cookie]);
    const request: WireRequest = { method, path: target, headers, body: options.body };
    const result = await send(this.base, request);
    if (!result.ok) throw new Error(`${method} ${target}: ${result.error}`);
    for (const line of [result.response.headers['set-cookie'] ?? []].flat()) {
      const [pair] = line.split(';');
      if (pair && /session-token=./.test(pair)) this.cookie = pair;
    }
    return { ...result.response, text: result.response.body.toString('utf8') };
  }
}

const unique = <T>(items: T[]) => [...new Set(items)];
const matches = (text: string, pattern: RegExp) => unique([...text.matchAll(pattern)].map((m) => m[1]!));

export interface DiscoverOptions {
  /** The verification link the sign-up's email carried (docs/api.md §11.3: a new account signs in by confirming it). */
  confirmationLink?: (email: string) => Promise<string>;
}

export async function discoverTargets(baseUrl: string, options: DiscoverOptions = {}): Promise<FuzzTargets> {
  const base = new URL(baseUrl);
  const browser = new Browser(base);
  const origin = base.origin;

  const listing = JSON.parse((await browser.fetch('GET', '/api/marketplace/knowledge-bases?pageSize=50')).text) as { items: { id: string }[] };
  const kbIds = listing.items.map((item) => item.id);
  if (kbIds.length === 0) throw new Error('the server lists no knowledge base: the fuzz needs the seeded sample marketplace');
  const planIds: string[] = [];
  for (const kbId of kbIds.slice(0, 3)) {
    const detail = JSON.parse((await browser.fetch('GET', `/api/marketplace/knowledge-bases/${kbId}`)).text) as { plans: { id: string }[] };
    planIds.push(...detail.plans.map((plan) => plan.id));
  }
  const kbPage = await browser.fetch('GET', `/knowledge-bases/${kbIds[0]}`);
  const slugs = matches(kbPage.text, /href="\/publishers\/([^"?#]+)"/g);

  const forms: FormTarget[] = [];
  const collect = async (page: string, signedIn: boolean): Promise<Fetched> => {
    const fetched = await browser.fetch('GET', page, { cookie: signedIn });
    forms.push(...parseForms(fetched.text, page, signedIn));
    return fetched;
  };
  for (const page of ['/', '/knowledge-bases', `/knowledge-bases/${kbIds[1] ?? kbIds[0]}`, `/publishers/${slugs[0] ?? 'none'}`, '/signin'])
    await collect(page, false);

  // A buyer of our own: sign up through the form, as a browser without JavaScript does.
  const signUpPage = await collect('/signup', false);
  const signUpForm = parseForms(signUpPage.text, '/signup', false).find((form) => form.fields.some(([name]) => name === 'password'));
  if (!signUpForm) throw new Error('no sign-up form on /signup');
  const email = `fuzz-${Date.now().toString(36)}@example.test`;
  const signUp = encodeForm(signUpForm, { email, password: 'fuzz password 1234', name: 'Fuzz' });
  await browser.fetch('POST', '/signup', {
    headers: [
      ['Origin', origin],
      ['Content-Type', signUp.contentType],
    ],
    body: signUp.body,
  });
  if (!browser.cookie && options.confirmationLink) {
    // The emailed link's page holds one form ("Confirm my email address"); submitting it signs the account in.
    const link = new URL(await options.confirmationLink(email));
    const linkPath = `${link.pathname}${link.search}`;
    const confirmForm = parseForms((await browser.fetch('GET', linkPath)).text, linkPath, false)[0];
    if (!confirmForm) throw new Error(`no confirmation form on ${link.pathname}`);
    const confirm = encodeForm(confirmForm);
    await browser.fetch('POST', confirmForm.action, {
      headers: [
        ['Origin', origin],
        ['Content-Type', confirm.contentType],
      ],
      body: confirm.body,
    });
  }
  if (!browser.cookie) throw new Error('signing up gave no session cookie');

  // A test purchase: the Buy form's target, then the test checkout's form.
  const start = await browser.fetch('POST', '/checkout/start', {
    headers: [
      ['Origin', origin],
      ['Content-Type', 'application/x-www-form-urlencoded'],
    ],
    body: Buffer.from(new URLSearchParams({ planId: planIds[0]! }).toString()),
  });
  const testCheckout = String(start.headers.location ?? '');
  if (!testCheckout.startsWith('/checkout/test')) throw new Error(`the Buy form led to ${start.status} ${testCheckout}, not the test checkout`);
  const checkoutPage = await collect(testCheckout, true);
  const purchaseForm = parseForms(checkoutPage.text, testCheckout, true).find((form) => form.actionId && form.fields.some(([name]) => name === 'planId'));
  if (!purchaseForm) throw new Error('no purchase form on the test checkout');
  const purchase = encodeForm(purchaseForm);
  const bought = await browser.fetch('POST', testCheckout, {
    headers: [
      ['Origin', origin],
      ['Content-Type', purchase.contentType],
    ],
    body: purchase.body,
  });
  const success = String(bought.headers.location ?? '');
  const successPage = await collect(success || '/checkout/success', true);
  const apiKey = /alm_sk_test_[0-9A-Za-z]{38}/.exec(successPage.text)?.[0];
  if (!apiKey) throw new Error(`no key revealed after the test purchase (${bought.status} → ${success})`);

  const account = await collect('/account', true);
  const subscriptionIds = matches(account.text, /href="\/account\/subscriptions\/(sub_[0-9A-Za-z]+)/g);
  for (const id of subscriptionIds) await collect(`/account/subscriptions/${id}`, true);
  const keysPage = await collect('/account/keys', true);
  const keyIds = matches(keysPage.text, /href="\/account\/keys\/(key_[0-9A-Za-z]+)\/revoke"/g);
  for (const id of keyIds) await collect(`/account/keys/${id}/revoke`, true);
  await collect(`/knowledge-bases/${kbIds[0]}`, true);

  // The header's sign-out form is on every signed-in page: posted with the buyer's cookie it would end the session
  // every later signed-in case needs, so it is fuzzed signed out.
  const pagesOf = new Map<string, Set<string>>();
  for (const form of forms) if (form.signedIn && form.actionId) pagesOf.set(form.actionId, (pagesOf.get(form.actionId) ?? new Set()).add(form.page));
  const signedInPages = new Set(forms.filter((form) => form.signedIn).map((form) => form.page)).size;
  const onEveryPage = [...pagesOf].filter(([, pages]) => pages.size === signedInPages).map(([id]) => id);
  for (const form of forms) if (form.actionId && onEveryPage.includes(form.actionId)) form.signedIn = false;

  const pages = unique([
    '/',
    '/knowledge-bases',
    `/knowledge-bases?query=tides&category=health&sort=new&page=2`,
    ...kbIds.slice(0, 5).map((id) => `/knowledge-bases/${id}`),
    ...slugs.slice(0, 3).map((slug) => `/publishers/${slug}`),
    '/signin',
    '/signup',
    '/account',
    '/account/keys',
    '/account/keys/reveal?handoff=x',
    ...subscriptionIds.map((id) => `/account/subscriptions/${id}`),
    ...keyIds.map((id) => `/account/keys/${id}/revoke`),
    `/checkout/test?planId=${planIds[1] ?? planIds[0]}`,
    '/checkout/success?handoff=x',
  ]);

  return {
    routes: appRoutes(),
    kbIds,
    planIds,
    slugs,
    subscriptionIds,
    keyIds,
    cookie: browser.cookie,
    apiKey,
    forms: uniqueForms(forms),
    actionIds: unique(forms.flatMap((form) => (form.actionId ? [form.actionId] : []))),
    pages,
  };
}

function uniqueForms(forms: FormTarget[]): FormTarget[] {
  const seen = new Set<string>();
  return forms.filter((form) => {
    const key = `${form.page} ${form.action} ${form.actionId ?? ''} ${form.fields.map(([n]) => n).join(',')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

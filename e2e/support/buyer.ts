import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { signUpOverHttp } from './auth';
import { submitPageForm } from './http-forms';

// Buyers with a confirmed address, and test subscriptions made through the operator CLI (no checkout to click through).
const ROOT = path.resolve(import.meta.dirname, '..', '..');

function almanac(args: string[]): string {
  return execFileSync(process.execPath, ['scripts/run.mjs', 'almanac', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '', LOG_LEVEL: 'error', LOG_FILE: '' },
  });
}

export function subscribeThroughCli(email: string, kbId: string): string {
  const output = almanac(['create-subscription', '--email', email, '--kb', kbId, '--test']);
  const id = /Subscription (sub_[A-Za-z0-9]+)/.exec(output)?.[1];
  if (!id) throw new Error(`create-subscription printed no subscription id:\n${output}`);
  return id;
}

/** Signed in for the page's browser context; made over HTTP (signUpOverHttp). */
export async function verifiedBuyer(page: Page): Promise<string> {
  return (await signUpOverHttp(page.request)).email;
}

/**
 * A test purchase for the buyer signed in on `request`, over HTTP: the Buy form's post, then the test checkout's form
 * (journey.spec.ts and account-recovery.spec.ts buy in the browser). The key, shown once, and the subscription's page.
 */
export async function buyOverHttp(request: APIRequestContext, kbId: string, planName: string): Promise<{ apiKey: string; subscriptionPath: string }> {
  const answer = await request.get(`/api/marketplace/knowledge-bases/${kbId}`);
  const plan = ((await answer.json()) as { plans: { id: string; name: string }[] }).plans.find((p) => p.name === planName);
  if (!plan) throw new Error(`no plan "${planName}" on ${kbId}`);
  // The route refuses a post from another site; a browser sends its own origin.
  const started = await request.post('/checkout/start', { form: { planId: plan.id }, headers: { Origin: new URL(answer.url()).origin }, maxRedirects: 0 });
  expect(started.headers().location).toMatch(/^\/checkout\/test\?planId=/);
  const bought = await submitPageForm(request, started.headers().location!, 'planId');
  expect(bought.headers().location).toMatch(/^\/checkout\/success\?handoff=/);
  const reveal = await (await request.get(bought.headers().location!)).text();
  const apiKey = /alm_sk_test_[0-9A-Za-z]{38}/.exec(reveal)?.[0];
  const subscriptionPath = /href="(\/account\/subscriptions\/sub_[0-9A-Za-z]+)"/.exec(reveal)?.[1];
  if (!apiKey || !subscriptionPath) throw new Error('the test checkout revealed no key or no subscription link');
  return { apiKey, subscriptionPath };
}

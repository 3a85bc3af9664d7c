import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { newAccount, signUp } from './auth';

/**
 * Buyers for journeys that need a confirmed address and a subscription: the sign-up of e2e/support/auth.ts, and a
 * test subscription made through the operator CLI (no checkout to click through).
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * Runs the operator CLI as `npm run almanac` does (the compiled CLI of a current build, else the source through tsx)
 * against the server's embedded database (it shares it over a local socket).
 */
function almanac(args: string[]): string {
  return execFileSync(process.execPath, ['scripts/run.mjs', 'almanac', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '', LOG_LEVEL: 'error', LOG_FILE: '' },
  });
}

/** A test subscription for the account, made through the operator CLI. */
export function subscribeThroughCli(email: string, kbId: string): string {
  const output = almanac(['create-subscription', '--email', email, '--kb', kbId, '--test']);
  const id = /Subscription (sub_[A-Za-z0-9]+)/.exec(output)?.[1];
  if (!id) throw new Error(`create-subscription printed no subscription id:\n${output}`);
  return id;
}

/** A fresh account with a confirmed address (the email link of e2e/support/auth.ts), signed in; its email. */
export async function verifiedBuyer(page: Page): Promise<string> {
  return (await signUp(page, newAccount(), '/account')).email;
}

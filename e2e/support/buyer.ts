import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { signUpOverHttp } from './auth';

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

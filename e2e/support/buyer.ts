import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { newAccount } from './auth';

/**
 * Buyers for journeys that need a confirmed address (buying, keys): sign-up through the real form, then the link of
 * the confirmation email read from the outbox through the operator CLI (the e2e server has no SMTP server).
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLI = path.join(ROOT, 'node_modules', '.bin', 'tsx');

/** Runs the operator CLI against the server's embedded database (it shares it over a local socket). */
export function almanac(args: string[]): string {
  return execFileSync(CLI, ['scripts/almanac.ts', ...args], {
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

/**
 * A fresh account with a confirmed address, signed in: sign-up through the form, then the confirmation link of the
 * email it sent, read from the outbox (no SMTP server in the e2e run), which confirms and signs in.
 */
export async function verifiedBuyer(page: Page): Promise<string> {
  const account = newAccount();
  await page.goto('/signup');
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForLoadState('networkidle');
  const mail = JSON.parse(almanac(['outbox', '--to', account.email, '--json'])) as { text: string }[];
  const link = mail.map((m) => /https?:\/\/\S*\/verify-email\?token=\S+/.exec(m.text)?.[0]).find(Boolean);
  if (!link) throw new Error(`no confirmation link for ${account.email} in the outbox`);
  await page.goto(new URL(link).pathname + new URL(link).search);
  const confirm = page.getByRole('button', { name: /confirm/i });
  if (await confirm.isVisible()) await confirm.click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  return account.email;
}


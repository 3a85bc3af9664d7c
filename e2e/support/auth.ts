import { expect, type Page } from '@playwright/test';

let counter = 0;

/** A fresh, unique account per call (the e2e database is new for every run). */
export function newAccount(): { email: string; password: string; name: string } {
  counter += 1;
  return { email: `buyer-${Date.now()}-${counter}@example.test`, password: 'e2e password that is long', name: `E2E Buyer ${counter}` };
}

/** Signs up through the real form and waits until the header shows the account. */
export async function signUp(page: Page, account = newAccount(), callbackUrl = '/'): Promise<{ email: string; password: string; name: string }> {
  await page.goto(`/signup?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  // Type only once React has hydrated the form, so hydration cannot wipe what was typed.
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Name (optional)').fill(account.name);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('banner').getByText(account.email)).toBeVisible();
  return account;
}

export async function signIn(page: Page, account: { email: string; password: string }, callbackUrl = '/'): Promise<void> {
  await page.goto(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('banner').getByText(account.email)).toBeVisible();
}

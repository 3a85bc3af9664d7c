import { expect, type Page } from '@playwright/test';
import { waitForMail } from './mail';

let counter = 0;

/** The worker's index is in the address: two workers calling in the same millisecond would otherwise collide. */
export function newAccount(): { email: string; password: string; name: string } {
  counter += 1;
  const worker = process.env.TEST_WORKER_INDEX ?? '0';
  return { email: `buyer-${Date.now()}-${worker}-${counter}@example.test`, password: 'e2e password that is long', name: `E2E Buyer ${counter}` };
}

export async function signUp(page: Page, account = newAccount(), callbackUrl = '/'): Promise<{ email: string; password: string; name: string }> {
  await page.goto(`/signup?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  // Type only once React has hydrated the form, so hydration cannot wipe what was typed.
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Name (optional)').fill(account.name);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await confirmSignUpByEmail(page, account.email);
  await expect(page.getByRole('banner').getByText(account.email)).toBeVisible();
  return account;
}

export async function confirmSignUpByEmail(page: Page, email: string): Promise<void> {
  await expect(page.getByText('Check your inbox')).toBeVisible();
  const mail = await waitForMail(email, 'Confirm your email address');
  expect(mail.link).toMatch(/\/verify-email\?token=[0-9A-Za-z]{32}/);
  await page.goto(mail.link!);
  await page.getByRole('button', { name: 'Confirm my email address' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/verify-email'));
  if (['/account', '/account/settings', '/account/keys'].includes(new URL(page.url()).pathname))
    await expect(page.getByText('Your email address is confirmed')).toBeVisible();
}

export async function signIn(page: Page, account: { email: string; password: string }, callbackUrl = '/'): Promise<void> {
  await page.goto(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('banner').getByText(account.email)).toBeVisible();
}

import { expect, type APIRequestContext, type APIResponse, type Page } from '@playwright/test';
import { submitPageForm } from './http-forms';
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

/**
 * A new account, confirmed and signed in for `request`'s cookies (`page.request` signs the page's browser context in),
 * made over HTTP: the sign-up form, then the emailed link's form. For specs whose subject comes after signing up; the
 * pages of signing up are driven in the browser by signUp, in journey.spec.ts, marketplace-accounts.spec.ts and
 * account-recovery.spec.ts.
 */
export async function signUpOverHttp(request: APIRequestContext, account = newAccount()): Promise<{ email: string; password: string; name: string }> {
  const sent = await submitPageForm(request, '/signup', 'password', account);
  expect(await sent.text()).toContain('Check your inbox');
  const mail = await waitForMail(account.email, 'Confirm your email address');
  expect(mail.link).toMatch(/\/verify-email\?token=[0-9A-Za-z]{32}/);
  await expectSignedIn(await submitPageForm(request, mail.link!, 'token'));
  return account;
}

/** Whether the account could sign in, over HTTP (the sign-in page is driven in marketplace-accounts.spec.ts). */
export async function signInOverHttp(request: APIRequestContext, account: { email: string; password: string }): Promise<boolean> {
  const answer = await submitPageForm(request, '/signin', 'password', account);
  if (answer.status() !== 303) return false;
  await expectSignedIn(answer);
  return true;
}

/** A session starts with a redirect that sets its cookie. */
async function expectSignedIn(answer: APIResponse): Promise<void> {
  expect(answer.status()).toBe(303);
  expect(answer.headersArray().find((h) => h.name.toLowerCase() === 'set-cookie' && /session-token=[^;]/.test(h.value))).toBeDefined();
}

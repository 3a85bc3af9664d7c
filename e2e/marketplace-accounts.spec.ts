import { expect, request as playwrightRequest, test } from '@playwright/test';
import { newAccount, signIn, signUp, signUpOverHttp } from './support/auth';
import { waitForMail } from './support/mail';

test('sign up, see the account in the header and in next-auth’s session, sign out', async ({ page }) => {
  const account = await signUp(page, newAccount(), '/knowledge-bases');
  await expect(page).toHaveURL(/\/knowledge-bases$/);
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/account');
  await expect(header.getByRole('link', { name: 'Sign in' })).toHaveCount(0);

  const session = await (await page.request.get('/api/auth/session')).json();
  expect(session.user).toMatchObject({ email: account.email, name: account.name });
  expect(session.user.id).toMatch(/^usr_/);

  // Signed-in visitors are sent on from the sign-in page.
  await page.goto('/signin?callbackUrl=%2Fknowledge-bases');
  await expect(page).toHaveURL(/\/knowledge-bases$/);

  // A copy of the session cookie, as someone who read it off this browser would keep it.
  const copied = (await page.context().cookies()).find((c) => c.name.endsWith('next-auth.session-token'))!;
  expect(copied).toBeDefined();

  await header.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('You are signed out.')).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
  expect(await (await page.request.get('/api/auth/session')).json()).toEqual({});

  // Signing out ended the session itself, not only this browser's cookie: the copy no longer works.
  const thief = await playwrightRequest.newContext({ baseURL: new URL(page.url()).origin });
  const stolen = await thief.get('/api/auth/session', { headers: { cookie: `${copied.name}=${copied.value}` } });
  expect(await stolen.json()).toEqual({});
  const dashboard = await thief.get('/account', { headers: { cookie: `${copied.name}=${copied.value}` }, maxRedirects: 0 });
  expect(dashboard.status()).toBe(307);
  expect(dashboard.headers().location).toMatch(/^\/signin\?callbackUrl=/);
  await thief.dispose();
});

// The accounts below are made over HTTP with the `request` fixture, whose cookies are not the browser's: the page
// stays signed out without the round trip through sign-up and sign-out, which the first test drives.

test('sign-up errors appear next to their fields and keep what was typed', async ({ page, request }) => {
  const taken = await signUpOverHttp(request);

  await page.goto('/signup');
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill('new-person@example.test');
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  const password = page.getByLabel('Password');
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Use at least 10 characters.')).toBeVisible();
  await expect(password).toHaveAccessibleDescription('Use at least 10 characters.');
  await expect(page.getByLabel('Email')).toHaveValue('new-person@example.test');

  await page.getByLabel('Password').fill('password123');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('one of the most common ones')).toBeVisible();

  // A taken address gets the same answer as a new one (docs/api.md §11.3); its owner is told by email.
  await page.getByLabel('Email').fill(taken.email.toUpperCase());
  await page.getByLabel('Password').fill('a perfectly long password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Check your inbox')).toBeVisible();
  await waitForMail(taken.email, 'Someone tried to create an Almanac account');
});

test('sign in: wrong password is refused, the right one returns to the callback page', async ({ page, request }) => {
  const account = await signUpOverHttp(request);

  await page.goto('/signin');
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('form').getByRole('alert')).toHaveText('That email and password do not match an account.');
  await expect(page.getByLabel('Email')).toHaveValue(account.email);

  await signIn(page, account, '/knowledge-bases?category=legal');
  await expect(page).toHaveURL(/\/knowledge-bases\?category=legal$/);
});

test('an outside callback URL is ignored (no open redirect)', async ({ page, request, baseURL }) => {
  const account = await signUpOverHttp(request);
  await signIn(page, account, 'https://evil.example.test/steal');
  // The fallback destination is the account dashboard on this site.
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
  expect(new URL(page.url()).pathname).toBe('/account');
  // Signed in, the sign-in page sends the visitor on at once: the open-redirect payload (`/\t/evil.example`, which a browser
  // reads as //evil.example) and its relatives stay on this site.
  for (const callbackUrl of ['%2F%09%2Fevil.example', '%2F%5Cevil.example', '%2F..%2F%2Fevil.example', '%2F%0A%2Fevil.example']) {
    await page.goto(`/signin?callbackUrl=${callbackUrl}`);
    expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
    expect(new URL(page.url()).pathname).toBe('/account');
  }
});

test('brute force: after five attempts for one email from one address, sign-in waits even with the right one', async ({ page, request }) => {
  const account = await signUpOverHttp(request);

  await page.goto('/signin');
  await page.waitForLoadState('networkidle');
  const alert = page.locator('form').getByRole('alert');
  for (let i = 0; i < 5; i++) {
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(`wrong guess number ${i}`);
    // The message repeats, so wait for each server action's answer rather than for a text change.
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/signin'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    await expect(alert).toHaveText('That email and password do not match an account.');
    // React resets the form once the action settles; typing before that would be wiped.
    await expect(page.getByLabel('Password')).toHaveValue('');
  }
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The first tier is five attempts a minute per account and address (lib/accounts/sign-in-limiter.ts); the wait then
  // grows with further guessing, and other addresses are not affected (test/integration/auth-sign-in-limits.test.ts).
  await expect(alert).toHaveText(/^Too many failed attempts\. Try again in (1 minute|[1-5]?\d seconds?)\.$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
});

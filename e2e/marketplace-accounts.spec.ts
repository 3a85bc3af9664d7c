import { expect, test } from '@playwright/test';
import { newAccount, signIn, signUp } from './support/auth';

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

  await header.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('You are signed out.')).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
  expect(await (await page.request.get('/api/auth/session')).json()).toEqual({});
});

test('sign-up errors appear next to their fields and keep what was typed', async ({ page }) => {
  const taken = await signUp(page);
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('You are signed out.')).toBeVisible();

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

  await page.getByLabel('Email').fill(taken.email.toUpperCase());
  await page.getByLabel('Password').fill('a perfectly long password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByLabel('Email')).toHaveAccessibleDescription(/already exists/);
});

test('sign in: wrong password is refused, the right one returns to the callback page', async ({ page }) => {
  const account = await signUp(page);
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('You are signed out.')).toBeVisible();

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

test('an outside callback URL is ignored (no open redirect)', async ({ page, baseURL }) => {
  const account = await signUp(page);
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('You are signed out.')).toBeVisible();
  await signIn(page, account, 'https://evil.example.test/steal');
  // The fallback destination is the account dashboard on this site.
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
  expect(new URL(page.url()).pathname).toBe('/account');
});

test('brute force: after five wrong passwords for one email, sign-in waits even with the right one', async ({ page }) => {
  const account = await signUp(page);
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('You are signed out.')).toBeVisible();

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
  await expect(alert).toHaveText(/^Too many failed attempts\. Try again in 1[45] minutes\.$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
});

import { expect } from '@playwright/test';
import type { FakeGoogleAccount } from '../test/support/fake-google';
import { newAccount, signUp } from './support/auth';
import { continueWith, expectSignInRefused, oauthTest as test, sessionUserId, signOut } from './support/oauth-app';

/**
 * Signing in with Google (OpenID Connect), end to end against a local fake of Google (test/support/fake-google.ts):
 * discovery, PKCE and a signed ID token whose `email_verified` claim decides linking (lib/accounts/users.ts).
 */

const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
const googleAccount = (email: string, emailVerified: boolean): FakeGoogleAccount => ({
  sub: String(100_000_000_000 + Math.floor(Math.random() * 1e9)),
  email,
  emailVerified,
  name: 'Grace Hopper',
});

test('a first Google sign-in creates the account; signing in again lands on the same user', async ({ page, oauthApp }) => {
  const google = googleAccount(uniqueEmail('grace'), true);
  oauthApp.google.signInAs(google);
  await continueWith(page, 'Google');
  await expect(page).toHaveURL(`${oauthApp.url}/account`);
  await expect(page.getByText(`Signed in as ${google.email}`)).toBeVisible();
  const firstId = await sessionUserId(page);

  await signOut(page);
  await continueWith(page, 'Google');
  await expect(page.getByText(`Signed in as ${google.email}`)).toBeVisible();
  expect(await sessionUserId(page)).toBe(firstId);
  const links = await oauthApp.query("select user_id from oauth_accounts where provider = 'google' and provider_account_id = $1", [google.sub]);
  expect(links).toEqual([{ user_id: firstId }]);
});

test('a verified Google email joins the password account with that email', async ({ page, oauthApp }) => {
  const account = { ...newAccount(), email: uniqueEmail('ada') };
  await signUp(page, account);
  const passwordUserId = await sessionUserId(page);
  await signOut(page);

  oauthApp.google.signInAs(googleAccount(account.email, true));
  await continueWith(page, 'Google');
  await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();
  expect(await sessionUserId(page)).toBe(passwordUserId);
  expect(await oauthApp.query('select id from users where email = $1', [account.email])).toEqual([{ id: passwordUserId }]);
});

test('email_verified false on an address with an account is refused with a message', async ({ page, oauthApp }) => {
  const account = { ...newAccount(), email: uniqueEmail('hedy') };
  await signUp(page, account);
  await signOut(page);

  const google = googleAccount(account.email, false);
  oauthApp.google.signInAs(google);
  await continueWith(page, 'Google');
  await expectSignInRefused(page, 'Google has not verified the email address of your account');
  expect(await oauthApp.query('select 1 from oauth_accounts where provider_account_id = $1', [google.sub])).toEqual([]);
});

test('cancelling at Google returns to the sign-in page with a message; no secret reaches the logs', async ({ page, oauthApp }) => {
  oauthApp.google.signInAs(googleAccount(uniqueEmail('shy'), true));
  oauthApp.google.denyNextAuthorization();
  await continueWith(page, 'Google');
  await expectSignInRefused(page, 'Sign-in with Google was cancelled');

  const output = oauthApp.output();
  for (const secret of oauthApp.google.secrets()) {
    expect(output.includes(secret), `a Google secret (${secret.slice(0, 8)}…) appears in the server output`).toBe(false);
  }
});

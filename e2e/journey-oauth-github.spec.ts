import { expect, test } from '@playwright/test';
import type { FakeGitHubAccount } from '../test/support/fake-github';
import { newAccount, signUp } from './support/auth';
import { continueWith, expectSignInRefused, oauthTest, sessionUserId, signOut, type OAuthApp } from './support/oauth-app';

/**
 * Signing in with GitHub, end to end without the network: the browser goes through next-auth's real GitHub provider
 * to a local fake of GitHub (test/support/fake-github.ts) and back. The linking rule under test is lib/accounts/users.ts
 * `signInWithOAuth`: link or create only for GitHub's verified primary email.
 */

let nextGitHubId = 7_000_000 + Math.floor(Math.random() * 1_000_000);
function gitHubAccount(email: string, verified: boolean): FakeGitHubAccount {
  nextGitHubId += 1;
  return { id: nextGitHubId, login: `octo-${nextGitHubId}`, name: 'Octo Cat', emails: [{ email, primary: true, verified }] };
}

const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;

async function accountRows(app: OAuthApp, email: string, gitHubId: number) {
  const users = await app.query<{ id: string; password_hash: string | null }>('select id, password_hash from users where email = $1', [email]);
  const links = await app.query<{ user_id: string }>("select user_id from oauth_accounts where provider = 'github' and provider_account_id = $1", [
    String(gitHubId),
  ]);
  return { users, links };
}

test('without GitHub configured, the sign-in and sign-up pages offer no GitHub button', async ({ page }) => {
  for (const path of ['/signin', '/signup']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: /GitHub/ })).toHaveCount(0);
  }
});

oauthTest.describe('with GitHub configured', () => {
  oauthTest('the sign-up page offers GitHub too', async ({ page }) => {
    await page.goto('/signup');
    await expect(page.getByRole('button', { name: 'Continue with GitHub' })).toBeVisible();
  });

  oauthTest('a first GitHub sign-in creates the account; signing in again lands on the same user', async ({ page, oauthApp }) => {
    const email = uniqueEmail('octo');
    const github = gitHubAccount(email, true);
    oauthApp.github.signInAs(github);

    await continueWith(page, 'GitHub');
    await expect(page).toHaveURL(`${oauthApp.url}/account`);
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    const firstId = await sessionUserId(page);
    expect(firstId).toMatch(/^usr_/);

    await signOut(page);
    expect(await sessionUserId(page)).toBeNull();
    await continueWith(page, 'GitHub');
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    expect(await sessionUserId(page)).toBe(firstId);

    const { users, links } = await accountRows(oauthApp, email, github.id);
    expect(users).toEqual([{ id: firstId, password_hash: null }]);
    expect(links).toEqual([{ user_id: firstId }]);
  });

  oauthTest('a password account with the same verified email gains GitHub as a way in, not a second account', async ({ page, oauthApp }) => {
    const account = { ...newAccount(), email: uniqueEmail('ada') };
    await signUp(page, account);
    const passwordUserId = await sessionUserId(page);
    await signOut(page);

    const github = gitHubAccount(account.email, true);
    oauthApp.github.signInAs(github);
    await continueWith(page, 'GitHub');
    await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();
    expect(await sessionUserId(page)).toBe(passwordUserId);

    const { users, links } = await accountRows(oauthApp, account.email, github.id);
    expect(users).toHaveLength(1);
    expect(users[0]!.id).toBe(passwordUserId);
    expect(users[0]!.password_hash).toMatch(/^\$argon2id\$/);
    expect(links).toEqual([{ user_id: passwordUserId }]);
  });

  oauthTest('an unverified GitHub email that matches an account is refused with a message, and nothing is linked', async ({ page, oauthApp }) => {
    const account = { ...newAccount(), email: uniqueEmail('grace') };
    await signUp(page, account);
    await signOut(page);

    const github = gitHubAccount(account.email, false);
    oauthApp.github.signInAs(github);
    await continueWith(page, 'GitHub');
    await expectSignInRefused(page, 'GitHub has not verified the email address of your account');

    const { users, links } = await accountRows(oauthApp, account.email, github.id);
    expect(users).toHaveLength(1);
    expect(links).toEqual([]);
  });

  oauthTest('an unverified GitHub email without an account is refused too, and no account is made', async ({ page, oauthApp }) => {
    const email = uniqueEmail('unclaimed');
    const github = gitHubAccount(email, false);
    oauthApp.github.signInAs(github);
    await continueWith(page, 'GitHub');
    await expectSignInRefused(page, 'GitHub has not verified the email address of your account');
    expect(await accountRows(oauthApp, email, github.id)).toEqual({ users: [], links: [] });
  });

  oauthTest('cancelling at GitHub returns to the sign-in page with a message', async ({ page, oauthApp }) => {
    oauthApp.github.signInAs(gitHubAccount(uniqueEmail('shy'), true));
    oauthApp.github.denyNextAuthorization();
    await continueWith(page, 'GitHub');
    await expectSignInRefused(page, 'Sign-in with GitHub was cancelled');
    // The page still works: the next attempt goes through.
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Continue with GitHub' }).click();
    await expect(page).toHaveURL(`${oauthApp.url}/account`);
  });

  oauthTest('a GitHub outage during sign-in returns to the sign-in page with a message', async ({ page, oauthApp }) => {
    oauthApp.github.signInAs(gitHubAccount(uniqueEmail('outage'), true));
    oauthApp.github.failNext('/api/v3/user/emails', 503);
    await continueWith(page, 'GitHub');
    await expectSignInRefused(page, 'Signing in with the provider failed');
  });

  oauthTest('no client secret, code or access token reaches the server output or logs, on success or failure', async ({ page, oauthApp }) => {
    oauthApp.github.signInAs(gitHubAccount(uniqueEmail('quiet'), true));
    await continueWith(page, 'GitHub');
    await expect(page).toHaveURL(`${oauthApp.url}/account`);
    await signOut(page);
    oauthApp.github.failNext('/api/v3/user', 500);
    await continueWith(page, 'GitHub');
    await expect(page).toHaveURL(/\/signin\?.*error=OAuthCallback/);
    expect(oauthApp.github.exchanges()).toBeGreaterThanOrEqual(2);

    const output = oauthApp.output();
    // Both went through pino (next-auth's own console logger is replaced), so redaction applied to them.
    expect(output).toContain('"msg":"OAuth sign-in"');
    expect(output).toContain('"msg":"next-auth error"');
    for (const secret of oauthApp.github.secrets()) {
      expect(output.includes(secret), `a GitHub secret (${secret.slice(0, 6)}…) appears in the server output`).toBe(false);
    }
  });
});

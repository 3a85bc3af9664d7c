import { expect, test as base, type Page } from '@playwright/test';
import { startFakeGitHub, type FakeGitHub } from '../../test/support/fake-github';
import { startFakeGoogle, type FakeGoogle } from '../../test/support/fake-google';
import { startAppServer, type AppServer } from './app-server';

// The OAuth journeys' own server, with GitHub and Google pointing at local fakes (Playwright's server has no provider).
// Worker-scoped: the OAuth spec files share one server.

export interface OAuthApp extends Pick<AppServer, 'url' | 'query' | 'output'> {
  github: FakeGitHub;
  google: FakeGoogle;
}

export const oauthTest = base.extend<object, { oauthApp: OAuthApp }>({
  oauthApp: [
    async ({}, use) => {
      const [github, google] = await Promise.all([startFakeGitHub(), startFakeGoogle()]);
      const app = await startAppServer({
        name: 'oauth',
        readyPath: '/signin',
        env: {
          GITHUB_CLIENT_ID: github.clientId,
          GITHUB_CLIENT_SECRET: github.clientSecret,
          GITHUB_URL: github.url,
          GITHUB_API_URL: github.apiUrl,
          GOOGLE_CLIENT_ID: google.clientId,
          GOOGLE_CLIENT_SECRET: google.clientSecret,
          GOOGLE_ISSUER: google.issuer,
        },
      });
      await use({ url: app.url, query: app.query, output: app.output, github, google });
      await app.close();
      await Promise.all([github.close(), google.close()]);
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ oauthApp }, use) => use(oauthApp.url),
});

/** After hydration: the button is a client component. */
export async function continueWith(page: Page, providerName: 'GitHub' | 'Google', callbackUrl = '/account'): Promise<void> {
  await page.goto(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: `Continue with ${providerName}` }).click();
}

export async function sessionUserId(page: Page): Promise<string | null> {
  const session = (await (await page.request.get('/api/auth/session')).json()) as { user?: { id?: string } };
  return session.user?.id ?? null;
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
}

export async function expectSignInRefused(page: Page, message: string | RegExp): Promise<void> {
  await expect(page).toHaveURL(/\/signin\?/);
  await expect(page.getByRole('main').getByRole('alert')).toContainText(message);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
  expect(await sessionUserId(page)).toBeNull();
}

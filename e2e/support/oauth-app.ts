import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test as base, type Page } from '@playwright/test';
import pg from 'pg';
import { startFakeGitHub, type FakeGitHub } from '../../test/support/fake-github';
import { startFakeGoogle, type FakeGoogle } from '../../test/support/fake-google';
import { createScratchDatabase, type ScratchDatabase } from '../../test/support/scratch-database';
import { WITHOUT_OUTSIDE_SERVICES } from './server-env';

/**
 * The OAuth journeys need an app whose GitHub and Google providers point at local fakes, while every other spec
 * runs against Playwright's own server, which has no provider configured. So this starts a second server from the
 * same production build (e2e/support/start-server.mjs with E2E_SKIP_BUILD=1; it builds only if no build exists),
 * on a scratch PostgreSQL database the specs can query. Worker-scoped: the OAuth spec files share one server.
 */

export interface OAuthApp {
  url: string;
  github: FakeGitHub;
  google: FakeGoogle;
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Everything the server wrote: its stdout and stderr and its LOG_FILE. */
  output(): string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilServing(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the OAuth test server exited with code ${server.exitCode}`);
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the OAuth test server did not answer ${url} within ${timeoutMs} ms`);
}

async function startOAuthApp(github: FakeGitHub, google: FakeGoogle): Promise<OAuthApp & { close(): Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'almanac-e2e-oauth-'));
  const logFile = path.join(dataDir, 'server.log');
  const database: ScratchDatabase = await createScratchDatabase(`almanac_e2e_oauth_${randomBytes(5).toString('hex')}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    E2E_PORT: String(port),
    E2E_SKIP_BUILD: '1',
    APP_URL: url,
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    ALMANAC_SECRET: randomBytes(32).toString('base64url'),
    SEED_ON_START: 'false',
    LOG_FILE: logFile,
    LOG_LEVEL: 'info',
    ...WITHOUT_OUTSIDE_SERVICES,
    GITHUB_CLIENT_ID: github.clientId,
    GITHUB_CLIENT_SECRET: github.clientSecret,
    GITHUB_URL: github.url,
    GITHUB_API_URL: github.apiUrl,
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_CLIENT_SECRET: google.clientSecret,
    GOOGLE_ISSUER: google.issuer,
  };
  // lib/auth.ts derives next-auth's URL from APP_URL only when NEXTAUTH_URL is unset.
  delete env.NEXTAUTH_URL;
  const server = spawn(process.execPath, [path.resolve('e2e/support/start-server.mjs')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let consoleOutput = '';
  server.stdout!.on('data', (chunk: Buffer) => (consoleOutput += chunk.toString('utf8')));
  server.stderr!.on('data', (chunk: Buffer) => (consoleOutput += chunk.toString('utf8')));
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });

  const close = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await pool.end();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(`${url}/signin`, server, 230_000);
  } catch (error) {
    await close();
    throw new Error(`${(error as Error).message}\n${consoleOutput.slice(-4000)}`);
  }
  return {
    url,
    github,
    google,
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    output: () => {
      let logs = '';
      try {
        logs = readFileSync(logFile, 'utf8');
      } catch {
        // No log line written yet.
      }
      return `${consoleOutput}\n${logs}`;
    },
    close,
  };
}

export const oauthTest = base.extend<object, { oauthApp: OAuthApp }>({
  oauthApp: [
    async ({}, use) => {
      const [github, google] = await Promise.all([startFakeGitHub(), startFakeGoogle()]);
      const app = await startOAuthApp(github, google);
      await use(app);
      await app.close();
      await Promise.all([github.close(), google.close()]);
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ oauthApp }, use) => use(oauthApp.url),
});

/** Presses "Continue with <provider>" on the sign-in page (after hydration: the button is a client component). */
export async function continueWith(page: Page, providerName: 'GitHub' | 'Google', callbackUrl = '/account'): Promise<void> {
  await page.goto(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: `Continue with ${providerName}` }).click();
}

/** The signed-in user's id as next-auth's session endpoint reports it (null when signed out). */
export async function sessionUserId(page: Page): Promise<string | null> {
  const session = (await (await page.request.get('/api/auth/session')).json()) as { user?: { id?: string } };
  return session.user?.id ?? null;
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
}

/** The alert the sign-in page shows after a failed sign-in, and proof that nobody is signed in. */
export async function expectSignInRefused(page: Page, message: string | RegExp): Promise<void> {
  await expect(page).toHaveURL(/\/signin\?/);
  await expect(page.getByRole('main').getByRole('alert')).toContainText(message);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
  expect(await sessionUserId(page)).toBeNull();
}

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { startFileMailSink } from './e2e/support/mail';
import { WITHOUT_OUTSIDE_SERVICES } from './e2e/support/server-env';

/**
 * End-to-end tests against a production build served by `next start` (see e2e/support/start-server.mjs).
 * The config file is evaluated again in every worker process; the port and data directory are chosen once in the
 * main process and handed to the workers through the environment they inherit.
 */
function freePort(): string {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})";
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim();
}

const external = process.env.E2E_BASE_URL;
process.env.E2E_PORT ??= freePort();
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'almanac-e2e-'));
const baseURL = external ?? `http://127.0.0.1:${process.env.E2E_PORT}`;
// One real SMTP server for the whole run, in this main process (the workers inherit its address): every app server
// sends its email there, and the specs read what arrived from E2E_MAIL_DIR (e2e/support/mail.ts).
if (!process.env.E2E_SMTP_URL) {
  const smtpPort = freePort();
  process.env.E2E_MAIL_DIR = path.join(process.env.E2E_DATA_DIR, 'mail');
  process.env.E2E_SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
  startFileMailSink(Number(smtpPort), process.env.E2E_MAIL_DIR);
}
const artifacts = path.resolve('e2e/artifacts');
mkdirSync(artifacts, { recursive: true });
// Every server of the run logs into one fresh folder, which the global teardown scans for leaked keys and secrets.
if (!process.env.ALMANAC_TEST_LOG_DIR) {
  process.env.ALMANAC_TEST_LOG_DIR = path.join(artifacts, 'logs');
  rmSync(process.env.ALMANAC_TEST_LOG_DIR, { recursive: true, force: true });
  mkdirSync(process.env.ALMANAC_TEST_LOG_DIR, { recursive: true });
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const browserUse = { ...devices['Desktop Chrome'], launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS } };
/** Specs that must not share the server with others (see `workers` below). */
const ALONE = ['**/marketplace.spec.ts', '**/catalog-search.spec.ts', '**/admin-listings.spec.ts', '**/fuzz.spec.ts'];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: path.join(artifacts, 'test-results'),
  globalTeardown: './e2e/support/log-scan-teardown.ts',
  fullyParallel: false,
  // Two browsers at once against the one server: every spec makes its own accounts and purchases. The specs that
  // change or measure what every visitor sees (the catalogue's order and counts, a suspended listing, the fuzz's
  // flood) run afterwards, one at a time, in the "alone" project.
  workers: 2,
  retries: 0,
  // A sign-up now includes the verification email's round trip (docs/api.md §11.3); 30 s was tight on a loaded machine.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { outputFolder: path.join(artifacts, 'report'), open: 'never' }]],
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'chromium', testIgnore: ALONE, use: browserUse },
    { name: 'alone', testMatch: ALONE, dependencies: ['chromium'], workers: 1, use: browserUse },
  ],
  webServer: external
    ? undefined
    : {
        command: 'node e2e/support/start-server.mjs',
        url: `${baseURL}/signin`,
        // Build (about a minute on two cores) plus the first start, which migrates and seeds the empty database.
        timeout: 240_000,
        reuseExistingServer: false,
        stdout: 'ignore',
        stderr: 'pipe',
        env: {
          E2E_PORT: process.env.E2E_PORT,
          APP_URL: baseURL,
          DATA_DIR: process.env.E2E_DATA_DIR,
          DATABASE_URL: '',
          SEED_ON_START: 'true',
          LOG_FILE: path.join(process.env.ALMANAC_TEST_LOG_DIR, 'server.log'),
          LOG_LEVEL: 'info',
          // Every spec signs up from 127.0.0.1; the per-address sign-up limit (20 an hour) is for strangers.
          SIGN_UPS_PER_ADDRESS_PER_HOUR: '1000',
          // Email goes out from the job queue, woken by NOTIFY when the job commits; polled every 0.5 s besides.
          JOB_POLL_MS: '500',
          // The operator pages (/admin) for the accounts that sign up with this address.
          ADMIN_EMAILS: 'operator@example.test',
          ...WITHOUT_OUTSIDE_SERVICES,
          // Set here, not only through WITHOUT_OUTSIDE_SERVICES, which this process imported before the sink existed.
          SMTP_URL: process.env.E2E_SMTP_URL,
          // No sign-in provider: the specs see the email-and-password pages (the OAuth specs start their own server).
          GITHUB_CLIENT_ID: '',
          GITHUB_CLIENT_SECRET: '',
          GOOGLE_CLIENT_ID: '',
          GOOGLE_CLIENT_SECRET: '',
        },
      },
});

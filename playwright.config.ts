import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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

/** Whether the command line's --project filters (none, or one matching the name) let the project run. */
function projectSelected(name: string): boolean {
  const args = process.argv.slice(2);
  // As Playwright reads it: `--project=a`, or `--project a b …` up to the next option.
  const filters = args.flatMap((arg, i) => {
    if (arg.startsWith('--project=')) return [arg.slice('--project='.length)];
    if (arg !== '--project') return [];
    const rest = args.slice(i + 1);
    const end = rest.findIndex((next) => next.startsWith('-'));
    return end === -1 ? rest : rest.slice(0, end);
  });
  const pattern = (filter: string) => new RegExp(`^${filter.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
  return filters.length === 0 || filters.some((filter) => pattern(filter).test(name));
}

const external = process.env.E2E_BASE_URL;
process.env.E2E_PORT ??= freePort();
// The scale-out project's proxy (e2e/support/scale-out.mjs): two instances on PostgreSQL and Redis behind it.
process.env.E2E_SCALE_OUT_PORT ??= freePort();
const scaleOutURL = `http://127.0.0.1:${process.env.E2E_SCALE_OUT_PORT}`;
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

/**
 * Debian's old headless shell (package chromium-headless-shell, which `.ci/run` installs) when present: the same Blink
 * without the browser around it, which Playwright itself uses for headless runs. On two cores the browser is most of
 * the browser tests' CPU (the server was busy a third of the time), and the shell took a quarter less time than the
 * full browser (a11y, home and phone-widths: 120 s against 158 s). Otherwise Debian's chromium; E2E_CHROMIUM names
 * another binary.
 */
const CHROMIUM = process.env.E2E_CHROMIUM ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
const launchOptions = { executablePath: CHROMIUM, args: CHROMIUM_ARGS };
const browserUse = { ...devices['Desktop Chrome'], launchOptions };
/** Specs that must not share the server with others (see `workers` below). */
const ALONE = ['**/marketplace.spec.ts', '**/catalog-search.spec.ts', '**/admin-listings.spec.ts'];
/** The fuzz floods a server of its own (test/fuzz/server.ts), after chromium so that its load slows no journey there. */
const FUZZ = ['**/fuzz.spec.ts'];
/**
 * The buyer's and the publisher's journeys again, on two instances behind a proxy that alternates requests, on
 * PostgreSQL and Redis (e2e/support/scale-out.mjs), with the spec that checks the alternation itself.
 */
const SCALE_OUT = ['**/journey.spec.ts', '**/publish-console.spec.ts', '**/scale-out.spec.ts'];
const SCALE_OUT_ONLY = ['**/scale-out.spec.ts'];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: path.join(artifacts, 'test-results'),
  globalTeardown: './e2e/support/log-scan-teardown.ts',
  fullyParallel: false,
  // Two browsers at once against the one server: every spec makes its own accounts and purchases. The specs that
  // change or measure what every visitor sees (the catalogue's order and counts, a suspended listing) run afterwards,
  // one at a time, in the "alone" project; the second worker meanwhile runs scale-out and the fuzz, on servers of their
  // own.
  workers: 2,
  retries: 0,
  // A sign-up now includes the verification email's round trip (docs/api.md §11.3); 30 s was tight on a loaded machine.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { outputFolder: path.join(artifacts, 'report'), open: 'never' }]],
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    // A failure keeps its trace of actions, network and console, without the DOM snapshots and screencast: those made
    // every action dearer in the browser, which is the run's bottleneck (publish-console 39.5 s → 29.8 s alone). For
    // the full trace, run the failing spec again with `--trace retain-on-failure`.
    trace: { mode: 'retain-on-failure', snapshots: false, screenshots: false },
    launchOptions,
  },
  projects: [
    { name: 'chromium', testIgnore: [...ALONE, ...FUZZ, ...SCALE_OUT_ONLY], use: browserUse },
    { name: 'alone', testMatch: ALONE, dependencies: ['chromium'], workers: 1, use: browserUse },
    // After chromium, beside alone: alone runs one spec at a time, which leaves the second worker to this project, whose
    // servers are its own. Axe scans and screenshots off (e2e/support/a11y.ts, checksPages): chromium checks the same
    // build's pages. On its own: `npx playwright test --project scale-out --no-deps`.
    ...(external
      ? []
      : [
          {
            name: 'scale-out',
            testMatch: SCALE_OUT,
            dependencies: ['chromium'],
            metadata: { pageChecks: false },
            use: { ...browserUse, baseURL: scaleOutURL },
          },
        ]),
    { name: 'fuzz', testMatch: FUZZ, dependencies: ['chromium'], use: browserUse },
  ],
  // Started one after the other: the instances of scale-out serve the build that the first server made or found.
  webServer: external
    ? undefined
    : [
        {
          command: 'node e2e/support/start-server.mjs',
          url: `${baseURL}/signin`,
          // A build when there is no current one (`npm run build`, which CI makes first; about two minutes on two cores)
          // plus the first start, which migrates and seeds the empty database.
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
        ...(projectSelected('scale-out')
          ? [
              {
                command: 'node e2e/support/scale-out.mjs',
                url: `${scaleOutURL}/api/health/ready`,
                // A migration, then two instances starting together (one seeds): about 30 s on a loaded machine.
                timeout: 240_000,
                reuseExistingServer: false,
                stdout: 'ignore' as const,
                stderr: 'pipe' as const,
                // SIGTERM, so that it stops its instances and drops its database.
                gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 15_000 },
              },
            ]
          : []),
      ],
});

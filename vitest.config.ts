import { defineConfig } from 'vitest/config';

const alias = { '@': import.meta.dirname };
const integration = ['test/integration/**/*.test.ts'];
/**
 * The integration files that also run on embedded PGlite: those whose outcome depends on the database engine (its
 * migrations and seed, full-text and trigram search, triggers, vector search, the quota and idempotency statements,
 * transactions and row locks under concurrency, the job queue, the embedded server's CLI bridge). Every file runs on
 * the PostgreSQL server; running the rest twice cost about a minute of each run and tested the same SQL twice.
 */
const onBothEngines = [
  'database', 'startup-seed', 'catalog-seed', 'sample-marketplace',
  'catalog-listing', 'catalog-search', 'catalog-page-search', 'catalog-search-sync', 'catalog-cache', 'catalog-detail',
  'engine-retrieval', 'engine-ingest', 'engine-hybrid', 'engine-languages', 'engine-citations', 'engine-sample-questions',
  'gateway-metering', 'gateway-idempotency', 'gateway-fast-lane', 'gateway-security', 'form-submissions',
  'subscriptions-lifecycle', 'subscription-sweeper', 'billing-webhook', 'platform-jobs', 'publishing-content', 'cli-embedded-bridge',
].map((name) => `test/integration/${name}.test.ts`);
// Every project logs for real into one directory per run and scans it for leaked secrets at the end.
const logCapture = { globalSetup: ['test/support/log-capture-global-setup.ts'], setupFiles: ['test/support/log-capture.ts'] };

/**
 * Three projects: unit tests beside the code; the integration suite on the PostgreSQL server, and its engine-dependent
 * part again on embedded PGlite (a fresh database per test file, copied from one migrated per run: see
 * test/support/db.ts).
 */
export default defineConfig({
  resolve: { alias },
  test: {
    // Three test files at a time on two cores: most of a file's time is spent waiting on PostgreSQL, Redis, PGlite's
    // start-up or a spawned server, so a third file fills the gaps (one worker, Vitest's default here, took 420 s;
    // three took 250 s with the same results).
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    env: { NODE_ENV: 'test' },
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts', 'db/**/*.test.ts', 'components/**/*.test.ts', 'examples/**/*.test.ts', 'deploy/**/*.test.ts', 'scripts/**/*.test.ts', 'test/support/**/*.test.ts'],
          environment: 'node',
          ...logCapture,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'pglite',
          include: onBothEngines,
          ...logCapture,
          globalSetup: ['test/support/pglite-global-setup.ts', ...logCapture.globalSetup],
          // Every test file is a new process with a new PGlite, too short-lived for V8's optimising compiler to pay
          // back compiling PostgreSQL's WebAssembly: the baseline compiler alone takes about a quarter less CPU.
          execArgv: ['--liftoff-only'],
          env: { ALMANAC_TEST_DB: 'pglite' },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'postgres',
          include: integration,
          ...logCapture,
          globalSetup: ['test/support/postgres-global-setup.ts', ...logCapture.globalSetup],
          env: { ALMANAC_TEST_DB: 'postgres' },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});

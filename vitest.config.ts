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
  'database',
  'startup-seed',
  'catalog-seed',
  'sample-marketplace',
  'catalog-listing',
  'catalog-search',
  'catalog-page-search',
  'catalog-search-sync',
  'catalog-cache',
  'catalog-detail',
  'engine-retrieval',
  'engine-ingest',
  'engine-ingest-budgets',
  'engine-staged-writes',
  'engine-hybrid',
  'engine-languages',
  'engine-citations',
  'engine-sample-questions',
  'gateway-metering',
  'gateway-idempotency',
  'gateway-fast-lane',
  'gateway-security',
  'form-submissions',
  'subscriptions-lifecycle',
  'subscription-sweeper',
  'billing-webhook',
  'platform-jobs',
  'publishing-content',
  'cli-embedded-bridge',
].map((name) => `test/integration/${name}.test.ts`);
/**
 * Integration files that need a process of their own, in both integration projects: those that import
 * test/support/gateway-env.ts, which sets the secret, the rate window and a per-file LOG_FILE on import (a logger or
 * key already made in a shared process would keep the previous file's); those that mock a module (vi.mock) that other
 * files import for real; and startup-seed, which starts the embedded database as `npm start` does.
 */
const INTEGRATION_ALONE = [
  'engine-llm-metering',
  'gateway-fast-lane',
  'gateway-faults',
  'gateway-idempotency',
  'gateway-instances',
  'gateway-mcp',
  'gateway-metering',
  'gateway-openapi',
  'gateway-preview',
  'gateway-search-usage',
  'gateway-security',
  'gateway-stream',
  'oauth-housekeeping',
  'oauth-mcp',
  'openapi-statuses',
  'operations-metrics',
  'publisher-connector',
  'publishing-backend',
  'secret-rotation',
  'snippets-run',
  'cli-configure-backend',
  'form-submissions',
  'publishing-content',
  'startup-seed',
].map((name) => `test/integration/${name}.test.ts`);
const UNIT = [
  'lib/**/*.test.ts',
  'db/**/*.test.ts',
  'components/**/*.test.ts',
  'examples/**/*.test.ts',
  'deploy/**/*.test.ts',
  'scripts/**/*.test.ts',
  'test/support/**/*.test.ts',
];
/**
 * Unit files that need a process of their own: those that measure the event loop's lag or time a worker (a heap grown
 * by the files before them makes a garbage-collection pause part of what they measure); the metrics registry's, whose
 * bounded set of route labels is process-wide by design (other files' requests fill it); the logger's, which imports
 * the logger after pointing LOG_FILE at its own file (a logger already imported writes elsewhere); and one that mocks a
 * module (vi.mock) that other files import for real. Checked: the unit files in 9 shuffled orders at 1, 2 and 3
 * workers, and three subsets; all pass but for one timing failure of a file already alone here.
 */
const UNIT_ALONE = [
  'lib/engine/parse-in-worker.test.ts',
  'lib/routing/answer-task.test.ts',
  'lib/catalog/turns.test.ts',
  'lib/platform/metrics.test.ts',
  'lib/platform/log.test.ts',
  'lib/accounts/admin.test.ts',
];
// Every project logs for real into one directory per run and scans it for leaked secrets at the end.
const logCapture = { globalSetup: ['test/support/log-capture-global-setup.ts'], setupFiles: ['test/support/log-capture.ts'] };
// The integration projects also close each file's databases when it ends, and restore the environment it changed.
const integrationSetup = { ...logCapture, setupFiles: [...logCapture.setupFiles, 'test/support/file-end.ts'] };

/**
 * An integration project in two: most files one after the other in shared processes, whose module graph is imported
 * once (a process per file spent more time importing than testing: about 200 s of the PostgreSQL project's import over
 * its files), each file's databases closed and its environment restored when it ends (test/support/file-end.ts); and
 * the files of INTEGRATION_ALONE in a process each.
 */
function integrationProjects(
  name: string,
  test: { include: string[]; alone: string[]; aloneExecArgv?: string[]; globalSetup: string[]; env: Record<string, string> },
) {
  const { alone, aloneExecArgv, ...options } = test;
  const shared = { ...integrationSetup, ...options, testTimeout: 60_000, hookTimeout: 180_000 };
  return [
    { resolve: { alias }, test: { ...shared, name, exclude: INTEGRATION_ALONE, isolate: false } },
    { resolve: { alias }, test: { ...shared, name: `${name}-alone`, include: alone, execArgv: aloneExecArgv } },
  ];
}

/**
 * Six projects: unit tests beside the code (most in shared processes, a few alone); the integration suite on the
 * PostgreSQL server, and its engine-dependent part again on embedded PGlite, each in two halves (integrationProjects;
 * a fresh database per test file, copied from one migrated per run: see test/support/db.ts).
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
    // An answer must not depend on how busy the machine is: the encoder gets the time it needs (sentence-encoder.ts).
    env: { NODE_ENV: 'test', ENGINE_ENCODER_BUDGET_MS: '30000' },
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: UNIT,
          exclude: UNIT_ALONE,
          environment: 'node',
          // One process runs file after file, its module cache kept: a new process and module graph per file cost about
          // 55 s of CPU over the unit files (80 s → 25 s). Each file resets what it sets; those that cannot are alone.
          isolate: false,
          ...logCapture,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'unit-alone',
          include: UNIT_ALONE,
          environment: 'node',
          ...logCapture,
        },
      },
      ...integrationProjects('pglite', {
        include: onBothEngines,
        alone: INTEGRATION_ALONE.filter((file) => onBothEngines.includes(file)),
        globalSetup: ['test/support/pglite-global-setup.ts', ...logCapture.globalSetup],
        // A process per file is too short-lived for V8's optimising compiler to pay back compiling PostgreSQL's
        // WebAssembly: the baseline compiler alone takes about a quarter less CPU. In the shared processes it pays
        // back: the shared half took 78 and 84 s without the flag, 91 and 94 s with it.
        aloneExecArgv: ['--liftoff-only'],
        env: { ALMANAC_TEST_DB: 'pglite' },
      }),
      ...integrationProjects('postgres', {
        include: integration,
        alone: INTEGRATION_ALONE,
        globalSetup: ['test/support/postgres-global-setup.ts', ...logCapture.globalSetup],
        env: { ALMANAC_TEST_DB: 'postgres' },
      }),
    ],
  },
});

import path from 'node:path';

/**
 * Setup file of every Vitest project: this test process logs at `info` into the run's log directory (one file per
 * process), which the run's global teardown scans for leaked secrets (log-capture-global-setup.ts). A test that
 * needs other logging sets LOG_FILE or LOG_LEVEL itself after this has run.
 */
const dir = process.env.ALMANAC_TEST_LOG_DIR;
if (dir) {
  process.env.LOG_FILE = path.join(dir, `worker-${process.pid}.log`);
  process.env.LOG_LEVEL = 'info';
}

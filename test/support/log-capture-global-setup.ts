import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { scanLogDirectory } from './log-scan';

/**
 * Global setup of every Vitest project: one log directory for the whole run. Each test process logs into it at
 * `info` (log-capture.ts), child servers and CLI runs too (childLogFile), and rememberSecret() lists there every
 * publisher secret and key the tests hand out. When the last file of the run has finished, the teardown scans ALL of
 * those logs for every remembered secret and for any well-formed API key: one leak anywhere fails the run. A clean
 * directory is removed; a dirty one is kept for reading.
 *
 * The projects' global setups share the main process and its environment, so the first one makes the directory and
 * owns the scan (teardowns run in reverse order: it scans last); the others only join it.
 */
const owner = globalThis as { __almanacTestLogDir?: string };

export default function setup(): (() => void) | undefined {
  if (owner.__almanacTestLogDir) return undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'almanac-test-logs-'));
  owner.__almanacTestLogDir = dir;
  process.env.ALMANAC_TEST_LOG_DIR = dir;
  return () => {
    const scan = scanLogDirectory(dir);
    if (scan.leaks.length > 0) {
      // Vitest reports an error thrown here but still exits 0 on its own: the exit code must say it too.
      process.exitCode = 1;
      throw new Error(`Secrets found in the logs of this run (kept in ${dir}):\n${scan.leaks.join('\n')}`);
    }
    console.log(`Log scan: ${scan.lines} lines in ${scan.files} files, ${scan.secrets} remembered secrets, no leak`);
    rmSync(dir, { recursive: true, force: true });
  };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { scanLogDirectory } from './log-scan';

/**
 * One log directory for the whole Vitest run, scanned by the teardown for every remembered secret and any well-formed
 * API key: one leak anywhere fails the run. The projects' setups share the main process, so the first one owns the
 * directory and the scan (teardowns run in reverse order: it scans last).
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

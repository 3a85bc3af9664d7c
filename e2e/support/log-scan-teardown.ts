import { scanLogDirectory } from '../../test/support/log-scan';

/**
 * Playwright's global teardown: every server the run started logged into ALMANAC_TEST_LOG_DIR (playwright.config.ts),
 * and the specs remembered the publisher secrets and keys they made there. No key (every journey buys one) and no
 * remembered secret may appear in any of those logs or in the servers' console output.
 */
export default function scanRunLogs(): void {
  const dir = process.env.ALMANAC_TEST_LOG_DIR;
  if (!dir) throw new Error('ALMANAC_TEST_LOG_DIR is not set (playwright.config.ts sets it)');
  const scan = scanLogDirectory(dir);
  if (scan.leaks.length > 0) throw new Error(`Secrets found in the logs of the browser run (${dir}):\n${scan.leaks.join('\n')}`);
  if (scan.lines === 0) throw new Error(`The browser run left no log line in ${dir}: nothing to scan`);
  console.log(`Log scan: ${scan.lines} lines in ${scan.files} files, ${scan.secrets} remembered secrets, no leak`);
}

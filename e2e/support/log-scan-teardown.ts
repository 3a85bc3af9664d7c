import { scanLogDirectory } from '../../test/support/log-scan';

// Playwright's global teardown: no API key and no remembered secret may appear in any log the run's servers wrote.
export default function scanRunLogs(): void {
  const dir = process.env.ALMANAC_TEST_LOG_DIR;
  if (!dir) throw new Error('ALMANAC_TEST_LOG_DIR is not set (playwright.config.ts sets it)');
  const scan = scanLogDirectory(dir);
  if (scan.leaks.length > 0) throw new Error(`Secrets found in the logs of the browser run (${dir}):\n${scan.leaks.join('\n')}`);
  // Playwright's own server always logs (its start-up seed at least): none means its logs went elsewhere.
  if (scan.lines === 0 && !process.env.E2E_BASE_URL) throw new Error(`The browser run left no log line in ${dir}: nothing to scan`);
  console.log(`Log scan: ${scan.lines} lines in ${scan.files} files, ${scan.secrets} remembered secrets, no leak`);
}

import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseApiKey } from '@/lib/keys';

/**
 * Proof that no key or publisher secret reaches a log, for Vitest, Playwright and the benchmarks alike (no test-runner
 * imports here). Two nets: the secrets the fixtures remembered, and any well-formed Almanac key (its checksum
 * verifies), so a key issued anywhere in a run is caught even if no test remembered it.
 */

/** Where rememberSecret() appends, one secret a line, inside a run's log directory. */
const SECRETS_FILE = 'remembered-secrets.txt';
const KEY_CANDIDATE = /alm_sk_(?:live|test)_[0-9A-Za-z]{38}(?![0-9A-Za-z])/g;

export const issuedSecrets = new Set<string>();

export function rememberSecret(...values: string[]): void {
  const dir = process.env.ALMANAC_TEST_LOG_DIR;
  for (const v of values) {
    if (issuedSecrets.has(v)) continue;
    issuedSecrets.add(v);
    if (dir) appendFileSync(path.join(dir, SECRETS_FILE), `${v}\n`);
  }
}

/** The log file for a child process (a server instance, a CLI run): inside the run's log directory, so it is scanned. */
export function childLogFile(name: string): string {
  const dir = process.env.ALMANAC_TEST_LOG_DIR;
  if (!dir) throw new Error('ALMANAC_TEST_LOG_DIR is not set: run the suite through vitest.config.ts');
  return path.join(dir, `${name}-${process.pid}-${Date.now()}.log`);
}

export function findIssuedKeys(text: string): string[] {
  return [...text.matchAll(KEY_CANDIDATE)].map((m) => m[0]).filter((candidate) => parseApiKey(candidate).ok);
}

export function findLeaks(text: string, secrets: Iterable<string>): string[] {
  const leaks: string[] = [];
  for (const secret of secrets) if (text.includes(secret)) leaks.push(`a remembered secret (${secret.slice(0, 12)}…)`);
  for (const key of findIssuedKeys(text)) leaks.push(`the API key ${key.slice(0, 20)}…`);
  return leaks;
}

function countLines(text: string): number {
  return text.split('\n').filter(Boolean).length;
}

/** Throws on any leak of this process's secrets or of any key in the given files; returns how many lines it read. */
export function expectLogsFreeOfSecrets(files: string[]): { lines: number } {
  if (issuedSecrets.size === 0) throw new Error('No secret was remembered: the log scan would prove nothing');
  let lines = 0;
  for (const file of files) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    lines += countLines(text);
    const leaks = findLeaks(text, issuedSecrets);
    if (leaks.length > 0) throw new Error(`${file} holds ${leaks.join(', ')}`);
  }
  return { lines };
}

export interface LogDirectoryScan {
  files: number;
  lines: number;
  secrets: number;
  leaks: string[];
}

export function scanLogDirectory(dir: string): LogDirectoryScan {
  const secretsFile = path.join(dir, SECRETS_FILE);
  const secrets = existsSync(secretsFile) ? [...new Set(readFileSync(secretsFile, 'utf8').split('\n').filter(Boolean))] : [];
  const scan: LogDirectoryScan = { files: 0, lines: 0, secrets: secrets.length, leaks: [] };
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.log'))) {
    const text = readFileSync(path.join(dir, name), 'utf8');
    scan.files++;
    scan.lines += countLines(text);
    scan.leaks.push(...findLeaks(text, secrets).map((leak) => `${name}: ${leak}`));
  }
  return scan;
}

import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';

/** Every secret the suite handed out; the log scan proves none of them was ever written. */
export const issuedSecrets = new Set<string>();

export function rememberSecret(...values: string[]): void {
  for (const v of values) issuedSecrets.add(v);
}

export function expectLogsFreeOfSecrets(files: string[]): { lines: number } {
  let lines = 0;
  expect(issuedSecrets.size).toBeGreaterThan(0);
  for (const file of files) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    lines += text.split('\n').filter(Boolean).length;
    for (const secret of issuedSecrets) {
      expect(text.includes(secret), `a secret (${secret.slice(0, 12)}…) appears in ${file}`).toBe(false);
    }
  }
  return { lines };
}

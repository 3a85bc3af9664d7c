import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** The password rule (docs/api.md §11.3): 10 to 200 characters (argon2's cost) and not a common one, even with digits appended. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

export const COMMON_PASSWORDS_FILE = path.join(process.cwd(), 'lib', 'accounts', 'common-passwords.txt');

let common: Set<string> | undefined;

function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(COMMON_PASSWORDS_FILE, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  return common;
}

export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const list = commonPasswords();
  if (list.has(lower)) return true;
  const stem = lower.replace(/[\d\W_]+$/u, '');
  return stem.length >= 4 && stem !== lower && list.has(stem);
}

export const COMMON_PASSWORD_MESSAGE = 'This password is one of the most common ones and easy to guess. Choose another.';

export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { message: `Use at least ${PASSWORD_MIN_LENGTH} characters.` })
  .max(PASSWORD_MAX_LENGTH, { message: `Use at most ${PASSWORD_MAX_LENGTH} characters.` })
  .refine((p) => !isCommonPassword(p), { message: COMMON_PASSWORD_MESSAGE });

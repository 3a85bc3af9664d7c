import { createHash } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { accountTokens } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { randomBase62 } from '@/lib/platform/ids';

/**
 * Single-use links sent by email (docs/api.md §11.3): only the token's SHA-256 is stored, so a database dump holds no
 * usable link, and using one is one UPDATE that checks and marks it, so a link works once however it is clicked.
 */
export type AccountTokenPurpose = 'verify_email' | 'reset_password';

export const ACCOUNT_TOKEN_LIFETIME_MS: Record<AccountTokenPurpose, number> = {
  verify_email: 24 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
};

const TOKEN_SHAPE = /^[0-9A-Za-z]{32}$/;

export function hashAccountToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Earlier unused links of the same purpose stop working: only the newest one sent is valid. */
export async function issueAccountToken(
  db: Executor,
  input: { userId: string; purpose: AccountTokenPurpose; email: string },
  now = new Date(),
): Promise<string> {
  await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(and(eq(accountTokens.userId, input.userId), eq(accountTokens.purpose, input.purpose), isNull(accountTokens.usedAt)));
  const token = randomBase62(32);
  await db.insert(accountTokens).values({
    tokenHash: hashAccountToken(token),
    userId: input.userId,
    purpose: input.purpose,
    email: input.email,
    expiresAt: new Date(now.getTime() + ACCOUNT_TOKEN_LIFETIME_MS[input.purpose]),
  });
  return token;
}

export interface UsableToken {
  userId: string;
  email: string;
}

const usable = (token: string, purpose: AccountTokenPurpose, now: Date) =>
  and(eq(accountTokens.tokenHash, hashAccountToken(token)), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, now));

export async function consumeAccountToken(db: Executor, token: string, purpose: AccountTokenPurpose, now = new Date()): Promise<UsableToken | null> {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return null;
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(usable(token, purpose, now))
    .returning({ userId: accountTokens.userId, email: accountTokens.email });
  return row ?? null;
}

export async function peekAccountToken(db: Executor, token: string, purpose: AccountTokenPurpose, now = new Date()): Promise<boolean> {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return false;
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(accountTokens)
    .where(usable(token, purpose, now))
    .limit(1);
  return Boolean(row);
}

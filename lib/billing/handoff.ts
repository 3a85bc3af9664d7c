import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import { keyHandoffs } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { randomBase62 } from '@/lib/platform/ids';
import { getServerSecret } from '@/lib/platform/server-secret';
import { inTransaction, type Refusal } from '@/lib/platform/transactions';
import { issueReplacementKey } from '@/lib/subscriptions';

/**
 * The one-time road from "a key was issued" to "the buyer sees it", often in another request (a redirect, the webhook
 * racing the success page): the plaintext is parked encrypted for at most HANDOFF_TTL_MS, and the single read that
 * reveals it deletes it, so a key is shown exactly once.
 */
const HANDOFF_TTL_MS = 60 * 60 * 1000;

function handoffCipherKey(): Buffer {
  // A key of its own (HKDF with a purpose label), so a leak of one ciphertext class says nothing about another.
  return Buffer.from(hkdfSync('sha256', getServerSecret(), 'almanac', 'almanac:key-handoff:v1', 32));
}

function encrypt(plaintext: string, aad: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', handoffCipherKey(), iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

function decrypt(ciphertext: string, aad: string): string | null {
  const [version, iv, body, tag] = ciphertext.split('.');
  if (version !== 'v1' || !iv || !body || !tag) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', handoffCipherKey(), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

export interface ParkedKey {
  userId: string;
  subscriptionId: string;
  keyId: string;
  plaintext: string;
  checkoutSessionId?: string;
}

export async function parkIssuedKey(db: Executor, key: ParkedKey, now = new Date()): Promise<string> {
  // Unread handoffs are swept here, on the rare write path, so expired ciphertexts never pile up.
  await purgeExpiredHandoffs(db, now);
  const id = `hnd_${randomBase62(24)}`;
  await db.insert(keyHandoffs).values({
    id,
    userId: key.userId,
    keyId: key.keyId,
    subscriptionId: key.subscriptionId,
    checkoutSessionId: key.checkoutSessionId ?? null,
    // The handoff id and owner are bound into the ciphertext: a row copied onto another id or user does not decrypt.
    keyCiphertext: encrypt(key.plaintext, `${id}:${key.userId}`),
    expiresAt: new Date(now.getTime() + HANDOFF_TTL_MS),
  });
  return id;
}

export type RevealResult =
  | { status: 'revealed'; plaintext: string; keyId: string; subscriptionId: string }
  /** Already shown, expired, someone else's, or (for a checkout) the webhook has not run yet. */
  | { status: 'none' };

/** DELETE … RETURNING, so two concurrent page loads cannot both get the key. */
export async function revealParkedKey(
  db: Executor,
  lookup: { userId: string } & ({ handoffId: string } | { checkoutSessionId: string }),
  now = new Date(),
): Promise<RevealResult> {
  const match = 'handoffId' in lookup ? eq(keyHandoffs.id, lookup.handoffId) : eq(keyHandoffs.checkoutSessionId, lookup.checkoutSessionId);
  const rows = await db
    .delete(keyHandoffs)
    .where(and(match, eq(keyHandoffs.userId, lookup.userId), gt(keyHandoffs.expiresAt, now)))
    .returning();
  const row = rows[0];
  if (!row) return { status: 'none' };
  const plaintext = decrypt(row.keyCiphertext, `${row.id}:${row.userId}`);
  if (!plaintext) return { status: 'none' };
  return { status: 'revealed', plaintext, keyId: row.keyId, subscriptionId: row.subscriptionId };
}

async function purgeExpiredHandoffs(db: Executor, now = new Date()): Promise<number> {
  const rows = await db.delete(keyHandoffs).where(lt(keyHandoffs.expiresAt, now)).returning({ id: keyHandoffs.id });
  return rows.length;
}

export type ReplacementKeyResult = { ok: true; handoffId: string } | Refusal;

/** Parked in the same transaction that issues it: a key is never issued without a way to show it once. */
export function issueReplacementKeyForReveal(
  db: Executor,
  input: { userId: string; subscriptionId: string; name?: string | null },
): Promise<ReplacementKeyResult> {
  return inTransaction(db, async (tx) => {
    const issued = await issueReplacementKey(tx, input);
    if (!issued.ok) return issued;
    const handoffId = await parkIssuedKey(tx, {
      userId: input.userId,
      subscriptionId: input.subscriptionId,
      keyId: issued.key.id,
      plaintext: issued.key.plaintext,
    });
    return { ok: true as const, handoffId };
  });
}

import { createHash } from 'node:crypto';
import { and, eq, isNull, lte } from 'drizzle-orm';
import { idempotencyRecords } from '@/db/schema';
import { JsonText } from '@/lib/platform/http';
import type { Executor } from '@/lib/platform/db';
import { PeriodicTask } from '@/lib/platform/periodic-task';
import { processSingleton } from '@/lib/platform/singleton';
import { idempotencyKeySchema } from './schemas';

/**
 * Idempotency-Key on POST /kb/{kb_id}/query (docs/api.md §3.8). The table's primary key makes the claim exact across
 * instances (one insert wins); a claim is a lease, so a request whose instance died does not block its key for a day.
 */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1–255 printable ASCII characters (spaces inside only, since header values are trimmed on the wire). */
export function isValidIdempotencyKey(value: string): boolean {
  return idempotencyKeySchema.safeParse(value).success;
}

/** What makes two requests "the same": the media type and the exact body. */
export function requestFingerprint(contentType: string | null, body: string): string {
  return createHash('sha256')
    .update(contentType ?? '')
    .update('\n')
    .update(body)
    .digest('base64url');
}

export interface StoredAnswer {
  status: number;
  body: JsonText;
  headers: Record<string, string>;
}

export type IdempotencyClaim = { kind: 'claimed' } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'reused' } | { kind: 'in_progress' };

interface ClaimInput {
  keyId: string;
  idempotencyKey: string;
  fingerprint: string;
  leaseMs: number;
  now?: Date;
}

const rowOf = (input: Pick<ClaimInput, 'keyId' | 'idempotencyKey'>) =>
  and(eq(idempotencyRecords.keyId, input.keyId), eq(idempotencyRecords.idempotencyKey, input.idempotencyKey));

export async function claimIdempotencyKey(db: Executor, input: ClaimInput): Promise<IdempotencyClaim> {
  const now = input.now ?? new Date();
  const lockedUntil = new Date(now.getTime() + input.leaseMs);
  // At most twice: a first pass that finds an expired record deletes it and claims again.
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db
      .insert(idempotencyRecords)
      .values({
        keyId: input.keyId,
        idempotencyKey: input.idempotencyKey,
        requestHash: input.fingerprint,
        lockedUntil,
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ keyId: idempotencyRecords.keyId });
    if (inserted.length > 0) return { kind: 'claimed' };

    const [row] = await db.select().from(idempotencyRecords).where(rowOf(input));
    if (!row) continue; // deleted between the insert and the read: claim again
    if (row.expiresAt.getTime() <= now.getTime()) {
      await db.delete(idempotencyRecords).where(and(rowOf(input), lte(idempotencyRecords.expiresAt, now)));
      continue;
    }
    if (row.requestHash !== input.fingerprint) return { kind: 'reused' };
    if (row.status !== null) {
      return { kind: 'replay', answer: { status: row.status, body: new JsonText(row.responseBody ?? 'null'), headers: row.responseHeaders ?? {} } };
    }
    if (row.lockedUntil.getTime() > now.getTime()) return { kind: 'in_progress' };
    // The first request's lease ran out without an answer (its instance died): take the key over, once.
    const taken = await db
      .update(idempotencyRecords)
      .set({ lockedUntil })
      .where(and(rowOf(input), isNull(idempotencyRecords.status), lte(idempotencyRecords.lockedUntil, now)))
      .returning({ keyId: idempotencyRecords.keyId });
    return taken.length > 0 ? { kind: 'claimed' } : { kind: 'in_progress' };
  }
  return { kind: 'in_progress' };
}

export async function storeIdempotentAnswer(db: Executor, key: Pick<ClaimInput, 'keyId' | 'idempotencyKey'>, answer: StoredAnswer): Promise<void> {
  await db
    .update(idempotencyRecords)
    .set({ status: answer.status, responseBody: answer.body.text, responseHeaders: answer.headers })
    .where(and(rowOf(key), isNull(idempotencyRecords.status)));
}

/** Gives a claim back without an answer (our own fault): the retry runs instead of replaying a 500. */
export async function releaseIdempotencyKey(db: Executor, key: Pick<ClaimInput, 'keyId' | 'idempotencyKey'>): Promise<void> {
  await db.delete(idempotencyRecords).where(and(rowOf(key), isNull(idempotencyRecords.status)));
}

export async function purgeExpiredIdempotencyRecords(db: Executor, now: Date = new Date()): Promise<number> {
  const rows = await db.delete(idempotencyRecords).where(lte(idempotencyRecords.expiresAt, now)).returning({ keyId: idempotencyRecords.keyId });
  return rows.length;
}

export function startIdempotencyPurge(): PeriodicTask {
  return processSingleton('idempotency-purge', () =>
    new PeriodicTask('idempotency-purge', async (db, now) => void (await purgeExpiredIdempotencyRecords(db, now)), 10 * 60_000).start(),
  );
}

import type { Database, Executor, Transaction } from '@/db/client';

/**
 * An expected refusal, as a value (house rule 3): the caller maps it to a page or an error body. The one shape of
 * every domain's refusals; `code` is the closed set that domain answers (a domain write's, by default).
 */
export interface Refusal<Code extends string = RefusalCode> {
  ok: false;
  code: Code;
  message: string;
}
export type RefusalCode = 'not_found' | 'conflict' | 'invalid_plan';

/** Thrown inside `deniable` to roll the transaction back and come out as a `Refusal` value. */
export class Denied extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs `fn` in a transaction; when `db` is already a transaction Drizzle opens a savepoint, so a denial or failure
 * rolls back only this work and leaves the caller's transaction usable.
 */
export function inTransaction<T>(db: Executor, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  return (db as Database).transaction(fn);
}

export async function deniable<T>(db: Executor, fn: (tx: Transaction) => Promise<T>): Promise<T | Refusal> {
  try {
    return await inTransaction(db, fn);
  } catch (error) {
    if (error instanceof Denied) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

import type { Database, Executor, Transaction } from '@/db/client';

/** The expected refusals of a domain write, as values (house rule 3): the caller maps them to a page or an error body. */
export type DenialCode = 'not_found' | 'conflict' | 'invalid_plan';
export interface Denial {
  ok: false;
  code: DenialCode;
  message: string;
}

/** Thrown inside `deniable` to roll the transaction back and come out as a `Denial` value. */
export class Denied extends Error {
  constructor(
    readonly code: DenialCode,
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

/** Like inTransaction, but a `Denied` thrown inside rolls back and comes out as a `{ ok: false }` value. */
export async function deniable<T>(db: Executor, fn: (tx: Transaction) => Promise<T>): Promise<T | Denial> {
  try {
    return await inTransaction(db, fn);
  } catch (error) {
    if (error instanceof Denied) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

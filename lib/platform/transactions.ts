import type { Database, Executor, Transaction } from '@/db/client';

/** An expected refusal as a value (house rule 3), the one shape of every domain's refusals; callers map it to a page or body. */
export interface Refusal<Code extends string = RefusalCode> {
  ok: false;
  code: Code;
  message: string;
}
export type RefusalCode = 'not_found' | 'conflict' | 'invalid_plan';

export class Denied extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
  }
}

/** When `db` is already a transaction Drizzle opens a savepoint, so a denial or failure rolls back this work only. */
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

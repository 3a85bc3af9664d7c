import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts, createdAt } from './columns';
import { users } from './accounts';
import { apiKeys } from './keys';

/**
 * Repeat protection: stored answers of Idempotency-Key requests and the one effect of each form submission.
 */

/**
 * Idempotency-Key records of POST /kb/{kb_id}/query (docs/api.md §3.8), scoped to the API key. A row is claimed
 * (status null, `locked_until` a lease) before the query runs and holds the stored answer afterwards, for 24 hours.
 * The primary key makes the claim exact across instances; a claim whose instance died is taken over after its lease.
 */
export const idempotencyRecords = pgTable(
  'idempotency_records',
  {
    keyId: text('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    /** SHA-256 of the Content-Type and body: a different request under the same key is refused. */
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is in flight. */
    status: integer('status'),
    /** The body as sent (text, not jsonb, which reorders keys): a replay repeats its bytes. */
    responseBody: text('response_body'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    lockedUntil: ts('locked_until').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.idempotencyKey] }), index('idempotency_records_expires_idx').on(t.expiresAt)],
);

/**
 * One effect per form submission (docs/api.md §7.4): a state-changing form carries a token made when it was rendered;
 * the first submission stores where it led, and a second one (a double click, a retry) is sent there too.
 */
export const formSubmissions = pgTable(
  'form_submissions',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token: text('token').notNull(),
    /** Where the first submission sent the browser. */
    result: text('result').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.token] }), index('form_submissions_created_idx').on(t.createdAt)],
);

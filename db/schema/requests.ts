import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts, createdAt } from './columns';
import { users } from './accounts';
import { apiKeys } from './keys';

// Repeat protection: stored answers of Idempotency-Key requests (docs/api.md §3.8) and the one effect of each form
// submission (§7.4).

// The primary key makes the claim exact across instances; a claim whose instance died is taken over after its lease.
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
    /** Text, not jsonb (which reorders keys): a replay repeats the bytes. */
    responseBody: text('response_body'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    lockedUntil: ts('locked_until').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.idempotencyKey] }), index('idempotency_records_expires_idx').on(t.expiresAt)],
);

/** A second submission of a rendered form's token (a double click, a retry) is sent where the first one led. */
export const formSubmissions = pgTable(
  'form_submissions',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token: text('token').notNull(),
    result: text('result').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.token] }), index('form_submissions_created_idx').on(t.createdAt)],
);

import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts, createdAt, updatedAt } from './columns';

// People (docs/api.md §11): accounts, their sign-in identities, single-use email links and the mail they are sent.

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    /** Stored lower-cased. */
    email: text('email').notNull(),
    name: text('name'),
    /** argon2id; null for accounts that only sign in with OAuth. */
    passwordHash: text('password_hash'),
    image: text('image'),
    stripeCustomerId: text('stripe_customer_id'),
    /** Session tokens carry it and an older value is refused: bumping it ends every session of the user. */
    sessionVersion: integer('session_version').notNull().default(0),
    /** Null: unproven, so the account may browse but not buy or create keys. */
    emailVerifiedAt: ts('email_verified_at'),
    /** The row stays (invoices and ledgers refer to it) with its personal data removed. */
    deletedAt: ts('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_stripe_customer_key').on(t.stripeCustomerId)],
);

// Single-use email links, stored as SHA-256; `used_at` is set by the statement that checks it unused and unexpired, so
// a link works once however often it is clicked (lib/accounts/account-tokens.ts).
export const accountTokens = pgTable(
  'account_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `verify_email` | `reset_password` */
    purpose: text('purpose').notNull(),
    /** Verification proves this address, not whatever the account says later. */
    email: text('email').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('account_tokens_user_idx').on(t.userId, t.purpose)],
);

// Every email the server writes (lib/platform/mail.ts). Without SMTP_URL the row is the delivery (`outbox`, read at
// /admin/outbox); with it a job sends it.
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    kind: text('kind').notNull(),
    /** outbox | queued | sent | failed */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    messageId: text('message_id'),
    sentAt: ts('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [index('mail_outbox_created_idx').on(t.createdAt), index('mail_outbox_to_idx').on(t.toAddress, t.createdAt)],
);

/** Sessions are JWTs, so there is no sessions table. */
export const oauthAccounts = pgTable(
  'oauth_accounts',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerAccountId: text('provider_account_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('oauth_accounts_provider_key').on(t.provider, t.providerAccountId), index('oauth_accounts_user_idx').on(t.userId)],
);

export type User = typeof users.$inferSelect;

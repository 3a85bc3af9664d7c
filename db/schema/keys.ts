import { type AnyPgColumn, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts, createdAt } from './columns';
import { users } from './accounts';
import { knowledgeBases } from './catalog';
import { keyModeEnum, subscriptions } from './subscriptions';

// Credentials that act for a subscription (docs/api.md §4): API keys, the one-time handoff of a new key, and OAuth
// grants whose tokens act as a key no one sees.

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kbId: text('kb_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    /** Hex SHA-256; the key itself is never stored. */
    keyHash: text('key_hash').notNull(),
    /** First 8 random characters: safe to show and log. */
    displayPrefix: text('display_prefix').notNull(),
    last4: text('last4').notNull(),
    mode: keyModeEnum('mode').notNull().default('live'),
    name: text('name'),
    /** Set when the key is an OAuth grant's, which no one ever sees. */
    oauthClientId: text('oauth_client_id').references((): AnyPgColumn => oauthClients.id, { onDelete: 'set null' }),
    revokedAt: ts('revoked_at'),
    /** Written at most once a minute per key. */
    lastUsedAt: ts('last_used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_keys_hash_key').on(t.keyHash), index('api_keys_user_idx').on(t.userId), index('api_keys_subscription_idx').on(t.subscriptionId)],
);

// A new key on its way to the buyer's screen, shown exactly once: the only plaintext, AES-256-GCM-encrypted, short-lived,
// and deleted by the one read that reveals it (DELETE … RETURNING, lib/billing/handoff.ts).
export const keyHandoffs = pgTable(
  'key_handoffs',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyId: text('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    /** Stripe purchases only. */
    checkoutSessionId: text('checkout_session_id'),
    keyCiphertext: text('key_ciphertext').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('key_handoffs_checkout_key').on(t.checkoutSessionId), index('key_handoffs_user_idx').on(t.userId)],
);

// Public clients (PKCE, no secret). A registered client (RFC 7591) has a `cli_…` id; a metadata-document client has the
// document's https URL as id, and its row caches the document.
export const oauthClients = pgTable('oauth_clients', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
  /** Null for a registered client. */
  metadataExpiresAt: ts('metadata_expires_at'),
  createdAt: createdAt(),
});

// The grant's key is made at the code's exchange, so a consent given twice or never completed leaves no key behind.
export const oauthCodes = pgTable(
  'oauth_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    /** A second use of the code revokes this key. */
    keyId: text('key_id').references(() => apiKeys.id, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    resource: text('resource').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_codes_expires_idx').on(t.expiresAt)],
);

export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    kind: text('kind', { enum: ['access', 'refresh'] }).notNull(),
    keyId: text('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    resource: text('resource').notNull(),
    expiresAt: ts('expires_at').notNull(),
    /** Refresh tokens rotate: a second use revokes the whole grant. */
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_tokens_key_idx').on(t.keyId), index('oauth_tokens_expires_idx').on(t.expiresAt)],
);

export type ApiKey = typeof apiKeys.$inferSelect;

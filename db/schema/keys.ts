import { type AnyPgColumn, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts, createdAt } from './columns';
import { users } from './accounts';
import { knowledgeBases } from './catalog';
import { keyModeEnum, subscriptions } from './subscriptions';

/**
 * Credentials that act for a subscription: API keys, the one-time handoff of a new key, and OAuth grants whose
 * tokens act as a key no one sees.
 */

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
    /** Hex SHA-256 of the whole key; the key itself is never stored. */
    keyHash: text('key_hash').notNull(),
    /** First 8 random characters, shown in the dashboard and logs. */
    displayPrefix: text('display_prefix').notNull(),
    last4: text('last4').notNull(),
    mode: keyModeEnum('mode').notNull().default('live'),
    name: text('name'),
    /** Set when the key is an OAuth grant (docs/api.md §10.7): its tokens act as this key, which no one ever sees. */
    oauthClientId: text('oauth_client_id').references((): AnyPgColumn => oauthClients.id, { onDelete: 'set null' }),
    revokedAt: ts('revoked_at'),
    /** Kept to within a minute (written at most once a minute per key). */
    lastUsedAt: ts('last_used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_keys_hash_key').on(t.keyHash), index('api_keys_user_idx').on(t.userId), index('api_keys_subscription_idx').on(t.subscriptionId)],
);

/**
 * A freshly issued key on its way to the buyer's screen (purchase success page, replacement key). The key is shown
 * exactly once: the plaintext exists only here, AES-256-GCM-encrypted under a key derived from the server secret,
 * for a short time, and the row is deleted by the single read that reveals it (DELETE … RETURNING). An unread
 * handoff expires; the buyer then creates a replacement key. Owned by lib/billing/handoff.ts.
 */
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
    /** Stripe purchases: the Checkout Session the success page is waiting for. */
    checkoutSessionId: text('checkout_session_id'),
    keyCiphertext: text('key_ciphertext').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('key_handoffs_checkout_key').on(t.checkoutSessionId), index('key_handoffs_user_idx').on(t.userId)],
);

/**
 * OAuth 2.1 for agents (docs/api.md §10.7). Clients are public (PKCE, no secret) and their redirect URIs are matched
 * exactly. A client registered with RFC 7591 has a `cli_…` id; a client identified by its metadata document has that
 * document's https URL as id, and its row is the cache of the document (refetched once `metadataExpiresAt` passes).
 */
export const oauthClients = pgTable('oauth_clients', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
  /** A metadata-document client's cache lifetime; null for a registered client. */
  metadataExpiresAt: ts('metadata_expires_at'),
  createdAt: createdAt(),
});

/**
 * Authorization codes: single use, ten minutes, stored hashed. The grant's key is made when the code is exchanged, so
 * a consent given twice (a double click) or never completed leaves no key behind.
 */
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
    /** The grant's key once the code was exchanged: a second use of the code revokes it. */
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

/** Access tokens (one hour) and refresh tokens (rotated on use), stored hashed, each acting as its grant's key. */
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
    /** A refresh token's rotation: a second use revokes the whole grant. */
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_tokens_key_idx').on(t.keyId), index('oauth_tokens_expires_idx').on(t.expiresAt)],
);

export type ApiKey = typeof apiKeys.$inferSelect;

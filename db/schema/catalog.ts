import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tsvector, ts, createdAt, updatedAt } from './columns';
import { users } from './accounts';

/**
 * The catalog: publishers, their knowledge bases and plans, and the search projection the public listing reads.
 */

export const categoryEnum = pgEnum('category', ['education', 'policy', 'health', 'research', 'legal']);
/**
 * draft → published ⇄ unpublished (the publisher's console, docs/api.md §9.1); suspended is the operator's, and
 * restoring returns the listing to `status_before_suspension`. Only `published` is in the catalogue and can be bought;
 * `unpublished` still answers its existing subscribers until their period ends.
 */
export const kbStatusEnum = pgEnum('kb_status', ['draft', 'published', 'unpublished', 'suspended', 'archived']);
export const backendKindEnum = pgEnum('backend_kind', ['hosted', 'http']);

export const publishers = pgTable(
  'publishers',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    websiteUrl: text('website_url'),
    /** Stripe Connect Express account that receives this publisher's share (destination charges); null until onboarding starts. */
    stripeAccountId: text('stripe_account_id'),
    /** Stripe says the account can receive transfers (account.updated / the return from onboarding). */
    stripeOnboarded: boolean('stripe_onboarded').notNull().default(false),
    /** Where the operator reaches the publisher; never shown publicly. */
    contactEmail: text('contact_email'),
    /** The user who manages this publisher in the console; null for publishers created by an operator. */
    ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Set while the operator has suspended the whole publisher (every listing of it is suspended too). */
    suspendedAt: ts('suspended_at'),
    suspensionReason: text('suspension_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('publishers_slug_key').on(t.slug),
    // One publisher profile per account (docs/api.md §9.1).
    uniqueIndex('publishers_owner_key').on(t.ownerUserId),
  ],
);

export const knowledgeBases = pgTable(
  'knowledge_bases',
  {
    id: text('id').primaryKey(),
    publisherId: text('publisher_id')
      .notNull()
      .references(() => publishers.id, { onDelete: 'restrict' }),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    description: text('description').notNull().default(''),
    category: categoryEnum('category').notNull(),
    /** Lower-case tags from the shared vocabulary. */
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** BCP 47 language tag of the content, e.g. `en`. */
    language: text('language').notNull().default('en'),
    licence: text('licence').notNull().default('Proprietary'),
    sampleQuestions: jsonb('sample_questions')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    status: kbStatusEnum('status').notNull().default('draft'),
    /** While suspended: the state a restore returns to. */
    statusBeforeSuspension: kbStatusEnum('status_before_suspension'),
    /** While suspended: true when the suspension came from the whole publisher's (its restore lifts it). */
    suspendedWithPublisher: boolean('suspended_with_publisher').notNull().default(false),
    suspensionReason: text('suspension_reason'),
    backendKind: backendKindEnum('backend_kind').notNull().default('hosted'),
    /** `http` backends only: the publisher's endpoint. */
    endpointUrl: text('endpoint_url'),
    /** AES-256-GCM ciphertexts (lib/platform/crypto); never leave the server. */
    infraKeyEncrypted: text('infra_key_encrypted'),
    signingSecretEncrypted: text('signing_secret_encrypted'),
    timeoutMs: integer('timeout_ms').notNull().default(30_000),
    /** Anyone may ask a few free questions on the knowledge-base page (docs/api.md §10.6); the publisher can turn it off. */
    previewsEnabled: boolean('previews_enabled').notNull().default(true),
    /** Active subscriptions now; maintained with every subscription status change. */
    subscribersCount: integer('subscribers_count').notNull().default(0),
    /** Successful (200) queries ever. */
    queryVolume: bigint('query_volume', { mode: 'number' }).notNull().default(0),
    documentsCount: integer('documents_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('knowledge_bases_slug_key').on(t.publisherId, t.slug),
    index('knowledge_bases_publisher_idx').on(t.publisherId),
    // The listing's filters and orders are indexed on catalog_search; none here, so the frequent counter updates
    // (query_volume, subscribers_count) stay cheap heap-only updates.
  ],
);

/**
 * The public catalogue's search projection: one narrow row per *published* knowledge base with exactly what the
 * listing filters, sorts and counts by. It is written only by the `catalog_search_sync` trigger on knowledge_bases
 * (db/migrations/0006_catalogue_search.sql), so it can never disagree with the source row inside a transaction.
 *
 * Why a second table: an exact total (`count(*)`) must visit the heap tuple of every match, and a GIN index has no
 * index-only scans. On the ~1.5 KB knowledge-base rows a search matching 20% of a 100,000-row catalogue touched
 * 15,000 heap pages that did not fit in PostgreSQL's default shared buffers; this table is about 1/3 of that size
 * and stays cached (bench/listing/README.md).
 */
export const catalogSearch = pgTable(
  'catalog_search',
  {
    kbId: text('kb_id')
      .primaryKey()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    category: categoryEnum('category').notNull(),
    tags: text('tags').array().notNull(),
    subscribersCount: integer('subscribers_count').notNull(),
    queryVolume: bigint('query_volume', { mode: 'number' }).notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    /** Stemmed lexemes of title, publisher name, tags, summary and description, stripped (never ranked). */
    searchVector: tsvector('search_vector').notNull(),
    /** The title's lexemes alone (same text rules): the `relevance` sort ranks title matches first (lib/catalog/listing.ts). */
    titleVector: tsvector('title_vector')
      .notNull()
      .default(sql`''::tsvector`),
    /** The primary subtag of the knowledge base's language, lower-case (`pt` for `pt-BR`): the catalogue's language filter. */
    language: text('language').notNull().default('en'),
  },
  (t) => [
    index('catalog_search_vector_idx').using('gin', t.searchVector),
    // The `relevance` sort's title tiers (lib/catalog/listing.ts): a broad search's few title matches, read directly.
    index('catalog_search_title_vector_idx').using('gin', t.titleVector),
    index('catalog_search_tags_idx').using('gin', t.tags),
    index('catalog_search_category_idx').on(t.category),
    index('catalog_search_language_idx').on(t.language),
    index('catalog_search_popular_idx').on(t.subscribersCount.desc(), t.queryVolume.desc(), t.kbId),
    index('catalog_search_new_idx').on(t.createdAt.desc(), t.kbId),
    index('catalog_search_updated_idx').on(t.updatedAt.desc(), t.kbId),
  ],
);

/**
 * Words of the catalogue whose English stem is not the word itself ("constitution" → "constitut"), filled by the
 * same trigger. The catalogue vector holds stems only, so a partly typed last word longer than its stem
 * ("constitutio") is matched by looking up the words it begins and searching for their stems (lib/catalog/search-query.ts).
 * Words are never removed: a word no longer used can only add its stem to a search, and a stem already stands for
 * every word that shares it (that is what searching by stems means).
 */
export const catalogWords = pgTable(
  'catalog_words',
  {
    word: text('word').notNull(),
    lexeme: text('lexeme').notNull(),
  },
  (t) => [primaryKey({ columns: [t.word, t.lexeme] }), index('catalog_words_prefix_idx').on(t.word.op('text_pattern_ops'))],
);

/**
 * Every plain word (letters only, 3–32 of them, not a stop word) of the published catalogue's text, unstemmed, with a
 * trigram index (pg_trgm): a search whose words match nothing is offered the nearest known words ("constituton" →
 * "constitution", lib/catalog/suggest.ts). Filled by the catalogue trigger; like catalog_words, never pruned.
 */
export const catalogTerms = pgTable(
  'catalog_terms',
  {
    word: text('word').primaryKey(),
  },
  (t) => [index('catalog_terms_trgm_idx').using('gin', t.word.op('gin_trgm_ops'))],
);

export const plans = pgTable(
  'plans',
  {
    id: text('id').primaryKey(),
    kbId: text('kb_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Monthly price in the currency's minor unit (cents). */
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    queriesPerPeriod: integer('queries_per_period').notNull(),
    requestsPerMinute: integer('requests_per_minute').notNull().default(60),
    stripePriceId: text('stripe_price_id'),
    sortOrder: integer('sort_order').notNull().default(0),
    active: boolean('active').notNull().default(true),
    /**
     * An edited plan that had subscribers is retired and replaced by a new row (docs/api.md §9.2): its subscriptions
     * move to the replacement at their next period start, never mid-period.
     */
    replacedByPlanId: text('replaced_by_plan_id'),
    retiredAt: ts('retired_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('plans_kb_idx').on(t.kbId, t.sortOrder), index('plans_replaced_by_idx').on(t.replacedByPlanId)],
);

export type Publisher = typeof publishers.$inferSelect;
export type KnowledgeBase = typeof knowledgeBases.$inferSelect;
export type Plan = typeof plans.$inferSelect;

import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tsvector, ts, createdAt, updatedAt } from './columns';
import { users } from './accounts';

// The catalog: publishers, their knowledge bases and plans (docs/api.md §9.1), and the search projection the public
// listing reads.

export const categoryEnum = pgEnum('category', ['education', 'policy', 'health', 'research', 'legal']);
// Only `published` is listed and sold; `unpublished` still answers its subscribers until their period ends.
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
    /** Stripe Connect Express account (destination charges); null until onboarding starts. */
    stripeAccountId: text('stripe_account_id'),
    stripeOnboarded: boolean('stripe_onboarded').notNull().default(false),
    /** Never shown publicly. */
    contactEmail: text('contact_email'),
    /** Null for publishers created by an operator. */
    ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    suspendedAt: ts('suspended_at'),
    suspensionReason: text('suspension_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('publishers_slug_key').on(t.slug), uniqueIndex('publishers_owner_key').on(t.ownerUserId)],
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
    /** Lower-case, from the shared vocabulary. */
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** BCP 47, e.g. `en`. */
    language: text('language').notNull().default('en'),
    licence: text('licence').notNull().default('Proprietary'),
    sampleQuestions: jsonb('sample_questions')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    status: kbStatusEnum('status').notNull().default('draft'),
    statusBeforeSuspension: kbStatusEnum('status_before_suspension'),
    /** The publisher's suspension, not this listing's: the publisher's restore lifts it. */
    suspendedWithPublisher: boolean('suspended_with_publisher').notNull().default(false),
    suspensionReason: text('suspension_reason'),
    backendKind: backendKindEnum('backend_kind').notNull().default('hosted'),
    /** `http` backends only. */
    endpointUrl: text('endpoint_url'),
    /** AES-256-GCM ciphertexts (lib/platform/crypto); never leave the server. */
    infraKeyEncrypted: text('infra_key_encrypted'),
    signingSecretEncrypted: text('signing_secret_encrypted'),
    timeoutMs: integer('timeout_ms').notNull().default(30_000),
    /** The free questions anyone may ask on the knowledge-base page. */
    previewsEnabled: boolean('previews_enabled').notNull().default(true),
    /** Active subscriptions, kept in step by every subscription status change. */
    subscribersCount: integer('subscribers_count').notNull().default(0),
    /** Successful (200) queries, all time. */
    queryVolume: bigint('query_volume', { mode: 'number' }).notNull().default(0),
    documentsCount: integer('documents_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('knowledge_bases_slug_key').on(t.publisherId, t.slug),
    index('knowledge_bases_publisher_idx').on(t.publisherId),
    // No listing indexes here (they are on catalog_search), so the frequent counter updates stay heap-only.
  ],
);

// One narrow row per published knowledge base, written only by the catalog_search_sync trigger (migration 0006), so it
// cannot disagree with its source. A separate table because an exact count(*) visits the heap tuple of every match
// (GIN has no index-only scans) and the wide knowledge_bases rows do not stay cached (bench/listing/README.md).
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
    /** Stripped: filtered on, never ranked. */
    searchVector: tsvector('search_vector').notNull(),
    /** The `relevance` sort ranks title matches first. */
    titleVector: tsvector('title_vector')
      .notNull()
      .default(sql`''::tsvector`),
    /** The primary subtag, lower-case (`pt` for `pt-BR`). */
    language: text('language').notNull().default('en'),
  },
  (t) => [
    index('catalog_search_vector_idx').using('gin', t.searchVector),
    index('catalog_search_title_vector_idx').using('gin', t.titleVector),
    index('catalog_search_tags_idx').using('gin', t.tags),
    index('catalog_search_category_idx').on(t.category),
    index('catalog_search_language_idx').on(t.language),
    index('catalog_search_popular_idx').on(t.subscribersCount.desc(), t.queryVolume.desc(), t.kbId),
    index('catalog_search_new_idx').on(t.createdAt.desc(), t.kbId),
    index('catalog_search_updated_idx').on(t.updatedAt.desc(), t.kbId),
  ],
);

// Words whose stem differs from the word ("constitution" → "constitut"), so a partly typed word longer than its stem
// ("constitutio") finds its stems (lib/catalog/search-query.ts). Never pruned: a stale word can only add a stem that
// already stands for every word sharing it.
export const catalogWords = pgTable(
  'catalog_words',
  {
    word: text('word').notNull(),
    lexeme: text('lexeme').notNull(),
  },
  (t) => [primaryKey({ columns: [t.word, t.lexeme] }), index('catalog_words_prefix_idx').on(t.word.op('text_pattern_ops'))],
);

// The catalogue's plain words, unstemmed, trigram-indexed for "did you mean" (lib/catalog/suggest.ts); never pruned.
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
    /** Monthly, in the currency's minor unit. */
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    queriesPerPeriod: integer('queries_per_period').notNull(),
    requestsPerMinute: integer('requests_per_minute').notNull().default(60),
    stripePriceId: text('stripe_price_id'),
    sortOrder: integer('sort_order').notNull().default(0),
    active: boolean('active').notNull().default(true),
    /** An edited plan with subscribers is replaced; they move at their next period start, never mid-period. */
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

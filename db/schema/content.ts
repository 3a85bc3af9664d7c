import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgEnum, pgTable, primaryKey, real, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tsvector, bytea, createdAt, updatedAt } from './columns';
import { knowledgeBases } from './catalog';

// Hosted content (docs/api.md §8.3): documents, their uploaded bytes, chunks and the engine's per-knowledge-base index
// statistics.

/** queued → ingesting → ready | failed: a console upload is ingested by a background job (lib/engine/uploads.ts). */
export const documentStatusEnum = pgEnum('document_status', ['ready', 'failed', 'queued', 'ingesting']);

export const documents = pgTable(
  'documents',
  {
    id: text('id').primaryKey(),
    kbId: text('kb_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    /** File name or path; re-ingesting the same source replaces its chunks. */
    sourceName: text('source_name').notNull(),
    title: text('title').notNull(),
    mimeType: text('mime_type').notNull(),
    /** SHA-256 of the original bytes. */
    contentHash: text('content_hash').notNull(),
    byteSize: integer('byte_size').notNull(),
    pageCount: integer('page_count'),
    chunkCount: integer('chunk_count').notNull().default(0),
    /** Lets `reindex` re-chunk without the original bytes. */
    structure: jsonb('structure').$type<Record<string, unknown>>(),
    status: documentStatusEnum('status').notNull().default('ready'),
    /** Shown to the publisher. */
    errorMessage: text('error_message'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('documents_source_key').on(t.kbId, t.sourceName),
    index('documents_hash_idx').on(t.kbId, t.contentHash),
    // For lib/catalog/some-words.ts.
    index('documents_title_search_idx').using('gin', sql`to_tsvector('almanac', ${t.title})`),
  ],
);

export const chunks = pgTable(
  'chunks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    kbId: text('kb_id').notNull(),
    ordinal: integer('ordinal').notNull(),
    /** 1-based; null when the source has no pages. */
    page: integer('page'),
    heading: text('heading'),
    content: text('content').notNull(),
    tokenCount: integer('token_count').notNull().default(0),
    searchVector: tsvector('search_vector'),
    /** BM25's document length: lexeme positions in search_vector. */
    lexemeCount: integer('lexeme_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('chunks_document_idx').on(t.documentId, t.ordinal), index('chunks_kb_idx').on(t.kbId), index('chunks_search_idx').using('gin', t.searchVector)],
);

// Unit-length embeddings as a portable real[], so one migration history runs without pgvector; cast to `vector`
// where the extension exists (lib/engine/vector-search.ts).
export const chunkEmbeddings = pgTable(
  'chunk_embeddings',
  {
    chunkId: bigint('chunk_id', { mode: 'number' })
      .primaryKey()
      .references(() => chunks.id, { onDelete: 'cascade' }),
    kbId: text('kb_id').notNull(),
    model: text('model').notNull(),
    embedding: real('embedding').array().notNull(),
  },
  (t) => [index('chunk_embeddings_kb_idx').on(t.kbId, t.model)],
);

/** BM25's IDF: in how many chunks each lexeme occurs; maintained at ingest. */
export const kbTerms = pgTable(
  'kb_terms',
  {
    kbId: text('kb_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    lexeme: text('lexeme').notNull(),
    docFreq: integer('doc_freq').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kbId, t.lexeme] })],
);

/** BM25's N and average length; maintained at ingest. */
export const kbIndexStats = pgTable('kb_index_stats', {
  kbId: text('kb_id')
    .primaryKey()
    .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
  chunkCount: integer('chunk_count').notNull().default(0),
  totalLength: bigint('total_length', { mode: 'number' }).notNull().default(0),
  /** The text-search configuration the chunks were indexed with; questions must be stemmed with the same one. */
  searchConfig: text('search_config').notNull().default('almanac'),
  /** Null until calibrated, and for an index not in English: the shipped model's threshold applies. */
  gateThreshold: real('gate_threshold'),
  /** The gate models that threshold was calibrated for (gate-calibration.ts GATE_VERSION); another version's is ignored. */
  gateModel: text('gate_model'),
  updatedAt: updatedAt(),
});

// Kept in the database so the ingestion job can run, or rerun after a crash, in any instance.
export const documentSources = pgTable('document_sources', {
  documentId: text('document_id')
    .primaryKey()
    .references(() => documents.id, { onDelete: 'cascade' }),
  kbId: text('kb_id').notNull(),
  bytes: bytea('bytes').notNull(),
  mimeType: text('mime_type'),
  createdAt: createdAt(),
});

export type Document = typeof documents.$inferSelect;
export type Chunk = typeof chunks.$inferSelect;

import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgEnum, pgTable, primaryKey, real, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tsvector, bytea, createdAt, updatedAt } from './columns';
import { knowledgeBases } from './catalog';

/**
 * Hosted content: documents, their uploaded bytes, chunks and the engine's per-knowledge-base index statistics.
 */

/** queued → ingesting → ready | failed: an upload from the console is ingested by a background job (lib/engine/uploads.ts). */
export const documentStatusEnum = pgEnum('document_status', ['ready', 'failed', 'queued', 'ingesting']);

export const documents = pgTable(
  'documents',
  {
    id: text('id').primaryKey(),
    kbId: text('kb_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    /** Stable identity of a source inside its knowledge base (file name or path); re-ingesting it replaces its chunks. */
    sourceName: text('source_name').notNull(),
    title: text('title').notNull(),
    mimeType: text('mime_type').notNull(),
    /** SHA-256 of the original bytes; duplicates are detected with it. */
    contentHash: text('content_hash').notNull(),
    byteSize: integer('byte_size').notNull(),
    /** Null for sources without pages. */
    pageCount: integer('page_count'),
    chunkCount: integer('chunk_count').notNull().default(0),
    /** Engine: the parsed structure (pages of headings and paragraphs) so `reindex` can re-chunk without the original bytes. */
    structure: jsonb('structure').$type<Record<string, unknown>>(),
    status: documentStatusEnum('status').notNull().default('ready'),
    /** Why the last ingestion failed (status `failed`), in words for the publisher. */
    errorMessage: text('error_message'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('documents_source_key').on(t.kbId, t.sourceName),
    index('documents_hash_idx').on(t.kbId, t.contentHash),
    // The catalogue page's most-words search counts words of document titles (lib/catalog/some-words.ts).
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
    /** 1-based page of the source, null when the source has no pages. */
    page: integer('page'),
    heading: text('heading'),
    content: text('content').notNull(),
    tokenCount: integer('token_count').notNull().default(0),
    searchVector: tsvector('search_vector'),
    /** Engine: number of lexeme positions in search_vector, the document length of BM25. */
    lexemeCount: integer('lexeme_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('chunks_document_idx').on(t.documentId, t.ordinal), index('chunks_kb_idx').on(t.kbId), index('chunks_search_idx').using('gin', t.searchVector)],
);

/**
 * Engine, hybrid retrieval (optional): a chunk's embedding from the configured model, unit length, as a portable
 * real[] so the one migration history runs on a server without pgvector; searched through pgvector (a cast to
 * `vector`) where the database has the extension, in plain SQL otherwise (lib/engine/vector-search.ts); deleted with
 * its chunk.
 */
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

/** Engine: per knowledge base, in how many chunks each lexeme occurs (the IDF of BM25); maintained at ingest. */
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

/** Engine: per knowledge base, chunk count and total chunk length (BM25's N and average length); maintained at ingest. */
export const kbIndexStats = pgTable('kb_index_stats', {
  kbId: text('kb_id')
    .primaryKey()
    .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
  chunkCount: integer('chunk_count').notNull().default(0),
  totalLength: bigint('total_length', { mode: 'number' }).notNull().default(0),
  /**
   * The text-search configuration the knowledge base's chunks were indexed with (`almanac` English, `almanac_es`,
   * `almanac_de`, `almanac_fr`), chosen from its language when the index is first built or rebuilt; questions are
   * stemmed with the same one.
   */
  searchConfig: text('search_config').notNull().default('almanac'),
  /**
   * The relevance gate's threshold for this knowledge base (lib/engine/gate-calibration.ts), set after its index
   * changes; null until then, and for an index not in English: the shipped model's threshold applies.
   */
  gateThreshold: real('gate_threshold'),
  updatedAt: updatedAt(),
});

/**
 * The uploaded bytes of a console document, kept durably so its ingestion job can run (and run again after a crash
 * or a reindex from source) in any instance. Deleted with its document.
 */
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

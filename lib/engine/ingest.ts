import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { log } from '@/lib/platform/log';
import { itemAt } from '@/lib/platform/arrays';
import { embeddingsConfig, embedTexts, realArrayLiteral, type EmbeddingsConfig } from './embeddings';
import type { DraftChunk } from './chunking';
import { checkedSearchConfig, searchConfigFor, type SearchConfig } from './language';
import { chunkInWorker, prepareInWorker } from './parse-in-worker';
import type { IndexedChunk } from './parse-task';
import { detectFormat, ParseError, type ParsedDocument } from './parsers';
import { tooLargeMessage } from '@/lib/platform/file-size';
import { insertChunks, STAGE_ABOVE, stageChunks, unstageChunks } from './chunk-store';
import { applyDocumentStats, rebuildKnowledgeBaseStats } from './index-stats';

/** The index's writes, for the CLI, the benches and the tests. */
export { insertChunks } from './chunk-store';
export { rebuildKnowledgeBaseStats } from './index-stats';

/**
 * Ingestion: bytes → parsed structure and chunks (in a worker, within the PARSE_* budgets) → chunks with full-text
 * vectors → BM25 statistics. Readers see a document's chunks all at once or not at all: a small document is written
 * in one transaction; a large one's chunks are first written in short batches out of readers' sight (staged), then
 * made visible in one short transaction with the document row and the statistics. Every function takes the
 * executor: the seed calls them before getDb() resolves.
 */
export type IngestFailureCode =
  'knowledge_base_not_found' | 'empty_file' | 'file_too_large' | 'unsupported_type' | 'corrupt_pdf' | 'no_text' | 'invalid_encoding' | 'over_limit';

export type IngestResult =
  | {
      ok: true;
      status: 'added' | 'replaced' | 'duplicate';
      sourceName: string;
      documentId: string;
      title: string;
      chunkCount: number;
      pageCount: number | null;
      /** For a duplicate: the document that already holds these bytes. */
      duplicateOf?: string;
      /** Its source (file) name, to name it to a person: ids are not for people. */
      duplicateOfName?: string;
    }
  | { ok: false; code: IngestFailureCode; sourceName: string; message: string };

export interface IngestInput {
  /** Stable identity of the source inside the knowledge base, usually its file name. */
  sourceName: string;
  bytes: Uint8Array;
  mimeType?: string;
}

/** Same source name in the same knowledge base → same id, across re-ingests and deletions. */
export function documentIdFor(kbId: string, sourceName: string): string {
  const digest = createHash('sha256').update(`${kbId}\u0000${sourceName}`).digest();
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let id = '';
  for (const byte of digest.subarray(0, 16)) id += alphabet.charAt(byte % 62);
  return `doc_${id}`;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const rows = <T>(result: { rows: unknown[] }) => result.rows as T[];

function fail(sourceName: string, code: IngestFailureCode, message: string): IngestResult {
  return { ok: false, code, sourceName, message };
}

/** The text of a chunk that is embedded: its heading path, then its content. */
const embeddedText = (d: DraftChunk) => `${d.heading ?? ''}\n${d.content}`;

/** Vectors of a document's chunks, or null when the endpoint fails (the document is then searchable lexically only). */
async function embedDrafts(config: EmbeddingsConfig | null, drafts: DraftChunk[], sourceName: string): Promise<number[][] | null> {
  if (!config || drafts.length === 0) return null;
  try {
    return await embedTexts(config, drafts.map(embeddedText));
  } catch (error) {
    log.warn({ sourceName, err: (error as Error).message }, 'embeddings failed; the document is indexed lexically only');
    return null;
  }
}

/** Stores one document's chunk vectors (after its chunks are inserted), matched by ordinal. */
async function insertEmbeddings(tx: Executor, kbId: string, documentId: string, model: string, drafts: DraftChunk[], vectors: number[][]): Promise<void> {
  const BATCH = 200;
  for (let i = 0; i < drafts.length; i += BATCH) {
    const batch = drafts.slice(i, i + BATCH).map((d, k) => ({ ordinal: d.ordinal, embedding: realArrayLiteral(itemAt(vectors, i + k)) }));
    await tx.execute(sql`
      insert into chunk_embeddings (chunk_id, kb_id, model, embedding)
      select c.id, ${kbId}, ${model}, x.embedding::real[]
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as x(ordinal int, embedding text)
      join chunks c on c.document_id = ${documentId} and c.kb_id = ${kbId} and c.ordinal = x.ordinal`);
  }
}

/**
 * Takes the knowledge base's statistics row lock (creating the row on first use): ingests into one knowledge base
 * run one after another, so document frequencies stay exact. Returns the text-search configuration to index with
 * (the one the index was built with; an empty index adopts the knowledge base's current language), or null when
 * the knowledge base does not exist.
 */
async function lockKnowledgeBase(tx: Executor, kbId: string, options: { adoptLanguage?: boolean } = {}): Promise<SearchConfig | null> {
  const kb = rows<{ language: string }>(await tx.execute(sql`select language from knowledge_bases where id = ${kbId}`));
  if (!kb[0]) return null;
  const current = searchConfigFor(kb[0].language);
  await tx.execute(sql`insert into kb_index_stats (kb_id, search_config) values (${kbId}, ${current}) on conflict (kb_id) do nothing`);
  const stats = rows<{ search_config: string; chunk_count: number }>(
    await tx.execute(sql`select search_config, chunk_count from kb_index_stats where kb_id = ${kbId} for update`),
  );
  const stored = checkedSearchConfig(stats[0]?.search_config);
  if (stored !== current && (options.adoptLanguage || Number(stats[0]?.chunk_count ?? 0) === 0)) {
    await tx.execute(sql`update kb_index_stats set search_config = ${current} where kb_id = ${kbId}`);
    return current;
  }
  return stored;
}

async function touchKnowledgeBase(tx: Executor, kbId: string): Promise<void> {
  await tx.execute(sql`
    update knowledge_bases set
      documents_count = (select count(*)::int from documents where kb_id = ${kbId} and status = 'ready'),
      updated_at = now()
    where id = ${kbId}`);
}

async function writeParsedDocument(
  db: Executor,
  kbId: string,
  input: { sourceName: string; hash: string; byteSize: number },
  parsed: ParsedDocument,
  drafts: IndexedChunk[],
  embeddings: EmbeddingsConfig | null,
): Promise<IngestResult> {
  const documentId = documentIdFor(kbId, input.sourceName);
  // Outside the transaction: a slow embeddings endpoint must not hold the knowledge base's lock.
  const vectors = await embedDrafts(embeddings, drafts, input.sourceName);
  const staged = drafts.length > STAGE_ABOVE ? await stageChunks(db, kbId, input.sourceName, drafts) : null;
  // The document row, its chunks (moved from staging, or inserted), vectors and statistics: one transaction.
  try {
    return await db.transaction(async (tx) => {
      const config = await lockKnowledgeBase(tx, kbId);
      if (!config) {
        return fail(input.sourceName, 'knowledge_base_not_found', `No knowledge base with id ${kbId}.`);
      }
      const existing = rows<{ id: string; content_hash: string; source_name: string; status: string }>(
        await tx.execute(sql`
        select id, content_hash, source_name, status from documents
        where kb_id = ${kbId} and (source_name = ${input.sourceName} or content_hash = ${input.hash})
        order by (source_name = ${input.sourceName}) desc`),
      );
      const same = existing.find((d) => d.source_name === input.sourceName);
      // A console upload waiting for this very ingestion (queued/ingesting) is the document being written, not a copy.
      const identical = existing.find((d) => d.content_hash === input.hash && d.status === 'ready');
      if (identical) {
        const count = rows<{ n: number }>(await tx.execute(sql`select chunk_count as n from documents where id = ${identical.id}`));
        return {
          ok: true as const,
          status: 'duplicate' as const,
          sourceName: input.sourceName,
          documentId: identical.id,
          title: parsed.title,
          chunkCount: Number(count[0]?.n ?? 0),
          pageCount: parsed.pageCount,
          duplicateOf: identical.id,
          duplicateOfName: identical.source_name,
        };
      }
      const structure = JSON.stringify({ format: parsed.format, pages: parsed.pages });
      if (same) {
        await applyDocumentStats(tx, kbId, same.id, -1);
        await tx.execute(sql`delete from chunks where document_id = ${same.id} and kb_id = ${kbId}`);
        await tx.execute(sql`
        update documents set title = ${parsed.title}, mime_type = ${parsed.mimeType}, content_hash = ${input.hash},
          byte_size = ${input.byteSize}, page_count = ${parsed.pageCount}, chunk_count = ${drafts.length},
          structure = ${structure}::jsonb, status = 'ready', error_message = null, updated_at = now()
        where id = ${same.id}`);
      } else {
        await tx.execute(sql`
        insert into documents (id, kb_id, source_name, title, mime_type, content_hash, byte_size, page_count, chunk_count, structure, status)
        values (${documentId}, ${kbId}, ${input.sourceName}, ${parsed.title}, ${parsed.mimeType}, ${input.hash}, ${input.byteSize},
                ${parsed.pageCount}, ${drafts.length}, ${structure}::jsonb, 'ready')`);
      }
      const id = same?.id ?? documentId;
      if (staged && staged.documentId === id && staged.config === config) await unstageChunks(tx, kbId, staged, drafts.length);
      else await insertChunks(tx, kbId, id, drafts, config);
      if (vectors && embeddings) await insertEmbeddings(tx, kbId, id, embeddings.model, drafts, vectors);
      await applyDocumentStats(tx, kbId, id, 1);
      await touchKnowledgeBase(tx, kbId);
      return {
        ok: true as const,
        status: same ? ('replaced' as const) : ('added' as const),
        sourceName: input.sourceName,
        documentId: id,
        title: parsed.title,
        chunkCount: drafts.length,
        pageCount: parsed.pageCount,
      };
    });
  } finally {
    // What a failed attempt or a duplicate staged; nothing after a success, whose chunks were moved.
    if (staged) await db.execute(sql`delete from chunks where kb_id = ${staged.stage}`);
  }
}

/**
 * Ingests one file into a knowledge base. Bad input (empty, too large, unsupported, unreadable) is a failure
 * value and leaves the knowledge base untouched; a changed file replaces its previous chunks atomically; identical
 * bytes already present are reported as a duplicate and change nothing.
 */
export async function ingestDocument(
  db: Executor,
  kbId: string,
  input: IngestInput,
  options: {
    maxBytes?: number;
    embeddings?: EmbeddingsConfig | null;
    /** Called once the file is parsed, before chunks are written (the console shows the page count while ingesting). */
    onParsed?: (parsed: { title: string; pageCount: number | null }) => Promise<void>;
  } = {},
): Promise<IngestResult> {
  const { sourceName, bytes } = input;
  const maxBytes = options.maxBytes ?? getEnv().MAX_UPLOAD_BYTES;
  if (!sourceName.trim()) return fail(sourceName, 'unsupported_type', 'The document needs a file name.');
  if (bytes.length === 0) return fail(sourceName, 'empty_file', 'The file is empty.');
  if (bytes.length > maxBytes) return fail(sourceName, 'file_too_large', tooLargeMessage('', bytes.length, maxBytes));
  const format = detectFormat(sourceName, input.mimeType);
  if (!format) return fail(sourceName, 'unsupported_type', 'Unsupported file type: use .txt, .md, .html or .pdf.');
  let prepared: { parsed: ParsedDocument; chunks: IndexedChunk[] };
  try {
    prepared = await prepareInWorker(format, bytes, sourceName);
  } catch (error) {
    if (error instanceof ParseError) {
      const code: IngestFailureCode = error.code === 'unsupported_type' ? 'unsupported_type' : error.code;
      return fail(sourceName, code, error.message);
    }
    throw error;
  }
  const { parsed, chunks } = prepared;
  await options.onParsed?.({ title: parsed.title, pageCount: parsed.pageCount });
  const embeddings = options.embeddings === undefined ? embeddingsConfig() : options.embeddings;
  return writeParsedDocument(db, kbId, { sourceName, hash: sha256Hex(bytes), byteSize: bytes.length }, parsed, chunks, embeddings);
}

export type DeleteDocumentResult = { ok: true; documentId: string } | { ok: false; code: 'document_not_found' | 'knowledge_base_not_found' };

/** Removes a document, its chunks and its share of the statistics, in one transaction. */
export async function deleteDocument(db: Executor, kbId: string, documentId: string): Promise<DeleteDocumentResult> {
  return db.transaction(async (tx) => {
    if (!(await lockKnowledgeBase(tx, kbId))) return { ok: false as const, code: 'knowledge_base_not_found' as const };
    const found = rows<{ id: string }>(await tx.execute(sql`select id from documents where id = ${documentId} and kb_id = ${kbId}`));
    if (found.length === 0) return { ok: false as const, code: 'document_not_found' as const };
    await applyDocumentStats(tx, kbId, documentId, -1);
    await tx.execute(sql`delete from documents where id = ${documentId}`);
    await touchKnowledgeBase(tx, kbId);
    return { ok: true as const, documentId };
  });
}

export type ReindexResult = { ok: true; documents: number; chunks: number } | { ok: false; code: 'knowledge_base_not_found' };

/**
 * Re-chunks every document from its stored structure and rebuilds the statistics from scratch (after a change of
 * the chunker, of the knowledge base's language or of the text-search configuration, or to repair drift), stemming
 * with the configuration of the knowledge base's current language. One transaction: readers see old or new.
 */
export async function reindexKnowledgeBase(db: Executor, kbId: string, options: { embeddings?: EmbeddingsConfig | null } = {}): Promise<ReindexResult> {
  const embeddings = options.embeddings === undefined ? embeddingsConfig() : options.embeddings;
  return db.transaction(async (tx) => {
    const config = await lockKnowledgeBase(tx, kbId, { adoptLanguage: true });
    if (!config) return { ok: false as const, code: 'knowledge_base_not_found' as const };
    const docs = rows<{
      id: string;
      title: string;
      mime_type: string;
      page_count: number | null;
      structure: { format: ParsedDocument['format']; pages: ParsedDocument['pages'] } | null;
    }>(await tx.execute(sql`select id, title, mime_type, page_count, structure from documents where kb_id = ${kbId} order by id`));
    let total = 0;
    for (const d of docs) {
      if (!d.structure) continue;
      const parsed: ParsedDocument = { title: d.title, format: d.structure.format, mimeType: d.mime_type, pageCount: d.page_count, pages: d.structure.pages };
      const drafts = await chunkInWorker(parsed);
      await tx.execute(sql`delete from chunks where document_id = ${d.id}`);
      await insertChunks(tx, kbId, d.id, drafts, config);
      const vectors = await embedDrafts(embeddings, drafts, d.id);
      if (vectors && embeddings) await insertEmbeddings(tx, kbId, d.id, embeddings.model, drafts, vectors);
      await tx.execute(sql`update documents set chunk_count = ${drafts.length}, updated_at = now() where id = ${d.id}`);
      total += drafts.length;
    }
    await rebuildKnowledgeBaseStats(tx, kbId);
    await touchKnowledgeBase(tx, kbId);
    return { ok: true as const, documents: docs.length, chunks: total };
  });
}

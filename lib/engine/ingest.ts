import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { embedDrafts, embeddingsConfig, type EmbeddingsConfig } from './embeddings';
import { prepareInWorker } from './parse-in-worker';
import type { IndexedChunk } from './parse-task';
import { detectFormat, ParseError, type ParsedDocument } from './parsers';
import { tooLargeMessage } from '@/lib/platform/file-size';
import { claimPlaceholderRow, dropPlaceholderRow, dropStagedChunks, replaceDocumentChunks, STAGE_ABOVE, stageChunks, type Staged } from './chunk-store';
import { applyDocumentStats, lockKnowledgeBase, touchKnowledgeBase } from './index-stats';
import { rows } from './sql-rows';

/** The index's writes, for the CLI, the benches and the tests. */
export { insertChunks } from './chunk-store';
export { rebuildKnowledgeBaseStats } from './index-stats';

/**
 * Ingestion: bytes → parsed structure and chunks (in a worker, within the PARSE_* budgets) → chunks with full-text
 * vectors → BM25 statistics. Readers see a document's chunks all at once or not at all: a small document is written
 * in one transaction; a large one's chunks are first written in short batches out of readers' sight (staged, under
 * its row, or under a placeholder row for a first ingestion), then made visible in one short transaction with the
 * document row and the statistics. Every function takes the executor: the seed calls them before getDb() resolves.
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

function fail(sourceName: string, code: IngestFailureCode, message: string): IngestResult {
  return { ok: false, code, sourceName, message };
}

/**
 * A large document's chunks, staged before its transaction. A first ingestion has no row for them to reference, so it
 * claims a placeholder. Nothing is staged for bytes a ready document already holds: the transaction reports the
 * duplicate (or, should that document have gone meanwhile, writes the chunks itself).
 */
async function stageLargeDocument(
  db: Executor,
  kbId: string,
  input: { sourceName: string; hash: string; byteSize: number },
  parsed: ParsedDocument,
  drafts: IndexedChunk[],
): Promise<{ staged: Staged | null; placeholder: string | null }> {
  const copy = rows(await db.execute(sql`select 1 from documents where kb_id = ${kbId} and content_hash = ${input.hash} and status = 'ready' limit 1`));
  if (copy.length > 0) return { staged: null, placeholder: null };
  const documentId = documentIdFor(kbId, input.sourceName);
  const row = { sourceName: input.sourceName, title: parsed.title, mimeType: parsed.mimeType, hash: input.hash, byteSize: input.byteSize };
  const placeholder = (await claimPlaceholderRow(db, kbId, documentId, row)) ? documentId : null;
  const existing = rows<{ id: string }>(await db.execute(sql`select id from documents where kb_id = ${kbId} and source_name = ${input.sourceName}`));
  try {
    return { staged: existing[0] ? await stageChunks(db, kbId, existing[0].id, drafts) : null, placeholder };
  } catch (error) {
    if (placeholder) await dropPlaceholderRow(db, placeholder);
    throw error;
  }
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
  const embedded = await embedDrafts(embeddings, drafts, input.sourceName);
  const { staged, placeholder } = drafts.length > STAGE_ABOVE ? await stageLargeDocument(db, kbId, input, parsed, drafts) : { staged: null, placeholder: null };
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
      // This ingestion's own placeholder, still unclaimed by any other: the document is new.
      const added = !same || (same.id === placeholder && same.status === 'ingesting');
      if (same) {
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
      await replaceDocumentChunks(tx, kbId, id, { drafts, config, staged, embedded });
      await touchKnowledgeBase(tx, kbId);
      return {
        ok: true as const,
        status: added ? ('added' as const) : ('replaced' as const),
        sourceName: input.sourceName,
        documentId: id,
        title: parsed.title,
        chunkCount: drafts.length,
        pageCount: parsed.pageCount,
      };
    });
  } finally {
    if (staged) await dropStagedChunks(db, staged);
    // A duplicate's, or a failed attempt's; after a success the row is the ready document and stays.
    if (placeholder) await dropPlaceholderRow(db, placeholder);
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

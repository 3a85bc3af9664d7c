import { readFile } from 'node:fs/promises';
import { and, asc, eq, sql } from 'drizzle-orm';
import { documents, documentSources } from '@/db/schema';
import type { Database, Executor } from '@/lib/platform/db';
import { getDb } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { defineJobHandler, enqueueJob } from '@/lib/platform/jobs';
import { log } from '@/lib/platform/log';
import { processSingleton } from '@/lib/platform/singleton';
import { getRateLimiter } from '@/lib/limits';
import { inTransaction } from '@/lib/platform/transactions';
import { requireOwnedKnowledgeBase } from '@/lib/publishing';
import { deleteDocument, documentIdFor, ingestDocument, sha256Hex } from './ingest';
import { reindexKnowledgeBase } from './reindex';
import { CALIBRATE_QUEUE, calibrateGate, enqueueCalibration } from './gate-calibration';
import { detectFormat, MIME_TYPES } from './parsers';
import { tooLargeMessage } from '@/lib/platform/file-size';
import { adoptSourceFile, intoDatabaseRow, readSource, removeSourceFile, sourceStorage, writeSourceFile } from './source-store';

/**
 * The publisher console's hosted content (docs/api.md §9.5): an upload stores the bytes (document_sources) and a
 * `queued` document row and enqueues its ingestion in the same transaction, so the request returns at once and the
 * work survives a restart; the job (any instance, once at a time: lib/platform/jobs.ts) parses and writes the
 * chunks with the engine's own ingestDocument. Every function takes the session's user id and checks ownership first.
 */

export const INGEST_QUEUE = 'content.ingest';
export const REINDEX_QUEUE = 'content.reindex';
/** An ingestion that throws (not a bad file: a database fault) is tried this often before the document is `failed`. */
const INGEST_ATTEMPTS = 3;

export type DocumentStatus = 'queued' | 'ingesting' | 'ready' | 'failed';

/** What the console shows of a document: nothing of its text. */
export interface DocumentView {
  id: string;
  name: string;
  title: string;
  status: DocumentStatus;
  byteSize: number;
  pageCount: number | null;
  chunkCount: number;
  error: string | null;
  updatedAt: string;
}

export type ContentDenial = { ok: false; code: 'not_found' | 'conflict' | 'payload_too_large' | 'unsupported_media_type' | 'invalid_request'; message: string };

const deny = (code: ContentDenial['code'], message: string): ContentDenial => ({ ok: false, code, message });

/** Accepted file endings, for the page's file picker and messages. */
export const ACCEPTED_EXTENSIONS = ['.md', '.txt', '.html', '.pdf'];

function toDocumentView(row: typeof documents.$inferSelect): DocumentView {
  return {
    id: row.id,
    name: row.sourceName,
    title: row.title,
    status: row.status,
    byteSize: row.byteSize,
    pageCount: row.pageCount,
    chunkCount: row.chunkCount,
    error: row.errorMessage,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Longest source name kept, in code points. */
const MAX_NAME_LENGTH = 200;
/** Longer endings are not file types (`notes.<300 characters>`): such a name is cut like any other. */
const MAX_EXTENSION_LENGTH = 16;

/**
 * A file name as a stable source name: its last path segment, trimmed, without control characters, and at most
 * MAX_NAME_LENGTH code points. A longer name loses the end of its stem, not its extension: the extension is what
 * says how the file is read. Code points, not UTF-16 units, so that a surrogate pair is never cut in half.
 */
export function sourceNameOf(fileName: string): string {
  const base = (fileName.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const chars = Array.from(base);
  if (chars.length <= MAX_NAME_LENGTH) return base;
  const dot = chars.lastIndexOf('.');
  const extension = dot > 0 && chars.length - dot <= MAX_EXTENSION_LENGTH ? chars.slice(dot) : [];
  const stem = chars
    .slice(0, MAX_NAME_LENGTH - extension.length)
    .join('')
    .replace(/[\s.]+$/u, '');
  return stem + extension.join('');
}

async function ownedHosted(db: Executor, userId: string, kbId: string) {
  const owned = await requireOwnedKnowledgeBase(db, userId, kbId);
  if (!owned.ok) return owned;
  if (owned.kb.backendKind !== 'hosted') return deny('conflict', 'This knowledge base answers from its own backend; documents are for hosted knowledge bases.');
  return owned;
}

export async function listDocumentsForOwner(db: Executor, userId: string, kbId: string): Promise<{ ok: true; documents: DocumentView[] } | ContentDenial> {
  const owned = await requireOwnedKnowledgeBase(db, userId, kbId);
  if (!owned.ok) return owned;
  const rows = await db.select().from(documents).where(eq(documents.kbId, kbId)).orderBy(asc(documents.sourceName));
  return { ok: true, documents: rows.map(toDocumentView) };
}

export type UploadAdmission = { ok: true; release: () => void } | { ok: false; code: 'rate_limit_exceeded'; message: string; retryAfterSeconds: number };

const uploadsInFlight = processSingleton('uploads-in-flight', () => new Map<string, number>());

/**
 * Whether this account may start one more upload now (docs/api.md §9.5): at most UPLOADS_CONCURRENT_PER_ACCOUNT at
 * once on this instance, and UPLOADS_PER_HOUR files an hour on the shared limiter. Asked before the body is read;
 * `release` once the upload is stored or refused.
 */
export async function admitUpload(userId: string): Promise<UploadAdmission> {
  const env = getEnv();
  const running = uploadsInFlight.get(userId) ?? 0;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    const left = (uploadsInFlight.get(userId) ?? 1) - 1;
    if (left > 0) uploadsInFlight.set(userId, left);
    else uploadsInFlight.delete(userId);
  };
  if (running >= env.UPLOADS_CONCURRENT_PER_ACCOUNT) {
    const files = env.UPLOADS_CONCURRENT_PER_ACCOUNT === 1 ? 'one file' : `${env.UPLOADS_CONCURRENT_PER_ACCOUNT} files`;
    return {
      ok: false,
      code: 'rate_limit_exceeded',
      message: `An account may send ${files} at once; wait for an upload to finish, then try again.`,
      retryAfterSeconds: 1,
    };
  }
  // Counted before the limiter is asked, so that concurrent requests cannot all pass the check above.
  uploadsInFlight.set(userId, running + 1);
  const hourly = await getRateLimiter().consume(`uploads:${userId}`, { limit: env.UPLOADS_PER_HOUR, windowMs: 3_600_000 });
  if (!hourly.allowed) {
    release();
    const minutes = Math.ceil(hourly.retryAfterSeconds / 60);
    return {
      ok: false,
      code: 'rate_limit_exceeded',
      message: `An account may upload ${env.UPLOADS_PER_HOUR} files an hour; try again in ${minutes === 1 ? 'a minute' : `${minutes} minutes`}.`,
      retryAfterSeconds: hourly.retryAfterSeconds,
    };
  }
  return { ok: true, release };
}

/** An upload already streamed to a file (lib/platform/multipart-upload.ts), with its size and SHA-256 (hex). */
export interface StagedUpload {
  path: string;
  size: number;
  sha256: string;
}

/**
 * Stores an uploaded file and queues its ingestion. A file with the name of an existing document replaces it
 * (the old version keeps answering until the new one is ready). Size, emptiness and type are checked here too,
 * whatever the browser checked. A staged upload is moved into place when sources are files, so its bytes are never
 * in this process's memory; it is read once when they go into the database.
 */
export async function uploadDocument(
  db: Executor,
  userId: string,
  kbId: string,
  file: { name: string; type?: string } & ({ bytes: Uint8Array } | { staged: StagedUpload }),
): Promise<{ ok: true; document: DocumentView } | ContentDenial> {
  const maxBytes = getEnv().MAX_UPLOAD_BYTES;
  const name = sourceNameOf(file.name);
  const size = 'staged' in file ? file.staged.size : file.bytes.length;
  if (!name) return deny('invalid_request', 'The file needs a name.');
  if (size > maxBytes) return deny('payload_too_large', tooLargeMessage(name, size, maxBytes));
  if (size === 0) return deny('invalid_request', `“${name}” is empty.`);
  const format = detectFormat(name, file.type || undefined);
  if (!format)
    return deny(
      'unsupported_media_type',
      `“${name}” is not a type of file Almanac reads: use ${ACCEPTED_EXTENSIONS.slice(0, -1).join(', ')} or ${ACCEPTED_EXTENSIONS.at(-1)} files.`,
    );
  const hash = 'staged' in file ? file.staged.sha256 : sha256Hex(file.bytes);
  const record = (stored: Uint8Array) =>
    inTransaction(db, async (tx) => {
      const owned = await ownedHosted(tx, userId, kbId);
      if (!owned.ok) return owned;
      const id = documentIdFor(kbId, name);
      const [row] = await tx
        .insert(documents)
        .values({ id, kbId, sourceName: name, title: name, mimeType: MIME_TYPES[format], contentHash: hash, byteSize: size, status: 'queued' })
        .onConflictDoUpdate({
          target: [documents.kbId, documents.sourceName],
          set: { status: 'queued', errorMessage: null, byteSize: size, updatedAt: new Date() },
        })
        .returning();
      await tx
        .insert(documentSources)
        .values({ documentId: row!.id, kbId, bytes: stored, mimeType: MIME_TYPES[format] })
        .onConflictDoUpdate({ target: documentSources.documentId, set: { bytes: stored, mimeType: MIME_TYPES[format], createdAt: new Date() } });
      await enqueueJob(tx, { queue: INGEST_QUEUE, payload: { documentId: row!.id, kbId, hash }, maxAttempts: INGEST_ATTEMPTS });
      return { ok: true as const, document: toDocumentView(row!) };
    });
  if ((await sourceStorage()) === 'file') {
    // The file is written before the transaction, so ownership is checked first: a stranger's upload must not replace
    // the bytes an owner's pending ingestion is about to read.
    const owned = await ownedHosted(db, userId, kbId);
    if (!owned.ok) return owned;
    if ('staged' in file) await adoptSourceFile(documentIdFor(kbId, name), file.staged.path);
    else await writeSourceFile(documentIdFor(kbId, name), file.bytes);
    return record(new Uint8Array(0));
  }
  return intoDatabaseRow(async () => record('staged' in file ? await readFile(file.staged.path) : file.bytes));
}

export async function deleteDocumentForOwner(db: Executor, userId: string, kbId: string, documentId: string): Promise<{ ok: true } | ContentDenial> {
  const owned = await requireOwnedKnowledgeBase(db, userId, kbId);
  if (!owned.ok) return owned;
  const result = await deleteDocument(db, kbId, documentId);
  if (!result.ok) return deny('not_found', 'No such document.');
  await removeSourceFile(result.documentId);
  await enqueueCalibration(db, kbId);
  return { ok: true };
}

/** Queues a rebuild of the knowledge base's chunks and statistics from the stored structure of its documents. */
export async function requestReindex(db: Executor, userId: string, kbId: string): Promise<{ ok: true } | ContentDenial> {
  return inTransaction(db, async (tx) => {
    const owned = await ownedHosted(tx, userId, kbId);
    if (!owned.ok) return owned;
    await enqueueJob(tx, { queue: REINDEX_QUEUE, payload: { kbId } });
    return { ok: true as const };
  });
}

async function markDocument(db: Database, documentId: string, set: Partial<typeof documents.$inferInsert>, onlyWhile?: DocumentStatus[]): Promise<void> {
  const where = onlyWhile
    ? and(
        eq(documents.id, documentId),
        sql`${documents.status} in (${sql.join(
          onlyWhile.map((s) => sql`${s}`),
          sql`, `,
        )})`,
      )
    : eq(documents.id, documentId);
  await db
    .update(documents)
    .set({ ...set, updatedAt: new Date() })
    .where(where);
}

/**
 * The ingestion job. At-least-once safe: a job whose upload was superseded (other bytes stored since) or deleted does
 * nothing; running the same upload twice writes the same chunks (ingestion replaces a document's chunks atomically).
 */
export async function runIngestJob(
  db: Database,
  payload: { documentId: string; kbId: string; hash: string },
  attempt: number,
  hooks: { afterParse?: () => Promise<void> } = {},
): Promise<void> {
  const [source] = await db.select().from(documentSources).where(eq(documentSources.documentId, payload.documentId));
  const [doc] = await db.select().from(documents).where(eq(documents.id, payload.documentId));
  if (!source || !doc) return;
  const bytes = await readSource(source);
  if (!bytes || sha256Hex(bytes) !== payload.hash) return;
  // An earlier attempt at these bytes already stored its outcome (its worker then stalled past the lease, or died
  // before marking the job done): a re-upload sets `queued`, so `ready` with this hash or `failed` means settled.
  if ((doc.status === 'ready' && doc.contentHash === payload.hash) || doc.status === 'failed') return;
  await markDocument(db, doc.id, { status: 'ingesting', pageCount: null }, ['queued', 'ingesting']);
  try {
    const result = await ingestDocument(
      db,
      payload.kbId,
      { sourceName: doc.sourceName, bytes, mimeType: source.mimeType ?? undefined },
      {
        onParsed: async ({ pageCount }) => {
          await markDocument(db, doc.id, { pageCount }, ['ingesting']);
          await hooks.afterParse?.();
        },
      },
    );
    if (result.ok && result.status !== 'duplicate') await enqueueCalibration(db, payload.kbId);
    if (!result.ok) {
      await markDocument(db, doc.id, { status: 'failed', errorMessage: result.message }, ['ingesting']);
    } else if (result.status === 'duplicate' && result.documentId !== doc.id) {
      // Named as the console lists it, by its file name: the publisher has never seen a document id.
      const message = result.duplicateOfName
        ? `The same content is already here as “${result.duplicateOfName}”.`
        : 'The same content is already here as another document.';
      await markDocument(db, doc.id, { status: 'failed', errorMessage: message }, ['ingesting']);
    }
  } catch (error) {
    if (attempt < INGEST_ATTEMPTS) throw error;
    log.error({ err: error, documentId: doc.id }, 'document ingestion failed for good');
    await markDocument(db, doc.id, { status: 'failed', errorMessage: 'Ingestion failed on our side; upload the file again.' }, ['queued', 'ingesting']);
  }
}

/** Registers the content queues' handlers in this process (instrumentation.ts, before the worker starts). */
export function registerContentJobs(database: () => Promise<Database> = getDb): void {
  defineJobHandler(INGEST_QUEUE, async (payload, ctx) => runIngestJob(await database(), payload, ctx.attempt));
  defineJobHandler(REINDEX_QUEUE, async (payload: { kbId: string }) => {
    const db = await database();
    await reindexKnowledgeBase(db, payload.kbId);
    await calibrateGate(db, payload.kbId);
  });
  defineJobHandler(CALIBRATE_QUEUE, async (payload: { kbId: string }) => {
    await calibrateGate(await database(), payload.kbId);
  });
}

import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getDatabaseHandle } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { randomBase62 } from '@/lib/platform/ids';

/**
 * Where an uploaded file's bytes wait for their ingestion (uploads.ts). On PostgreSQL, in `document_sources.bytes`,
 * which every instance can read. On the embedded database, in a file under `DATA_DIR/sources`, with an empty value in
 * the row: PGlite runs on the event loop's thread and took about 0.7 s per MB to write a bytea value and 0.25 s per
 * MB to read it back, so one 19 MB upload held every other request, health checks included, for 14 s. The file is
 * written and read asynchronously, off that thread. An upload is never empty (refused), so an empty value in the row
 * means "in its file" and nothing else.
 */

export type SourceStorage = 'database' | 'file';

export async function sourceStorage(): Promise<SourceStorage> {
  return (await getDatabaseHandle()).kind === 'pglite' ? 'file' : 'database';
}

const sourcesDirectory = () => path.join(path.resolve(getEnv().DATA_DIR), 'sources');
const sourcePath = (documentId: string) => path.join(sourcesDirectory(), `${documentId}.bin`);

/**
 * Where an upload is streamed before it is stored: beside the source files when they are files (so that storing it
 * is a rename on the same file system), else the system's temporary directory (an instance on PostgreSQL may have no
 * writable DATA_DIR).
 */
export async function uploadStagingDirectory(): Promise<string> {
  return (await sourceStorage()) === 'file' ? path.join(sourcesDirectory(), 'incoming') : path.join(os.tmpdir(), 'almanac-uploads');
}

/** Makes a staged upload (uploadStagingDirectory) a document's file: a rename, whole or not at all. */
export async function adoptSourceFile(documentId: string, stagedPath: string): Promise<void> {
  const target = sourcePath(documentId);
  await mkdir(path.dirname(target), { recursive: true });
  await rename(stagedPath, target);
}

/** Writes a document's bytes to its file, whole or not at all (a temporary file renamed into place). */
export async function writeSourceFile(documentId: string, bytes: Uint8Array): Promise<void> {
  const target = sourcePath(documentId);
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${randomBase62(8)}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, target);
}

/** A document's stored bytes: the row's, or its file's when the row holds none; null when the file is gone. */
export async function readSource(source: { documentId: string; bytes: Uint8Array }): Promise<Uint8Array | null> {
  if (source.bytes.length > 0) return new Uint8Array(source.bytes);
  try {
    return new Uint8Array(await readFile(sourcePath(source.documentId)));
  } catch {
    return null;
  }
}

export async function removeSourceFile(documentId: string): Promise<void> {
  await rm(sourcePath(documentId), { force: true });
}

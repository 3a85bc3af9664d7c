import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { getDatabaseHandle } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { randomBase62 } from '@/lib/platform/ids';

/**
 * An upload's bytes until ingestion: in `document_sources.bytes` on PostgreSQL, in `DATA_DIR/sources` on PGlite, which
 * writes bytea on the event loop's thread. An upload is never empty, so an empty value in the row means "in its file".
 */

export type SourceStorage = 'database' | 'file';

export async function sourceStorage(): Promise<SourceStorage> {
  return (await getDatabaseHandle()).kind === 'pglite' ? 'file' : 'database';
}

const sourcesDirectory = () => path.join(path.resolve(getEnv().DATA_DIR), 'sources');
const sourcePath = (documentId: string) => path.join(sourcesDirectory(), `${documentId}.bin`);

export async function uploadStagingDirectory(): Promise<string> {
  return (await sourceStorage()) === 'file' ? path.join(sourcesDirectory(), 'incoming') : path.join(os.tmpdir(), 'almanac-uploads');
}

export async function adoptSourceFile(documentId: string, stagedPath: string): Promise<void> {
  const target = sourcePath(documentId);
  await mkdir(path.dirname(target), { recursive: true });
  await rename(stagedPath, target);
}

export async function writeSourceFile(documentId: string, bytes: Uint8Array): Promise<void> {
  const target = sourcePath(documentId);
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${randomBase62(8)}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, target);
}

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

/**
 * Uploads going into `document_sources` rows, two at a time per process: each holds its bytes and the driver's hex copy
 * of them (three times the file) until the row is written, and twenty 19 MB uploads at once took 1.2 GB and held the
 * event loop for 1.6 s (bench/uploads). The rest wait as staged files, on disk.
 */
export const intoDatabaseRow = pLimit(2);

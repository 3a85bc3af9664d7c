import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import Busboy from '@fastify/busboy';
import { ApiError } from './errors';
import { formatFileSize, tooLargeMessage } from './file-size';
import { randomBase62 } from './ids';

/**
 * One file of a multipart/form-data body streamed to disk, hashed and counted as it passes (docs/api.md §9.5), so
 * parallel uploads cost small buffers, not copies of their files. Past the file limit the partial file is deleted;
 * past the body limit the body stops being read. Parsing is @fastify/busboy's.
 */

export const MULTIPART_OVERHEAD = 64 * 1024;
/** Parts read before the body is refused: a form that sends the file among thousands of parts is not ours. */
const MAX_PARTS = 20;

export interface ReceivedFile {
  name: string;
  type: string | undefined;
  size: number;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
  /** Where the bytes are. Move it away to keep it; `discard` removes whatever is still there. */
  path: string;
  discard(): Promise<void>;
}

/** `limit_bytes` beside the sentence, so a browser that refused nothing itself can still say which limit. */
function uploadTooLarge(message: string, maxBytes: number): ApiError {
  return new ApiError('payload_too_large', message, { extras: { limit_bytes: maxBytes } });
}

export function assertDeclaredUploadSize(request: Request, maxBytes: number): void {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes + MULTIPART_OVERHEAD) {
    throw uploadTooLarge(`The upload is ${formatFileSize(declared, 'up')}; the limit is ${formatFileSize(maxBytes)} per file.`, maxBytes);
  }
}

type Outcome = { ok: true; file: Omit<ReceivedFile, 'discard' | 'path'> } | { ok: false; error: ApiError };

/** Throws ApiError (413 over a limit, with the file's size when known; 400 without such a part), leaving nothing on disk. */
export async function receiveUploadedFile(
  request: Request,
  options: { field: string; maxBytes: number; directory: string; /** The file name as a refusal names it. */ nameOf?: (fileName: string) => string },
): Promise<ReceivedFile> {
  const { field, maxBytes, directory, nameOf = (fileName: string) => fileName } = options;
  const noFile = () => new ApiError('invalid_request', `Send the document as the multipart field "${field}".`);
  assertDeclaredUploadSize(request, maxBytes);
  const contentType = request.headers.get('content-type') ?? '';
  if (!request.body || !/^multipart\/form-data\b/i.test(contentType)) {
    await request.body?.cancel().catch(() => {});
    throw noFile();
  }
  await mkdir(directory, { recursive: true });
  await sweepAbandoned(directory);
  const target = path.join(directory, `upload-${randomBase62(12)}.part`);
  const discard = () => rm(target, { force: true });

  const bodyLimit = maxBytes + MULTIPART_OVERHEAD;
  const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
  let bodyBytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bodyBytes += chunk.length;
      if (bodyBytes > bodyLimit) return done(new BodyTooLarge());
      done(null, chunk);
    },
  });

  let writer: FileWriter | null = null;
  const outcome = await new Promise<Outcome>((resolve) => {
    let settled = false;
    const settle = (result: Outcome) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const fail = (error: ApiError) => {
      source.destroy();
      settle({ ok: false, error });
    };

    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({ headers: { 'content-type': contentType }, limits: { parts: MAX_PARTS, fieldSize: 16 * 1024, headerPairs: 20 } });
    } catch {
      return fail(noFile());
    }
    parser.on('file', (name: string, stream: Readable, fileName: string | undefined, _encoding: string, mimeType: string | undefined) => {
      if (name !== field || writer) return void stream.resume();
      writer = writeFilePart(stream, { target, maxBytes, name: fileName ?? '', displayName: nameOf(fileName ?? ''), type: mimeType });
      // An oversize file is refused as soon as its part ends: the rest of the body is not read.
      void writer.done.then((result) => !result.ok && fail(result.error));
    });
    parser.on('field', () => {});
    parser.on('partsLimit', () => fail(noFile()));
    parser.on('error', () => fail(noFile()));
    parser.on('finish', () => (writer ? void writer.done.then(settle) : fail(noFile())));
    counted.on('error', (error) =>
      fail(error instanceof BodyTooLarge ? uploadTooLarge(`The upload is larger than the limit of ${formatFileSize(maxBytes)} per file.`, maxBytes) : noFile()),
    );
    // A client that goes away mid-body: the promise still settles, and the partial file goes.
    source.on('error', () => fail(noFile()));
    source.pipe(counted).pipe(parser);
  });

  const written = writer as FileWriter | null;
  if (!outcome.ok) {
    // The file is closed before it is removed, so that no late open or write brings it back.
    written?.abort();
    await written?.closed;
    await discard();
    throw outcome.error;
  }
  await written?.closed;
  return { ...outcome.file, path: target, discard };
}

class BodyTooLarge extends Error {}

/** A staged file this old belongs to no upload still in progress: its process died (kill -9) before removing it. */
const ABANDONED_AFTER_MS = 24 * 3600 * 1000;
const sweptDirectories = new Set<string>();

async function sweepAbandoned(directory: string): Promise<void> {
  if (sweptDirectories.has(directory)) return;
  sweptDirectories.add(directory);
  const now = Date.now();
  for (const name of await readdir(directory).catch(() => [])) {
    if (!name.startsWith('upload-') || !name.endsWith('.part')) continue;
    const file = path.join(directory, name);
    const info = await stat(file).catch(() => null);
    if (info && now - info.mtimeMs > ABANDONED_AFTER_MS) await rm(file, { force: true });
  }
}

interface FileWriter {
  done: Promise<Outcome>;
  closed: Promise<void>;
  abort(): void;
}

/** Over `maxBytes` it stops writing but keeps counting (the body limit bounds that), so the refusal can name the size. */
function writeFilePart(part: Readable, options: { target: string; maxBytes: number; name: string; displayName: string; type: string | undefined }): FileWriter {
  const { target, maxBytes, name, displayName, type } = options;
  const hash = createHash('sha256');
  const out = createWriteStream(target, { flags: 'wx' });
  const closed = new Promise<void>((resolve) => out.once('close', resolve));
  let size = 0;
  let failed: ApiError | null = null;
  const stop = (error: ApiError) => {
    failed ??= error;
    out.destroy();
    // A part paused for a drain that will never come is let go, so the rest of it is counted (or the body refused).
    part.resume();
  };
  const done = new Promise<Outcome>((resolve) => {
    out.on('error', () => stop(new ApiError('internal_error', 'The upload could not be stored.')));
    part.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (failed) return;
      if (size > maxBytes) return stop(uploadTooLarge(`“${displayName}” is larger than the limit of ${formatFileSize(maxBytes)} per file.`, maxBytes));
      hash.update(chunk);
      if (!out.write(chunk)) {
        part.pause();
        out.once('drain', () => part.resume());
      }
    });
    part.on('error', () => stop(new ApiError('invalid_request', 'The upload was cut off.')));
    part.on('end', () => {
      if (failed) {
        // The whole part arrived within the body limit: its exact size can be named.
        if (failed.code === 'payload_too_large') failed = uploadTooLarge(tooLargeMessage(displayName, size, maxBytes), maxBytes);
        return resolve({ ok: false, error: failed });
      }
      out.end(() => resolve(failed ? { ok: false, error: failed } : { ok: true, file: { name, type: type || undefined, size, sha256: hash.digest('hex') } }));
    });
  });
  return { done, closed, abort: () => stop(new ApiError('invalid_request', 'The upload was cut off.')) };
}

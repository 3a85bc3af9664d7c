import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { MULTIPART_OVERHEAD, receiveUploadedFile } from './multipart-upload';

const KB = 1024;
const URL_ = 'http://localhost:3000/upload';
const fresh = () => mkdtempSync(path.join(os.tmpdir(), 'almanac-multipart-'));

/** A multipart body as a browser sends it, as bytes with its Content-Type. */
async function encoded(parts: [string, Blob | string, string?][]): Promise<{ type: string; bytes: Uint8Array<ArrayBuffer> }> {
  const form = new FormData();
  for (const [name, value, fileName] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, fileName);
  }
  const request = new Request(URL_, { method: 'POST', body: form });
  return { type: request.headers.get('content-type')!, bytes: new Uint8Array(await request.arrayBuffer()) };
}

/**
 * A body delivered in chunks without a length (as a chunked upload arrives), counting what the reader pulled: the
 * measure of "stops reading at the limit". `tail` bytes follow `head`, generated on demand, `endless` never ends.
 */
function streamed(head: Uint8Array, options: { tail?: number; endless?: boolean; failAfter?: number } = {}) {
  const chunk = new Uint8Array(64 * KB).fill(0x61);
  const state = { pulled: 0 };
  let tailSent = 0;
  let headSent = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (options.failAfter !== undefined && state.pulled >= options.failAfter) return controller.error(new Error('client went away'));
        if (!headSent) {
          headSent = true;
          state.pulled += head.length;
          return controller.enqueue(head);
        }
        if (options.endless || tailSent < (options.tail ?? 0)) {
          const piece = options.endless ? chunk : chunk.subarray(0, Math.min(chunk.length, options.tail! - tailSent));
          tailSent += piece.length;
          state.pulled += piece.length;
          return controller.enqueue(piece);
        }
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, state };
}

const request = (type: string, body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request(URL_, { method: 'POST', headers: { 'content-type': type, ...headers }, body, duplex: 'half' } as RequestInit);

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('receiveUploadedFile', () => {
  it('streams the file to disk with its name, type, size and SHA-256, ignoring other fields and parts', async () => {
    const directory = fresh();
    const content = new Uint8Array(300 * KB).map((_, i) => i % 251);
    const { type, bytes } = await encoded([
      ['title', 'ignored'],
      ['other', new Blob(['not this one']), 'other.txt'],
      ['file', new Blob([content], { type: 'application/pdf' }), 'Résumé – été 東京.pdf'],
      ['file', new Blob(['a second file in the field']), 'second.txt'],
    ]);
    const file = await receiveUploadedFile(request(type, bytes), { field: 'file', maxBytes: 1024 * KB, directory });
    expect(file).toMatchObject({
      name: 'Résumé – été 東京.pdf',
      type: 'application/pdf',
      size: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
    });
    // Compared as one buffer: an element-wise deep equality of 300 KB takes seconds.
    expect(Buffer.compare(await readFile(file.path), content)).toBe(0);
    expect(await readdir(directory)).toEqual([path.basename(file.path)]);
    await file.discard();
    expect(await readdir(directory)).toEqual([]);
  });

  it('a file over the limit is 413 naming its name and size, with the limit, and nothing is left on disk', async () => {
    const directory = fresh();
    const { type, bytes } = await encoded([['file', new Blob([new Uint8Array(100 * KB + 1)]), 'big.pdf']]);
    const error = await refusal(receiveUploadedFile(request(type, bytes), { field: 'file', maxBytes: 100 * KB, directory }));
    expect(error).toMatchObject({
      code: 'payload_too_large',
      status: 413,
      message: '“big.pdf” is 100.1 KB; the limit is 100 KB per file.',
      extras: { limit_bytes: 100 * KB },
    });
    expect(await readdir(directory)).toEqual([]);
  });

  it('a refusal names the file as the caller names it', async () => {
    const { type, bytes } = await encoded([['file', new Blob([new Uint8Array(2 * KB)]), 'a\u0007b.txt']]);
    const error = await refusal(
      receiveUploadedFile(request(type, bytes), { field: 'file', maxBytes: KB, directory: fresh(), nameOf: (n) => n.replace(/[\u0000-\u001f]/g, '') }),
    );
    expect(error.message).toBe('“ab.txt” is 2 KB; the limit is 1 KB per file.');
  });

  it('an endless body without a length stops being read just past the limit: 413, nothing kept', async () => {
    const directory = fresh();
    const boundary = 'x-boundary';
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="endless.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    );
    const { body, state } = streamed(head, { endless: true });
    const maxBytes = 512 * KB;
    const error = await refusal(receiveUploadedFile(request(`multipart/form-data; boundary=${boundary}`, body), { field: 'file', maxBytes, directory }));
    expect(error).toMatchObject({
      code: 'payload_too_large',
      message: 'The upload is larger than the limit of 512 KB per file.',
      extras: { limit_bytes: maxBytes },
    });
    // The reader may have a chunk in hand and a few in the Node stream's buffers; never the whole (endless) body.
    expect(state.pulled).toBeGreaterThan(maxBytes);
    expect(state.pulled).toBeLessThan(maxBytes + MULTIPART_OVERHEAD + 4 * 64 * KB);
    expect(await readdir(directory)).toEqual([]);
  });

  it('a declared length over the limit is refused before the body is read', async () => {
    const { body, state } = streamed(new Uint8Array(10), { endless: true });
    const error = await refusal(
      receiveUploadedFile(request('multipart/form-data; boundary=b', body, { 'content-length': String(2 * 1024 * KB) }), {
        field: 'file',
        maxBytes: KB,
        directory: fresh(),
      }),
    );
    expect(error).toMatchObject({ code: 'payload_too_large', message: 'The upload is 2 MB; the limit is 1 KB per file.' });
    expect(state.pulled).toBe(0);
  });

  it('a body that is not multipart, has no boundary, has no such field or is cut off is 400 invalid_request, nothing kept', async () => {
    const directory = fresh();
    const options = { field: 'file', maxBytes: 1024 * KB, directory };
    const sentence = 'Send the document as the multipart field "file".';
    expect(await refusal(receiveUploadedFile(request('application/json', '{"file":"x"}'), options))).toMatchObject({
      code: 'invalid_request',
      message: sentence,
    });
    expect(await refusal(receiveUploadedFile(request('multipart/form-data', 'x'), options))).toMatchObject({ code: 'invalid_request', message: sentence });
    const wrongField = await encoded([['document', new Blob(['text']), 'a.txt']]);
    expect(await refusal(receiveUploadedFile(request(wrongField.type, wrongField.bytes), options))).toMatchObject({
      code: 'invalid_request',
      message: sentence,
    });
    const whole = await encoded([['file', new Blob([new Uint8Array(200 * KB).fill(0x62)]), 'cut.txt']]);
    const cut = whole.bytes.subarray(0, 100 * KB);
    expect(await refusal(receiveUploadedFile(request(whole.type, cut), options))).toMatchObject({ code: 'invalid_request' });
    const dropped = streamed(whole.bytes.subarray(0, 10 * KB), { tail: 500 * KB, failAfter: 150 * KB });
    expect(await refusal(receiveUploadedFile(request(whole.type, dropped.body), options))).toMatchObject({ code: 'invalid_request' });
    expect(await readdir(directory)).toEqual([]);
  });

  it('removes staged files a crash left behind a day ago, and nothing younger', async () => {
    const directory = fresh();
    const dayAndAMinute = (Date.now() - 24 * 3600 * 1000 - 60_000) / 1000;
    for (const name of ['upload-old.part', 'upload-recent.part', 'other-old.bin']) await writeFile(path.join(directory, name), 'x');
    for (const name of ['upload-old.part', 'other-old.bin']) await utimes(path.join(directory, name), dayAndAMinute, dayAndAMinute);
    const { type, bytes } = await encoded([['file', new Blob(['text']), 'a.txt']]);
    const file = await receiveUploadedFile(request(type, bytes), { field: 'file', maxBytes: KB, directory });
    await file.discard();
    expect((await readdir(directory)).sort()).toEqual(['other-old.bin', 'upload-recent.part']);
  });

  it('a form of many parts is refused', async () => {
    const { type, bytes } = await encoded(Array.from({ length: 50 }, (_, i) => [`field${i}`, 'x'] as [string, string]));
    expect(await refusal(receiveUploadedFile(request(type, bytes), { field: 'file', maxBytes: KB, directory: fresh() }))).toMatchObject({
      code: 'invalid_request',
    });
  });
});

import { denialResponse, withSessionRoute } from '@/lib/accounts';
import { admitUpload, listDocumentsForOwner, sourceNameOf, uploadDocument } from '@/lib/engine';
import { formatFileSize, tooLargeMessage } from '@/lib/platform/file-size';
import { getDb } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { ApiError } from '@/lib/platform/errors';
import { jsonResponse, readBodyWithin } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

type Params = { kbId: string };

/** The documents of a hosted listing and their status (the content page polls this while any is being ingested). */
const list = withSessionRoute<Params>(async (_request, { params, requestId, userId }) => {
  const result = await listDocumentsForOwner(await getDb(), userId, params.kbId);
  return result.ok ? jsonResponse({ documents: result.documents }, { headers: { 'Cache-Control': 'no-store' } }) : denialResponse(result, requestId);
});

/** Room for the multipart framing around one file. */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * A 413 carries the limit (`limit_bytes`) beside its sentence: the console then names the file, which a refusal made
 * before the body is read cannot, with the limit this server applies rather than the one its page was rendered with.
 */
const tooLarge = (message: string, max: number) => new ApiError('payload_too_large', message, { extras: { limit_bytes: max } });

/**
 * One file per request (multipart field `file`), so the browser shows each file's progress: stored and queued for
 * ingestion, answered at once with the document (docs/api.md §9.5). Too large is refused before the body is read, or
 * as soon as more than the limit has arrived.
 */
const upload = withSessionRoute<Params>(async (request, { params, requestId, userId }) => {
  const max = getEnv().MAX_UPLOAD_BYTES;
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > max + MULTIPART_OVERHEAD) throw tooLarge(`The upload is ${formatFileSize(length, 'up')}; the limit is ${formatFileSize(max)} per file.`, max);
  const admitted = await admitUpload(userId);
  if (!admitted.ok) {
    const wait = admitted.retryAfterSeconds;
    throw new ApiError(admitted.code, admitted.message, { extras: { retry_after: wait }, headers: { 'Retry-After': String(wait) } });
  }
  try {
    // Read within the limit whatever Content-Length says (a chunked upload declares none), then parse what was read.
    const bytes = await readBodyWithin(request, max + MULTIPART_OVERHEAD);
    if (bytes === null) throw tooLarge(`The upload is larger than the limit of ${formatFileSize(max)} per file.`, max);
    const type = request.headers.get('content-type') ?? '';
    const form = await new Response(bytes, { headers: { 'content-type': type } }).formData().catch(() => null);
    const file = form?.get('file');
    if (!file || typeof file === 'string') throw new ApiError('invalid_request', 'Send the document as the multipart field "file".');
    if (file.size > max) throw tooLarge(tooLargeMessage(sourceNameOf(file.name), file.size, max), max);
    const result = await uploadDocument(await getDb(), userId, params.kbId, { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()), type: file.type });
    return result.ok ? jsonResponse({ document: result.document }, { status: 202 }) : denialResponse(result, requestId);
  } finally {
    admitted.release();
  }
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: list, POST: upload }, { bodyLimit: 'own' });

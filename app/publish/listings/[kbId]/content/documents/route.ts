import { denialResponse, withSessionRoute } from '@/lib/accounts';
import { admitUpload, listDocumentsForOwner, sourceNameOf, uploadDocument, uploadStagingDirectory } from '@/lib/engine';
import { getDb } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { ApiError } from '@/lib/platform/errors';
import { jsonResponse } from '@/lib/platform/http';
import { assertDeclaredUploadSize, receiveUploadedFile } from '@/lib/platform/multipart-upload';
import { routeMethods } from '@/lib/platform/route-methods';

type Params = { kbId: string };

// A hosted listing's documents (docs/api.md §9.5): the content page polls the list while any is being ingested.
const list = withSessionRoute<Params>(async (_request, { params, requestId, userId }) => {
  const result = await listDocumentsForOwner(await getDb(), userId, params.kbId);
  return result.ok ? jsonResponse({ documents: result.documents }, { headers: { 'Cache-Control': 'no-store' } }) : denialResponse(result, requestId);
});

/** One file per request, so the browser shows each file's progress; too large is refused as soon as it is known. */
const upload = withSessionRoute<Params>(async (request, { params, requestId, userId }) => {
  const max = getEnv().MAX_UPLOAD_BYTES;
  assertDeclaredUploadSize(request, max);
  const admitted = await admitUpload(userId);
  if (!admitted.ok) {
    const wait = admitted.retryAfterSeconds;
    throw new ApiError(admitted.code, admitted.message, { extras: { retry_after: wait }, headers: { 'Retry-After': String(wait) } });
  }
  try {
    const file = await receiveUploadedFile(request, { field: 'file', maxBytes: max, directory: await uploadStagingDirectory(), nameOf: sourceNameOf });
    try {
      const result = await uploadDocument(await getDb(), userId, params.kbId, { name: file.name, type: file.type, staged: file });
      return result.ok ? jsonResponse({ document: result.document }, { status: 202 }) : denialResponse(result, requestId);
    } finally {
      await file.discard();
    }
  } finally {
    admitted.release();
  }
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: list, POST: upload }, { bodyLimit: 'own' });

import { denialResponse, withSessionRoute } from '@/lib/accounts';
import { deleteDocumentForOwner } from '@/lib/engine';
import { getDb } from '@/lib/platform/db';
import { jsonResponse } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/** Deletes one document of an owned hosted listing, with its chunks and stored bytes. */
const remove = withSessionRoute<{ kbId: string; docId: string }>(async (_request, { params, requestId, userId }) => {
  const result = await deleteDocumentForOwner(await getDb(), userId, params.kbId, params.docId);
  return result.ok ? jsonResponse({ deleted: params.docId }) : denialResponse(result, requestId);
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ DELETE: remove });

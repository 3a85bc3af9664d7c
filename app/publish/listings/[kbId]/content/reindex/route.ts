import { denialResponse, withSessionRoute } from '@/lib/accounts';
import { requestReindex } from '@/lib/engine';
import { getDb } from '@/lib/platform/db';
import { jsonResponse } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/** Queues a rebuild of the listing's index from its documents (a background job). */
const reindex = withSessionRoute<{ kbId: string }>(async (_request, { params, requestId, userId }) => {
  const result = await requestReindex(await getDb(), userId, params.kbId);
  return result.ok ? jsonResponse({ queued: true }, { status: 202 }) : denialResponse(result, requestId);
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: reindex });

import { z } from 'zod';
import { denialResponse, withSessionRoute } from '@/lib/accounts';
import { ApiError } from '@/lib/platform/errors';
import { getDb } from '@/lib/platform/db';
import { errorResponse, jsonResponse } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';
import { tryKnowledgeBase } from '@/lib/routing';

const trySchema = z.object({ query: z.string().trim().min(1, 'Type a question.').max(2_000) });

// The publisher's "Try it" (docs/api.md §9.5): counted against no cap but limited per account. The outcome, answer or
// precise failure, is the body of a 200.
const tryIt = withSessionRoute<{ kbId: string }>(async (request, { params, requestId, userId }) => {
  const parsed = trySchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) throw new ApiError('invalid_request', parsed.error.issues[0]?.message ?? 'Send {"query": "…"}.');
  const result = await tryKnowledgeBase(await getDb(), userId, params.kbId, parsed.data.query);
  if ('requestId' in result) return jsonResponse(result);
  if (result.code === 'rate_limit_exceeded') {
    const wait = result.retryAfterSeconds;
    return errorResponse(result.code, result.message, requestId, { extras: { retry_after: wait }, headers: { 'Retry-After': String(wait) } });
  }
  return denialResponse(result, requestId);
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: tryIt });

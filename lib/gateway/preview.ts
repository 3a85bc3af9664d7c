import { eq } from 'drizzle-orm';
import { knowledgeBases } from '@/db/schema';
import { getRateLimiter, type RateLimitRule } from '@/lib/limits';
import { clientAddressFromHeaders, type HeaderSource } from '@/lib/platform/client-address';
import { getDb } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { isCleanId } from '@/lib/platform/text-input';
import type { QueryAnswer } from '@/lib/query-answer';
import { loadKnowledgeBaseRoute, routeQuery } from '@/lib/routing';
import { validateQuery } from './request-body';
import { getUsageRecorder } from './usage-recorder';

/** Free previews (docs/api.md §10.6): a few questions a day per address and knowledge base, with no key, subscription or cap. */
const PREVIEW_WINDOW_MS = 86_400_000;
const PREVIEW_LIMIT_ID_PREFIX = 'preview:';

export interface PreviewAllowance {
  limit: number;
  remaining: number;
}

export type PreviewResult =
  | { ok: true; answer: QueryAnswer; allowance: PreviewAllowance }
  | {
      ok: false;
      code: 'invalid_query' | 'previews_unavailable' | 'preview_limit_reached' | 'publisher_error';
      message: string;
      allowance?: PreviewAllowance;
      retryAfterSeconds?: number;
    };

function previewRule(): RateLimitRule {
  return { limit: getEnv().PREVIEW_QUESTIONS_PER_DAY, windowMs: PREVIEW_WINDOW_MS };
}

const limiterId = (kbId: string, headers: HeaderSource) => `${PREVIEW_LIMIT_ID_PREFIX}${clientAddressFromHeaders(headers)}:${kbId}`;

export async function previewsOffered(kbId: string): Promise<boolean> {
  if (getEnv().PREVIEW_QUESTIONS_PER_DAY === 0 || !isCleanId(kbId)) return false;
  const db = await getDb();
  const [row] = await db
    .select({ status: knowledgeBases.status, previewsEnabled: knowledgeBases.previewsEnabled })
    .from(knowledgeBases)
    .where(eq(knowledgeBases.id, kbId))
    .limit(1);
  return row?.status === 'published' && row.previewsEnabled;
}

export async function previewAllowance(kbId: string, headers: HeaderSource): Promise<PreviewAllowance> {
  const rule = previewRule();
  const state = await getRateLimiter().peek(limiterId(kbId, headers), rule);
  return { limit: rule.limit, remaining: Math.max(0, state.remaining) };
}

export async function runPreviewQuery(input: { kbId: string; query: string; headers: HeaderSource; requestId: string }): Promise<PreviewResult> {
  const query = validateQuery(input.query);
  if (!query.ok) return { ok: false, code: 'invalid_query', message: query.message.replaceAll('"query"', 'The question') };
  if (!(await previewsOffered(input.kbId))) {
    return { ok: false, code: 'previews_unavailable', message: 'This knowledge base offers no free preview: buy a plan to ask it questions.' };
  }
  const rule = previewRule();
  const state = await getRateLimiter().consume(limiterId(input.kbId, input.headers), rule);
  if (!state.allowed) {
    return {
      ok: false,
      code: 'preview_limit_reached',
      message: `You have asked your ${rule.limit} free questions for today. Buy a plan to keep asking, or come back later.`,
      allowance: { limit: rule.limit, remaining: 0 },
      retryAfterSeconds: state.retryAfterSeconds,
    };
  }
  const allowance = { limit: rule.limit, remaining: Math.max(0, state.remaining) };
  const route = await loadKnowledgeBaseRoute(await getDb(), input.kbId);
  if (!route) return { ok: false, code: 'previews_unavailable', message: 'This knowledge base is no longer available.', allowance };
  const started = performance.now();
  const outcome = await routeQuery(route, { kbId: input.kbId, query: query.value, requestId: input.requestId });
  getUsageRecorder().recordPreview({ kbId: input.kbId, latencyMs: Math.round(performance.now() - started), at: new Date() });
  if (!outcome.ok) return { ok: false, code: 'publisher_error', message: 'The knowledge base could not answer just now. Try again in a moment.', allowance };
  return { ok: true, answer: outcome.answer, allowance };
}

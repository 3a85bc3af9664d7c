import { errorBody, type ErrorCode } from '@/lib/platform/errors';
import { REQUEST_ID_HEADER } from '@/lib/platform/http';
import { admitKnownKey, authenticate, consumeRateLimit } from './admission';
import { deny, type GatewayOutcome } from './outcome';
import { readJsonObject, refuseBody, validateQuery, type BodyReadResult, type GatewayRequest } from './pipeline';
import { meterSearch, validateTopK } from './search';
import type { GatewayReply } from './web';

/**
 * Dify's External Knowledge API (docs/api.md §10.3): POST {endpoint}/retrieval, so a buyer registers `<base>/dify` in
 * Dify (or RAGFlow) with the Almanac key as the API key and the knowledge-base id as the knowledge id. It is a face of
 * the search endpoint: the same key, check order and metering, with Dify's request and response shapes.
 */

export interface DifyRecord {
  content: string;
  score: number;
  title: string;
  metadata: { document_id: string; page: number | null };
}

export interface DifyRecords {
  records: DifyRecord[];
}

type Parsed<T> = { ok: true; value: T } | { ok: false; code: 'invalid_query'; message: string };

function validateThreshold(value: unknown): Parsed<number> {
  if (value === undefined || value === null) return { ok: true, value: 0 };
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    return { ok: false, code: 'invalid_query', message: '"retrieval_setting.score_threshold" must be a number from 0 to 1.' };
  }
  return { ok: true, value };
}

export async function handleDifyRetrieval(request: Omit<GatewayRequest, 'kbId'>): Promise<GatewayOutcome<DifyRecords>> {
  const started = Date.now();
  const known = await authenticate(request.authorization);
  if (!known.ok) return known;
  // The knowledge base is named in the body, so the body is read before row 3 (it is at most 16 KiB).
  let bodyRead: Promise<BodyReadResult> | undefined;
  const json = await readJsonObject(request, () => (bodyRead ??= request.readBody()));
  if (!json.ok) return deny(json.code, json.message);
  const knowledgeId = json.value.knowledge_id;
  if (typeof knowledgeId !== 'string' || knowledgeId === '') return deny('invalid_query', '"knowledge_id" must be the knowledge base id.');
  const admission = await admitKnownKey(known.db, known.record, known.keyHash, knowledgeId, '"knowledge_id"');
  if (!admission.ok) return admission;
  const limited = await consumeRateLimit(admission.admitted);
  if (!limited.ok) return limited;
  const query = validateQuery(json.value.query);
  if (!query.ok) return refuseBody(admission.admitted, limited.headers, query);
  const setting = json.value.retrieval_setting;
  if (setting !== undefined && (setting === null || typeof setting !== 'object' || Array.isArray(setting))) {
    return refuseBody(admission.admitted, limited.headers, { ok: false, code: 'invalid_query', message: '"retrieval_setting" must be an object.' });
  }
  const { top_k, score_threshold } = (setting ?? {}) as Record<string, unknown>;
  const topK = validateTopK(top_k);
  if (!topK.ok) return refuseBody(admission.admitted, limited.headers, { ...topK, message: topK.message.replace('"top_k"', '"retrieval_setting.top_k"') });
  const threshold = validateThreshold(score_threshold);
  if (!threshold.ok) return refuseBody(admission.admitted, limited.headers, threshold);
  // `metadata_condition` filters on document metadata Almanac does not keep; it is accepted and ignored.
  const outcome = await meterSearch(admission.admitted, limited.headers, request, { query: query.value, topK: topK.value, minScore: threshold.value }, started);
  if (outcome.ok !== true) return outcome;
  return {
    ...outcome,
    answer: {
      records: outcome.answer.map((p) => ({ content: p.excerpt, score: p.score, title: p.title, metadata: { document_id: p.documentId, page: p.page } })),
    },
  };
}

/** Dify's error codes (its External Knowledge API): 1001 a malformed Authorization, 1002 a refused key, 2001 no such knowledge. */
const DIFY_ERROR_CODES: Partial<Record<ErrorCode, number>> = {
  missing_api_key: 1001,
  invalid_api_key: 1002,
  key_revoked: 1002,
  forbidden: 1002,
  knowledge_base_not_found: 2001,
  key_scope_mismatch: 2001,
};

/** The outcome in Dify's shapes: records on success; `{error_code, error_msg}` with the HTTP status (and Almanac's own fields) on failure. */
export function difyReply(outcome: GatewayOutcome<DifyRecords>, requestId: string): GatewayReply {
  const headers = { ...outcome.headers, [REQUEST_ID_HEADER]: requestId, 'Cache-Control': 'no-store' };
  if (outcome.ok === 'replayed') return { status: outcome.status, headers, body: outcome.body };
  if (outcome.ok) return { status: 200, headers, body: outcome.answer };
  return {
    status: outcome.status,
    headers,
    body: { error_code: DIFY_ERROR_CODES[outcome.code] ?? outcome.status, error_msg: outcome.message, ...errorBody(outcome.code, outcome.message, requestId, outcome.extras) },
  };
}


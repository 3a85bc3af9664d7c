import { errorBody, type ErrorCode } from '@/lib/platform/errors';
import { REQUEST_ID_HEADER } from '@/lib/platform/http';
import { and, eq } from 'drizzle-orm';
import { knowledgeBases, publishers } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { idProblem } from '@/lib/platform/text-input';
import type { Passage } from '@/lib/engine';
import { admitKnownKey, authenticate, isBearerHeader } from './admission';
import { runKeyed, type GatewayRequest, type KeyedCall, type KeyedEndpoint } from './keyed';
import { readPeriodUsage, usageHeaders } from './quota';
import { deny, type GatewayOutcome } from './outcome';
import { NO_INPUT, parseField, readJsonObject, validateQuery, type Parsed } from './request-body';
import { scoreThresholdSchema, type DifyRecords } from './schemas';
import { meterSearch, validateTopK, type SearchInput } from './search';
import type { GatewayReply } from './web';

/** Dify's External Knowledge API (docs/api.md §10.3): the search endpoint, with Dify's request and response shapes. */

const validateThreshold = (value: unknown): Parsed<number> => parseField(scoreThresholdSchema, value ?? undefined);

function retrievalOf(body: Record<string, unknown>): Parsed<SearchInput> {
  const query = validateQuery(body.query);
  if (!query.ok) return query;
  const setting = body.retrieval_setting;
  if (setting !== undefined && (setting === null || typeof setting !== 'object' || Array.isArray(setting))) {
    return { ok: false, code: 'invalid_query', message: '"retrieval_setting" must be an object.' };
  }
  const { top_k, score_threshold } = (setting ?? {}) as Record<string, unknown>;
  const topK = validateTopK(top_k);
  if (!topK.ok) return { ...topK, message: topK.message.replace('"top_k"', '"retrieval_setting.top_k"') };
  const threshold = validateThreshold(score_threshold);
  if (!threshold.ok) return threshold;
  // `metadata_condition` filters on document metadata Almanac does not keep; it is accepted and ignored.
  return { ok: true, value: { query: query.value, topK: topK.value, minScore: threshold.value } };
}

const toRecords = (outcome: GatewayOutcome<Passage[]>): GatewayOutcome<DifyRecords> =>
  outcome.ok !== true
    ? outcome
    : {
        ...outcome,
        answer: {
          records: outcome.answer.map((p) => ({ content: p.excerpt, score: p.score, title: p.title, metadata: { document_id: p.documentId, page: p.page } })),
        },
      };

const ENDPOINT_CHECK: KeyedEndpoint<null, DifyRecords> = {
  parse: () => NO_INPUT,
  call: async (_, { admitted, headers }) => {
    const usage = { used: await readPeriodUsage(admitted.db, admitted.period), cap: admitted.cap };
    return { ok: true, status: 200, answer: { records: [] }, usage, headers: { ...headers, ...usageHeaders(usage) } };
  },
};

export async function handleDifyRetrieval(request: Omit<GatewayRequest, 'kbId'>): Promise<GatewayOutcome<DifyRecords>> {
  const started = Date.now();
  const known = await authenticate(request.authorization);
  if (!known.ok) return known;
  const on = (kbId: string, kbIdSource?: string): KeyedCall => ({
    requestId: request.requestId,
    signal: request.signal,
    started,
    admit: () => admitKnownKey(known.db, known.record, known.keyHash, kbId, kbIdSource),
  });
  const body = await request.readBody();
  // Dify checks an endpoint with a body-less POST and fails it only on 403, 404 or 502: the key is judged first.
  if (body.ok && body.text === '') return runKeyed(on(known.record.kbId), ENDPOINT_CHECK);
  // The knowledge base is named in the body, so the body (at most 16 KiB) is read before row 3.
  const json = await readJsonObject(request, async () => body);
  if (!json.ok) return deny(json.code, json.message);
  const knowledgeId = json.value.knowledge_id;
  if (typeof knowledgeId !== 'string' || knowledgeId === '') return deny('invalid_query', '"knowledge_id" must be the knowledge base id.');
  const kbId = await resolveKnowledgeId(known.db, knowledgeId, known.record.kbId);
  const retrieval: KeyedEndpoint<SearchInput, Passage[]> = { parse: () => retrievalOf(json.value), call: (search, run) => meterSearch(run, search) };
  return toRecords(await runKeyed(on(kbId, '"knowledge_id"'), retrieval));
}

/** The id, the slug or `publisher/slug`; a bare slug that several publishers use names the key's own knowledge base. */
async function resolveKnowledgeId(db: Executor, ref: string, keyKbId: string): Promise<string> {
  if (ref === keyKbId || ref.startsWith('kb_') || idProblem(ref)) return ref;
  const slash = ref.indexOf('/');
  const slug = slash < 0 ? ref : ref.slice(slash + 1);
  const byPublisher = slash < 0 ? undefined : eq(publishers.slug, ref.slice(0, slash));
  const rows = await db
    .select({ id: knowledgeBases.id })
    .from(knowledgeBases)
    .innerJoin(publishers, eq(publishers.id, knowledgeBases.publisherId))
    .where(and(eq(knowledgeBases.slug, slug), byPublisher))
    .limit(20);
  if (rows.some((row) => row.id === keyKbId)) return keyKbId;
  return rows.length === 1 ? rows[0]!.id : ref;
}

/** Dify's codes: 1001 malformed header and 1002 refused key, both 403 (what Dify's check fails on); 2001 no such knowledge. */
const DIFY_ERROR_CODES: Partial<Record<ErrorCode, 1002 | 2001>> = {
  invalid_api_key: 1002,
  key_revoked: 1002,
  forbidden: 1002,
  knowledge_base_not_found: 2001,
  key_scope_mismatch: 2001,
};

function difyErrorCode(code: ErrorCode, authorization: string | null): number | undefined {
  if (code === 'missing_api_key' || (code === 'invalid_api_key' && !isBearerHeader(authorization))) return 1001;
  return DIFY_ERROR_CODES[code];
}

export function difyReply(outcome: GatewayOutcome<unknown>, requestId: string, authorization: string | null): GatewayReply {
  const headers = { ...outcome.headers, [REQUEST_ID_HEADER]: requestId, 'Cache-Control': 'no-store' };
  if (outcome.ok === 'replayed') return { status: outcome.status, headers, body: outcome.body };
  if (outcome.ok) return { status: 200, headers, body: outcome.answer };
  const difyCode = difyErrorCode(outcome.code, authorization);
  return {
    status: difyCode === 1001 || difyCode === 1002 ? 403 : outcome.status,
    headers,
    body: { error_code: difyCode ?? outcome.status, error_msg: outcome.message, ...errorBody(outcome.code, outcome.message, requestId, outcome.extras) },
  };
}

import { ERROR_STATUS, errorBody, type ErrorCode } from '@/lib/platform/errors';
import { getDb } from '@/lib/platform/db';
import { JsonText, serializeJson } from '@/lib/platform/http';
import { describeTextProblem, isCleanId, textProblem } from '@/lib/platform/text-input';
import { routeQuery } from '@/lib/routing';
import type { AnswerProgress, QueryAnswer } from '@/lib/query-answer';
import { rateLimitHeaders, type RateLimitState } from '@/lib/limits';
import { admit, admitKnownKey, consumeRateLimit, usageHeadersNow, type Admitted, type KeyedRequest } from './admission';
import { findKeyByHash, findSubscriberKeyHash } from './key-lookup';
import { claimIdempotencyKey, isValidIdempotencyKey, releaseIdempotencyKey, REPLAYED_HEADER, requestFingerprint, storeIdempotentAnswer } from './idempotency';
import { meter, type BackendResult, type MeteredCall } from './metering';
import { deny, type GatewayDenial, type GatewayOutcome } from './outcome';

export { clearGatewayCaches } from './caches';
export type { GatewayOutcome } from './outcome';

/**
 * POST /kb/{kb_id}/query (docs/api.md §3). The check order (§3.2), top to bottom:
 *   rows 1–7  who may ask: the key, its knowledge base, the subscription, the rate limit (lib/gateway/admission.ts);
 *   row 8     the request body: Content-Type, size, JSON, `query` (below);
 *   rows 9–11 the cap unit reserved, the backend called, the unit kept or given back (lib/gateway/metering.ts).
 * Every outcome is a value its face turns into a response: lib/gateway/web.ts (route handler), node.ts (fast lane),
 * stream.ts (Server-Sent Events). The Idempotency-Key check sits between rows 7 and 8 (§3.8).
 */
export const MAX_BODY_BYTES = 16 * 1024;
export const MAX_QUERY_CHARS = 2_000;
/** An Idempotency-Key's claim outlives the publisher's timeout by this much before a retry may take it over. */
const IDEMPOTENCY_LEASE_MARGIN_MS = 15_000;

/** How the gateway reads a request body: lazily, only once the checks before row 8 have passed. */
export type BodyReadResult = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'invalid_utf8' };

export interface GatewayRequest extends KeyedRequest {
  contentType: string | null;
  readBody: () => Promise<BodyReadResult>;
  /** The Idempotency-Key header, when sent. */
  idempotencyKey?: string | null;
  signal?: AbortSignal;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; code: 'invalid_query' | 'payload_too_large'; message: string };

/** Row 8 for every JSON endpoint: the Content-Type, then the size and encoding, then a JSON object. */
export async function readJsonObject(request: Pick<GatewayRequest, 'contentType'>, readBody: () => Promise<BodyReadResult>): Promise<Parsed<Record<string, unknown>>> {
  const type = (request.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return { ok: false, code: 'invalid_query', message: 'Send the query as JSON with "Content-Type: application/json".' };
  const body = await readBody();
  if (!body.ok && body.reason === 'invalid_utf8') return { ok: false, code: 'invalid_query', message: 'The request body is not valid UTF-8.' };
  if (!body.ok) return { ok: false, code: 'payload_too_large', message: `The request body is larger than ${MAX_BODY_BYTES} bytes.` };
  let json: unknown;
  try {
    json = JSON.parse(body.text);
  } catch {
    return { ok: false, code: 'invalid_query', message: 'The request body is not valid JSON.' };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { ok: false, code: 'invalid_query', message: 'The request body must be a JSON object like {"query": "…"}.' };
  }
  return { ok: true, value: json as Record<string, unknown> };
}

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The `query` field: a string, not blank, at most 2,000 characters, no control characters (docs/api.md §7.2). */
export function validateQuery(value: unknown): Parsed<string> {
  if (value === undefined) return { ok: false, code: 'invalid_query', message: '"query" is required.' };
  if (typeof value !== 'string') return { ok: false, code: 'invalid_query', message: '"query" must be a string.' };
  const query = value.trim();
  if (query === '') return { ok: false, code: 'invalid_query', message: '"query" must not be blank.' };
  // Characters are code points, as JSON Schema's maxLength counts them (an emoji is one, not two UTF-16 units).
  if (codePoints(query) > MAX_QUERY_CHARS) return { ok: false, code: 'invalid_query', message: `"query" must be at most ${MAX_QUERY_CHARS} characters.` };
  const problem = textProblem(query);
  if (problem) return { ok: false, code: 'invalid_query', message: `"query" is refused: ${describeTextProblem(problem)}.` };
  return { ok: true, value: query };
}

/** Row 8's refusal, with the usage headers as they stand. */
export async function refuseBody(admitted: Admitted, headers: Record<string, string>, parsed: Extract<Parsed<unknown>, { ok: false }>): Promise<GatewayDenial> {
  return deny(parsed.code, parsed.message, { ...headers, ...(await usageHeadersNow(admitted)) });
}

/** Rows 9–11 for an answer: the backend answers; an answer without citations is an abstention (free). */
export function meterAnswer(
  admitted: Admitted,
  headers: Record<string, string>,
  request: Pick<GatewayRequest, 'requestId' | 'signal'>,
  query: string,
  started: number,
  deliver?: MeteredCall<QueryAnswer>['deliver'],
  onReserved?: MeteredCall<QueryAnswer>['onReserved'],
  progress?: AnswerProgress,
): Promise<GatewayOutcome<QueryAnswer>> {
  return meter<QueryAnswer>({
    admitted,
    headers,
    requestId: request.requestId,
    signal: request.signal,
    started,
    call: async (): Promise<BackendResult<QueryAnswer>> => {
      const routed = await routeQuery(admitted.kb, { kbId: admitted.kb.id, query, requestId: request.requestId, signal: request.signal, progress });
      return routed.ok ? { ok: true, value: routed.answer } : routed;
    },
    isEmpty: (answer) => answer.citations.length === 0,
    tokensOf: (answer) => answer.tokens_used,
    deliver,
    onReserved,
  });
}

export async function handleGatewayRequest(request: GatewayRequest): Promise<GatewayOutcome> {
  const started = Date.now();
  const admission = await admit(request);
  if (!admission.ok) return admission;
  const { admitted } = admission;
  const limited = await consumeRateLimit(admitted);
  if (!limited.ok) return limited;

  // The body is read once, lazily: by the Idempotency-Key check or by row 8, whichever comes first.
  let bodyRead: Promise<BodyReadResult> | undefined;
  const readBody = () => (bodyRead ??= request.readBody());
  const answer = async (): Promise<GatewayOutcome> => {
    // Row 8
    const json = await readJsonObject(request, readBody);
    if (!json.ok) return refuseBody(admitted, limited.headers, json);
    const query = validateQuery(json.value.query);
    if (!query.ok) return refuseBody(admitted, limited.headers, query);
    return meterAnswer(admitted, limited.headers, request, query.value, started);
  };
  if (request.idempotencyKey == null) return answer();
  return answerIdempotently(admitted, limited, request.idempotencyKey, async () => {
    const body = await readBody();
    return body.ok ? requestFingerprint(request.contentType, body.text) : null;
  }, request, answer);
}

/**
 * Idempotency-Key (docs/api.md §3.8), after row 7 so retries count against the rate limit like any request: the
 * first request with a key runs and its answer is stored; a retry of the same request replays it, uncounted.
 */
async function answerIdempotently(
  admitted: Admitted,
  limited: { rate: RateLimitState; headers: Record<string, string> },
  idempotencyKey: string,
  fingerprintOf: () => Promise<string | null>,
  request: Pick<GatewayRequest, 'requestId' | 'signal'>,
  answer: () => Promise<GatewayOutcome>,
): Promise<GatewayOutcome> {
  const { db, record, kb } = admitted;
  const withUsage = async (extra: Record<string, string> = {}) => ({ ...limited.headers, ...(await usageHeadersNow(admitted)), ...extra });
  if (!isValidIdempotencyKey(idempotencyKey)) {
    return deny('invalid_request', 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.', await withUsage());
  }
  const fingerprint = await fingerprintOf();
  if (fingerprint === null) return answer(); // too large or not UTF-8: row 8 refuses it, and that is not stored
  const slot = { keyId: record.keyId, idempotencyKey };
  const claim = await claimIdempotencyKey(db, { ...slot, fingerprint, leaseMs: kb.timeoutMs + IDEMPOTENCY_LEASE_MARGIN_MS });
  switch (claim.kind) {
    case 'reused':
      return deny('idempotency_key_reused', 'This Idempotency-Key was used with a different request; use a new key for a new request.', await withUsage());
    case 'in_progress':
      return deny('idempotency_key_in_progress', 'A request with this Idempotency-Key is still being answered; retry in a moment.', await withUsage({ 'Retry-After': '1' }));
    case 'replay':
      // The stored answer with its own usage headers; the rate-limit headers are this request's.
      return { ok: 'replayed', status: claim.answer.status, body: claim.answer.body, headers: { ...claim.answer.headers, ...rateLimitHeaders(limited.rate), [REPLAYED_HEADER]: 'true' } };
    case 'claimed':
      break;
  }
  let outcome: GatewayOutcome;
  try {
    outcome = await answer();
  } catch (err) {
    await releaseIdempotencyKey(db, slot).catch(() => {});
    throw err;
  }
  if (outcome.ok === 'replayed' || outcome.status === ERROR_STATUS.internal_error || request.signal?.aborted) {
    // Our own fault, or a caller who hung up before the answer, is not an answer to keep: the retry runs again.
    await releaseIdempotencyKey(db, slot);
  } else {
    const body = outcome.ok ? outcome.answer : errorBody(outcome.code, outcome.message, request.requestId, outcome.extras);
    await storeIdempotentAnswer(db, slot, { status: outcome.status, body: new JsonText(serializeJson(body)), headers: usageHeadersOf(outcome.headers) });
  }
  return outcome;
}

/** The X-Usage-* headers of an answer: what a replay repeats (its rate-limit headers are the retry's own). */
function usageHeadersOf(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('X-Usage-')));
}

// ── "Try it" for signed-in subscribers ─────────────────────────────────────────────────────────────────

export type SubscriberQueryResult =
  | { ok: true; answer: QueryAnswer; usage: { used: number; cap: number; remaining: number } }
  | { ok: false; code: ErrorCode; message: string; status: number; extras: Record<string, unknown> };

/**
 * The web's "Try it" panel: the same path from row 3 on, for the signed-in buyer's subscription to `kbId`, rate
 * limited under the subscription's newest active key and counted against its cap like any API call.
 */
export async function runSubscriberQuery(input: { userId: string; kbId: string; query: string; requestId: string; signal?: AbortSignal }): Promise<SubscriberQueryResult> {
  const started = Date.now();
  if (!isCleanId(input.kbId)) return { ok: false, code: 'invalid_query', status: ERROR_STATUS.invalid_query, message: 'This is not a knowledge-base id.', extras: {} };
  const db = await getDb();
  const keyHash = await findSubscriberKeyHash(db, input.userId, input.kbId);
  const record = keyHash ? await findKeyByHash(db, keyHash) : null;
  if (!keyHash || !record) {
    return { ok: false, code: 'forbidden', status: 403, message: 'You need an active subscription with an active key to query this knowledge base.', extras: {} };
  }
  const outcome = await (async (): Promise<GatewayOutcome> => {
    const admission = await admitKnownKey(db, record, keyHash, input.kbId);
    if (!admission.ok) return admission;
    const limited = await consumeRateLimit(admission.admitted);
    if (!limited.ok) return limited;
    const query = validateQuery(input.query);
    if (!query.ok) return refuseBody(admission.admitted, limited.headers, query);
    return meterAnswer(admission.admitted, limited.headers, input, query.value, started);
  })();
  if (outcome.ok === 'replayed') throw new Error('The Try-it panel sends no Idempotency-Key.');
  if (outcome.ok) {
    const { used, cap } = outcome.usage;
    return { ok: true, answer: outcome.answer, usage: { used, cap, remaining: Math.max(0, cap - used) } };
  }
  return { ok: false, code: outcome.code, message: outcome.message, status: outcome.status, extras: outcome.extras };
}

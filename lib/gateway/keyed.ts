import { ERROR_STATUS, errorBody } from '@/lib/platform/errors';
import { JsonText, serializeJson } from '@/lib/platform/http';
import { rateLimitHeaders, type RateLimitRule, type RateLimitState } from '@/lib/limits';
import { admit, consumeRateLimit, usageHeadersNow, type Admitted, type KeyedRequest } from './admission';
import { claimIdempotencyKey, isValidIdempotencyKey, releaseIdempotencyKey, REPLAYED_HEADER, requestFingerprint, storeIdempotentAnswer } from './idempotency';
import { deny, type GatewayRefusal, type GatewayOutcome } from './outcome';
import { readJsonObject, type BodyReadResult, type JsonBody, type Parsed } from './request-body';

/**
 * The keyed endpoint (docs/api.md §3.2): the check order, once, for every face (query, stream, search, usage, MCP,
 * Dify, Try-it). Rows 1–6 are the call's `admit`, row 7 the rate limit, then the Idempotency-Key (§3.8), row 8 the
 * endpoint's `parse` and rows 9–11 its metered `call`. The outcome is a value its face turns into a response.
 */

type Admission = { ok: true; admitted: Admitted } | GatewayRefusal;

export interface KeyedCall {
  requestId: string;
  signal?: AbortSignal;
  /** Rows 1–6: by the Authorization header (`overHttp`), or a key the face found itself (Try-it, MCP, Dify). */
  admit: () => Promise<Admission>;
  body?: { contentType: string | null; readBody: () => Promise<BodyReadResult> };
  idempotencyKey?: string | null;
  started?: number;
}

export interface KeyedRun {
  admitted: Admitted;
  headers: Record<string, string>;
  requestId: string;
  signal?: AbortSignal;
  started: number;
}

export interface KeyedEndpoint<I, T> {
  parse: (json: JsonBody) => Parsed<I> | Promise<Parsed<I>>;
  call: (input: I, run: KeyedRun) => Promise<GatewayOutcome<T>>;
  idempotent?: boolean;
  rateLimit?: (admitted: Admitted) => { rule: RateLimitRule; limiterId: string };
}

export interface GatewayRequest extends KeyedRequest {
  contentType: string | null;
  readBody: () => Promise<BodyReadResult>;
  idempotencyKey?: string | null;
  signal?: AbortSignal;
}

export function overHttp(request: GatewayRequest): KeyedCall {
  return { requestId: request.requestId, signal: request.signal, admit: () => admit(request), body: request, idempotencyKey: request.idempotencyKey };
}

const NO_BODY: BodyReadResult = { ok: true, text: '' };

export async function runKeyed<I, T>(request: KeyedCall, endpoint: KeyedEndpoint<I, T>): Promise<GatewayOutcome<T>> {
  const started = request.started ?? Date.now();
  const admission = await request.admit();
  if (!admission.ok) return admission;
  const { admitted } = admission;
  const limited = await consumeRateLimit(admitted, endpoint.rateLimit?.(admitted));
  if (!limited.ok) return limited;

  // The body is read once, lazily: by the Idempotency-Key check or by row 8, whichever comes first.
  let bodyRead: Promise<BodyReadResult> | undefined;
  const readBody = () => (bodyRead ??= request.body ? request.body.readBody() : Promise.resolve(NO_BODY));
  const contentType = request.body?.contentType ?? null;
  const answer = async (): Promise<GatewayOutcome<T>> => {
    const input = await endpoint.parse(() => readJsonObject({ contentType }, readBody));
    if (!input.ok) return deny(input.code, input.message, { ...limited.headers, ...(await usageHeadersNow(admitted)) });
    return endpoint.call(input.value, { admitted, headers: limited.headers, requestId: request.requestId, signal: request.signal, started });
  };
  if (!endpoint.idempotent || request.idempotencyKey == null) return answer();
  const fingerprintOf = async () => {
    const body = await readBody();
    return body.ok ? requestFingerprint(contentType, body.text) : null;
  };
  return answerIdempotently(admitted, limited, request.idempotencyKey, fingerprintOf, request, answer);
}

const IDEMPOTENCY_LEASE_MARGIN_MS = 15_000;

/** After row 7, so retries count against the rate limit like any request. */
async function answerIdempotently<T>(
  admitted: Admitted,
  limited: { rate: RateLimitState; headers: Record<string, string> },
  idempotencyKey: string,
  fingerprintOf: () => Promise<string | null>,
  request: Pick<KeyedCall, 'requestId' | 'signal'>,
  answer: () => Promise<GatewayOutcome<T>>,
): Promise<GatewayOutcome<T>> {
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
      return deny(
        'idempotency_key_in_progress',
        'A request with this Idempotency-Key is still being answered; retry in a moment.',
        await withUsage({ 'Retry-After': '1' }),
      );
    case 'replay':
      // The stored answer with its own usage headers; the rate-limit headers are this request's.
      return {
        ok: 'replayed',
        status: claim.answer.status,
        body: claim.answer.body,
        headers: { ...claim.answer.headers, ...rateLimitHeaders(limited.rate), [REPLAYED_HEADER]: 'true' },
      };
    case 'claimed':
      break;
  }
  let outcome: GatewayOutcome<T>;
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

function usageHeadersOf(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('X-Usage-')));
}

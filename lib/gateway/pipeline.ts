import type { Database } from '@/db/client';
import { getDb } from '@/lib/platform/db';
import { siteUrl } from '@/lib/platform/base-url';
import { getEnv } from '@/lib/platform/env';
import { ERROR_STATUS, errorBody, type ErrorCode } from '@/lib/platform/errors';
import { hashApiKey, parseApiKey } from '@/lib/keys';
import { getRateLimiter, rateLimitHeaders, type RateLimitRule, type RateLimitState } from '@/lib/limits';
import { log } from '@/lib/platform/log';
import { describeTextProblem, idProblem, isCleanId, textProblem } from '@/lib/platform/text-input';
import { loadKnowledgeBaseRoute, routeQuery, type PreparedRoute } from '@/lib/routing';
import type { QueryAnswer } from '@/lib/query-answer';
import { readPeriodUsage, releaseQueryUnit, reserveQueryUnit, usageHeaders, type PeriodKey } from './quota';
import { processSingleton } from '@/lib/platform/singleton';
import { ensureCurrentPeriod, isPeriodOver, resolveCurrentPeriod } from '@/lib/subscriptions';
import { findKeyByHash, findSubscriberKeyHash, type GatewayKeyRecord } from './key-lookup';
import { claimIdempotencyKey, isValidIdempotencyKey, releaseIdempotencyKey, REPLAYED_HEADER, requestFingerprint, storeIdempotentAnswer } from './idempotency';
import { getUsageRecorder } from './usage-recorder';

/**
 * The query gateway (docs/api.md §3, POST /kb/{kb_id}/query). Checks run in the documented order (§3.2) and the first failure
 * answers; every outcome is a value the route turns into a response. Hot-path cost on a warm key: the key and
 * knowledge-base records come from a 500 ms cache (so a revocation or suspension is seen everywhere within half a
 * second), the rate limit from the configured limiter, and ONE database statement reserves the cap unit. Volume,
 * daily usage, the query log and last_used_at are written by the batched recorder, off the hot path.
 */
export const MAX_BODY_BYTES = 16 * 1024;
export const MAX_QUERY_CHARS = 2_000;
const CACHE_TTL_MS = 500;
const CACHE_MAX_ENTRIES = 50_000;
/** An Idempotency-Key's claim outlives the publisher's timeout by this much before a retry may take it over. */
const IDEMPOTENCY_LEASE_MARGIN_MS = 15_000;

export type GatewayOutcome =
  | { ok: true; status: 200; answer: QueryAnswer; usage: { used: number; cap: number }; headers: Record<string, string> }
  | { ok: false; status: number; code: ErrorCode; message: string; extras: Record<string, unknown>; headers: Record<string, string> }
  /** A retry answered from its Idempotency-Key's stored answer (docs/api.md §3.8): sent as stored, never counted. */
  | { ok: 'replayed'; status: number; body: unknown; headers: Record<string, string> };

/** How the gateway reads a request body: lazily, only once the checks before row 8 have passed. */
export type BodyReadResult = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'invalid_utf8' };

export interface GatewayRequest {
  kbId: string;
  requestId: string;
  authorization: string | null;
  contentType: string | null;
  readBody: () => Promise<BodyReadResult>;
  /** The Idempotency-Key header, when sent. */
  idempotencyKey?: string | null;
  signal?: AbortSignal;
}

function deny(code: ErrorCode, message: string, headers: Record<string, string> = {}, extras: Record<string, unknown> = {}): GatewayOutcome {
  return { ok: false, status: ERROR_STATUS[code], code, message, extras, headers };
}

/** Rows 1 and 2 (docs/api.md §7.3, RFC 6750 §3): the scheme to use, and whether the key that was sent is the problem. */
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="almanac"' };
const INVALID_TOKEN_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="almanac", error="invalid_token"' };

// ── Short-lived caches (process-wide) ─────────────────────────────────────────────────────────────────

/**
 * Lookups kept for CACHE_TTL_MS. Concurrent misses share one load; a failed load and an unknown (null) result are
 * not kept: a key issued a moment ago must work at once. A hit whose load has settled comes back as a plain value,
 * not a promise — awaiting even a resolved promise costs a microtask and, under Next's async context tracking,
 * several hook calls, on every request.
 */
class LookupCache<V> {
  private entries = new Map<string, { loading: Promise<V | null>; value: V | undefined; expires: number }>();

  lookup(key: string, load: () => Promise<V | null>): V | Promise<V | null> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value ?? hit.loading;
    if (this.entries.size >= CACHE_MAX_ENTRIES) this.entries.clear();
    const entry = { loading: load(), value: undefined as V | undefined, expires: now + CACHE_TTL_MS };
    this.entries.set(key, entry);
    const forget = () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
    entry.loading.then((value) => (value === null ? forget() : (entry.value = value)), forget);
    return entry.loading;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

interface Caches {
  keys: LookupCache<GatewayKeyRecord>;
  kbs: LookupCache<PreparedRoute>;
}

function caches(): Caches {
  return processSingleton('gateway-caches', () => ({ keys: new LookupCache(), kbs: new LookupCache() }));
}

/** Tests that change rows behind the gateway's back and cannot wait half a second. */
export function clearGatewayCaches(): void {
  caches().keys.clear();
  caches().kbs.clear();
}

// ── The pipeline ──────────────────────────────────────────────────────────────────────────────────────

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

function rateRule(record: GatewayKeyRecord): RateLimitRule {
  const env = getEnv();
  const perMinute = record.plan.requestsPerMinute > 0 ? record.plan.requestsPerMinute : env.RATE_LIMIT_PER_MINUTE;
  return { limit: perMinute, windowMs: env.RATE_LIMIT_WINDOW_MS };
}

function currentPeriod(record: GatewayKeyRecord, now: Date): PeriodKey {
  const period = resolveCurrentPeriod(record.subscription, now);
  return { subscriptionId: record.subscription.id, periodStart: period.start, periodEnd: period.end };
}

/** Rate-limit and usage headers for a response that stops between rows 3 and 8 (nothing counted). */
async function peekHeaders(db: Database, record: GatewayKeyRecord, now: Date): Promise<Record<string, string>> {
  const [state, used] = await Promise.all([getRateLimiter().peek(record.keyId, rateRule(record)), readPeriodUsage(db, currentPeriod(record, now))]);
  return { ...rateLimitHeaders(state), ...usageHeaders({ used, cap: record.plan.queriesPerPeriod }) };
}

export async function handleGatewayRequest(request: GatewayRequest): Promise<GatewayOutcome> {
  const started = Date.now();
  // Row 1
  const authorization = request.authorization?.trim() ?? '';
  if (authorization === '') return deny('missing_api_key', 'Send your API key in the Authorization header: "Authorization: Bearer alm_sk_…".', CHALLENGE);
  // Row 2: shape and checksum first, so garbage never reaches the database.
  const match = BEARER.exec(authorization);
  const token = match?.[1] ?? '';
  if (!match || !parseApiKey(token).ok) {
    return deny('invalid_api_key', 'The Authorization header does not carry a valid Almanac API key ("Bearer alm_sk_…").', INVALID_TOKEN_CHALLENGE);
  }
  const db = await getDb();
  const keyHash = hashApiKey(token);
  const found = caches().keys.lookup(keyHash, () => findKeyByHash(db, keyHash));
  const record = found instanceof Promise ? await found : found;
  if (!record) return deny('invalid_api_key', 'This API key is not known.', INVALID_TOKEN_CHALLENGE);

  // The body is read once, lazily: by the Idempotency-Key check or by row 8, whichever comes first.
  let bodyRead: Promise<BodyReadResult> | undefined;
  const readBody = () => (bodyRead ??= request.readBody());
  const idempotency =
    request.idempotencyKey == null
      ? undefined
      : {
          key: request.idempotencyKey,
          fingerprint: async () => {
            const body = await readBody();
            return body.ok ? requestFingerprint(request.contentType, body.text) : null;
          },
        };
  return runFromKey(db, record, keyHash, request, started, idempotency, async () => {
    // Row 8 (body part): the Content-Type, then the size, then the JSON.
    const type = (request.contentType ?? '').split(';')[0].trim().toLowerCase();
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
    return validateQuery((json as Record<string, unknown>).query);
  });
}

type QueryParse = { ok: true; query: string } | { ok: false; code: 'invalid_query' | 'payload_too_large'; message: string };

function validateQuery(value: unknown): QueryParse {
  if (value === undefined) return { ok: false, code: 'invalid_query', message: '"query" is required.' };
  if (typeof value !== 'string') return { ok: false, code: 'invalid_query', message: '"query" must be a string.' };
  const query = value.trim();
  if (query === '') return { ok: false, code: 'invalid_query', message: '"query" must not be blank.' };
  if (query.length > MAX_QUERY_CHARS) return { ok: false, code: 'invalid_query', message: `"query" must be at most ${MAX_QUERY_CHARS} characters.` };
  const problem = textProblem(query);
  if (problem) return { ok: false, code: 'invalid_query', message: `"query" is refused: ${describeTextProblem(problem)}.` };
  return { ok: true, query };
}

interface IdempotencyInput {
  key: string;
  /** The request's fingerprint, or null when its body is too large to have one. */
  fingerprint: () => Promise<string | null>;
}

/** Rows 3–11 for a known key. Shared by the public route and the signed-in "Try it" panel. */
async function runFromKey(
  db: Database,
  initial: GatewayKeyRecord,
  keyHash: string,
  request: Pick<GatewayRequest, 'kbId' | 'requestId' | 'signal'>,
  started: number,
  idempotency: IdempotencyInput | undefined,
  readQuery: () => Promise<QueryParse>,
): Promise<GatewayOutcome> {
  let record = initial;
  let now = new Date();
  // Row 3
  if (record.keyRevokedAt) return deny('key_revoked', 'This API key has been revoked. Create a new key in your dashboard.', await peekHeaders(db, record, now));
  // Row 4: an id no knowledge base can have is refused before it reaches the database (docs/api.md §7.2). Suspended
  // knowledge bases pass here and are refused at row 6 (docs/api.md §3.2: 403, not 404).
  const kbIdProblem = idProblem(request.kbId);
  if (kbIdProblem) return deny('invalid_query', `The knowledge-base id in the path is refused: ${describeTextProblem(kbIdProblem, 'id')}.`, await peekHeaders(db, record, now));
  const route = caches().kbs.lookup(request.kbId, () => loadKnowledgeBaseRoute(db, request.kbId));
  const kb = route instanceof Promise ? await route : route;
  if (!kb || (kb.status !== 'published' && kb.status !== 'suspended')) {
    return deny('knowledge_base_not_found', 'No published knowledge base has this id.', await peekHeaders(db, record, now));
  }
  // Row 5
  if (record.kbId !== kb.id) return deny('key_scope_mismatch', 'This API key was issued for another knowledge base.', await peekHeaders(db, record, now));
  // Row 6: bring the billing period up to date first (renewal, or expiry of a subscription cancelled at period end).
  if (isPeriodOver(record.subscription, now)) {
    const subscription = await ensureCurrentPeriod(db, record.subscription, now);
    record = { ...record, subscription };
    caches().keys.delete(keyHash);
  }
  if (record.subscription.status !== 'active') {
    return deny('forbidden', 'The subscription of this key is not active (cancelled, expired or unpaid).', await peekHeaders(db, record, now));
  }
  if (kb.status === 'suspended') return deny('forbidden', 'This knowledge base is suspended.', await peekHeaders(db, record, now));
  // Row 7: every authenticated request that gets here counts against the per-minute limit.
  const rule = rateRule(record);
  const rate = await getRateLimiter().consume(record.keyId, rule);
  const period = currentPeriod(record, now);
  const cap = record.plan.queriesPerPeriod;
  const headers: Record<string, string> = rateLimitHeaders(rate);
  if (!rate.allowed) {
    Object.assign(headers, usageHeaders({ used: await readPeriodUsage(db, period), cap }), { 'Retry-After': String(rate.retryAfterSeconds) });
    return deny('rate_limit_exceeded', `Too many requests for this key: at most ${rule.limit} per minute.`, headers, { retry_after: rate.retryAfterSeconds });
  }
  const context: QueryContext = { db, record, kb, period, headers, request, started, readQuery };
  return idempotency ? answerIdempotently(context, idempotency, rate) : answerQuery(context);
}

/** What rows 8–11 work with, once rows 1–7 have passed. */
interface QueryContext {
  db: Database;
  record: GatewayKeyRecord;
  kb: PreparedRoute;
  period: PeriodKey;
  /** The rate-limit headers so far; the usage headers are added to them. */
  headers: Record<string, string>;
  request: Pick<GatewayRequest, 'requestId' | 'signal'>;
  started: number;
  readQuery: () => Promise<QueryParse>;
}

/**
 * Idempotency-Key (docs/api.md §3.8), after row 7 so retries count against the rate limit like any request: the
 * first request with a key runs and its answer is stored; a retry of the same request replays it, uncounted.
 */
async function answerIdempotently(context: QueryContext, idempotency: IdempotencyInput, rate: RateLimitState): Promise<GatewayOutcome> {
  const { db, record, kb, period, headers } = context;
  const withUsage = async (extra: Record<string, string> = {}) => ({
    ...headers,
    ...usageHeaders({ used: await readPeriodUsage(db, period), cap: record.plan.queriesPerPeriod }),
    ...extra,
  });
  if (!isValidIdempotencyKey(idempotency.key)) {
    return deny('invalid_request', 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.', await withUsage());
  }
  const fingerprint = await idempotency.fingerprint();
  if (fingerprint === null) return answerQuery(context); // too large: row 8 answers 413, which is not stored
  const slot = { keyId: record.keyId, idempotencyKey: idempotency.key };
  const claim = await claimIdempotencyKey(db, { ...slot, fingerprint, leaseMs: kb.timeoutMs + IDEMPOTENCY_LEASE_MARGIN_MS });
  switch (claim.kind) {
    case 'reused':
      return deny('idempotency_key_reused', 'This Idempotency-Key was used with a different request; use a new key for a new request.', await withUsage());
    case 'in_progress':
      return deny('idempotency_key_in_progress', 'A request with this Idempotency-Key is still being answered; retry in a moment.', await withUsage({ 'Retry-After': '1' }));
    case 'replay':
      // The stored answer with its own usage headers; the rate-limit headers are this request's.
      return { ok: 'replayed', status: claim.answer.status, body: claim.answer.body, headers: { ...claim.answer.headers, ...rateLimitHeaders(rate), [REPLAYED_HEADER]: 'true' } };
    case 'claimed':
      break;
  }
  let outcome: GatewayOutcome;
  try {
    outcome = await answerQuery(context);
  } catch (err) {
    await releaseIdempotencyKey(db, slot).catch(() => {});
    throw err;
  }
  if (outcome.ok === 'replayed' || outcome.status === ERROR_STATUS.internal_error || context.request.signal?.aborted) {
    // Our own fault, or a caller who hung up before the answer, is not an answer to keep: the retry runs again.
    await releaseIdempotencyKey(db, slot);
  } else {
    const body = outcome.ok ? outcome.answer : errorBody(outcome.code, outcome.message, context.request.requestId, outcome.extras);
    await storeIdempotentAnswer(db, slot, { status: outcome.status, body, headers: usageHeadersOf(outcome.headers) });
  }
  return outcome;
}

/** The X-Usage-* headers of an answer: what a replay repeats (its rate-limit headers are the retry's own). */
function usageHeadersOf(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('X-Usage-')));
}

/** Rows 8–11: the query itself, the cap reservation, routing and metering. */
async function answerQuery({ db, record, kb, period, headers, request, started, readQuery }: QueryContext): Promise<GatewayOutcome> {
  const cap = record.plan.queriesPerPeriod;
  // Row 8
  const parsed = await readQuery();
  if (!parsed.ok) {
    Object.assign(headers, usageHeaders({ used: await readPeriodUsage(db, period), cap }));
    return deny(parsed.code, parsed.message, headers);
  }
  // Row 9: reserve one unit of the cap before routing (exact under any concurrency).
  const reservation = await reserveQueryUnit(db, period, cap);
  if (!reservation.ok) {
    Object.assign(headers, usageHeaders({ used: reservation.used, cap }));
    return deny('query_cap_exceeded', `This subscription has used all ${cap} queries of the current billing period.`, headers, {
      usage: { used: reservation.used, cap },
      resets_at: period.periodEnd.toISOString(),
      upgrade_url: siteUrl(`/account/subscriptions/${record.subscription.id}`),
    });
  }
  // Rows 10–11
  let outcome;
  try {
    outcome = await routeQuery(kb, { kbId: kb.id, query: parsed.query, requestId: request.requestId, signal: request.signal });
  } catch (err) {
    log.error({ err, request_id: request.requestId, kb_id: kb.id }, 'routing failed');
    outcome = { ok: false as const, code: 'internal_error' as const, reason: 'routing failed' };
  }
  const now = new Date();
  const recorder = getUsageRecorder();
  const base = { requestId: request.requestId, kbId: kb.id, subscriptionId: record.subscription.id, keyId: record.keyId, at: now, keyLastUsedAt: record.keyLastUsedAt };
  if (outcome.ok) {
    // Abstentions are free (docs/api.md §3.7): an answer with no citations gives its unit back like a failure.
    const abstained = outcome.answer.citations.length === 0;
    const usage = { used: abstained ? await releaseQueryUnit(db, period) : reservation.used, cap };
    recorder.record({ ...base, status: 200, errorCode: null, abstained, tokensUsed: outcome.answer.tokens_used, latencyMs: Date.now() - started });
    Object.assign(headers, usageHeaders(usage));
    return { ok: true, status: 200, answer: outcome.answer, usage, headers };
  }
  // Fair metering: a failed answer gives its unit back.
  const usedAfter = await releaseQueryUnit(db, period);
  Object.assign(headers, usageHeaders({ used: usedAfter, cap }));
  recorder.record({ ...base, status: ERROR_STATUS[outcome.code], errorCode: outcome.code, tokensUsed: 0, latencyMs: Date.now() - started });
  log.warn({ request_id: request.requestId, kb_id: kb.id, code: outcome.code, reason: outcome.reason }, 'query not answered');
  const message =
    outcome.code === 'publisher_timeout'
      ? `The publisher did not answer within ${kb.timeoutMs} ms. This query was not counted.`
      : outcome.code === 'publisher_error'
        ? "The publisher's backend failed to answer. This query was not counted."
        : 'Something went wrong on our side. This query was not counted; quote the request id if you contact support.';
  return deny(outcome.code, message, headers);
}

// ── "Try it" for signed-in subscribers ─────────────────────────────────────────────────────────────────

export type SubscriberQueryResult =
  | { ok: true; answer: QueryAnswer; usage: { used: number; cap: number; remaining: number } }
  | { ok: false; code: ErrorCode; message: string; status: number; extras: Record<string, unknown> };

/**
 * The web's "Try it" panel: the same path from row 4 on, for the signed-in buyer's subscription to `kbId`, rate
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
  const outcome = await runFromKey(db, record, keyHash, { kbId: input.kbId, requestId: input.requestId, signal: input.signal }, started, undefined, async () =>
    validateQuery(input.query),
  );
  if (outcome.ok === 'replayed') throw new Error('The Try-it panel sends no Idempotency-Key.');
  if (outcome.ok) {
    const { used, cap } = outcome.usage;
    return { ok: true, answer: outcome.answer, usage: { used, cap, remaining: Math.max(0, cap - used) } };
  }
  return { ok: false, code: outcome.code, message: outcome.message, status: outcome.status, extras: outcome.extras };
}

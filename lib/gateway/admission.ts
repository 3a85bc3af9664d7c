import type { Database } from '@/db/client';
import { getDb } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { observeStage } from '@/lib/platform/metrics';
import { hashApiKey, parseApiKey } from '@/lib/keys';
import { hashOpaqueToken, opaqueKindOf } from '@/lib/oauth';
import { getRateLimiter, rateLimitHeaders, type RateLimitRule, type RateLimitState } from '@/lib/limits';
import { describeTextProblem, idProblem } from '@/lib/platform/text-input';
import { loadKnowledgeBaseRoute, type PreparedRoute } from '@/lib/routing';
import { ensureCurrentPeriod, isPeriodOver, resolveCurrentPeriod } from '@/lib/subscriptions';
import { caches } from './caches';
import { findKeyByAccessToken, findKeyByHash, type GatewayKeyRecord } from './key-lookup';
import { CHALLENGE, deny, INVALID_TOKEN_CHALLENGE, type GatewayRefusal } from './outcome';
import { readPeriodUsage, usageHeaders, type PeriodKey } from './quota';
import { getUsageRecorder } from './usage-recorder';

/** Rows 1–7 of the check order (docs/api.md §3.2), shared by every keyed endpoint; the first failing row answers. */

export interface KeyedRequest {
  kbId: string;
  requestId: string;
  authorization: string | null;
}

/** A request that passed rows 1–6: a live key of an active subscription to this published knowledge base. */
export interface Admitted {
  db: Database;
  record: GatewayKeyRecord;
  keyHash: string;
  kb: PreparedRoute;
  period: PeriodKey;
  cap: number;
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

export function isBearerHeader(authorization: string | null): boolean {
  return BEARER.test(authorization?.trim() ?? '');
}

export async function authenticate(
  authorization: string | null,
): Promise<{ ok: true; db: Database; record: GatewayKeyRecord; keyHash: string } | GatewayRefusal> {
  const header = authorization?.trim() ?? '';
  if (header === '') return deny('missing_api_key', 'Send your API key in the Authorization header: "Authorization: Bearer alm_sk_…".', CHALLENGE);
  const match = BEARER.exec(header);
  const token = match?.[1] ?? '';
  // An OAuth access token acts as its grant's key (docs/api.md §10.7): the same rows from 3 on.
  const oauth = opaqueKindOf(token) === 'at';
  if (!match || (!oauth && !parseApiKey(token).ok)) {
    return deny(
      'invalid_api_key',
      'The Authorization header does not carry a valid Almanac API key ("Bearer alm_sk_…") or access token.',
      INVALID_TOKEN_CHALLENGE,
    );
  }
  const db = await getDb();
  const keyHash = oauth ? hashOpaqueToken(token) : hashApiKey(token);
  const found = caches().keys.lookup(keyHash, () => (oauth ? findKeyByAccessToken(db, token) : findKeyByHash(db, keyHash)));
  const record = found instanceof Promise ? await found : found;
  if (!record)
    return deny(
      'invalid_api_key',
      oauth ? 'This access token is not known, has expired or was revoked.' : 'This API key is not known.',
      INVALID_TOKEN_CHALLENGE,
    );
  return { ok: true, db, record, keyHash };
}

export function admit(request: KeyedRequest): Promise<{ ok: true; admitted: Admitted } | GatewayRefusal> {
  return observeStage(
    'auth',
    async () => {
      const known = await authenticate(request.authorization);
      if (!known.ok) return known;
      return admitKnownKey(known.db, known.record, known.keyHash, request.kbId);
    },
    { 'almanac.request_id': request.requestId },
  );
}

/** Knowledge-base states a key can reach row 5 in: a draft or archived one is unknown to buyers. */
const ADMITTED_STATUSES = new Set<string>(['published', 'unpublished', 'suspended']);

/** Rows 3–6 for a key already known (Try-it); `kbIdSource` names where the id came from, for the refusal's message. */
export async function admitKnownKey(
  db: Database,
  initial: GatewayKeyRecord,
  keyHash: string,
  kbId: string,
  kbIdSource = 'The knowledge-base id in the path',
): Promise<{ ok: true; admitted: Admitted } | GatewayRefusal> {
  let record = initial;
  const now = new Date();
  // Row 3
  if (record.keyRevokedAt) return deny('key_revoked', 'This API key has been revoked. Create a new key in your dashboard.', await peekHeaders(db, record, now));
  // Row 4. A suspended knowledge base is refused at row 6 (403, not 404); an unpublished one still serves the
  // subscriptions bought before, until their period ends.
  const kbIdProblem = idProblem(kbId);
  if (kbIdProblem) return deny('invalid_query', `${kbIdSource} is refused: ${describeTextProblem(kbIdProblem, 'id')}.`, await peekHeaders(db, record, now));
  const route = caches().kbs.lookup(kbId, () => loadKnowledgeBaseRoute(db, kbId));
  const kb = route instanceof Promise ? await route : route;
  if (!kb || !ADMITTED_STATUSES.has(kb.status)) {
    return deny('knowledge_base_not_found', 'No published knowledge base has this id.', await peekHeaders(db, record, now));
  }
  // Row 5
  if (record.kbId !== kb.id) return deny('key_scope_mismatch', 'This API key was issued for another knowledge base.', await peekHeaders(db, record, now));
  // Row 6: bring the billing period up to date first (renewal, or expiry of a subscription cancelled at period end).
  if (isPeriodOver(record.subscription, now)) {
    const subscription = await ensureCurrentPeriod(db, record.subscription, now);
    caches().keys.delete(keyHash);
    // The new period may have brought a scheduled downgrade (a smaller plan): read the plan the row holds now.
    const reread = subscription.currentPeriodStart.getTime() !== record.subscription.currentPeriodStart.getTime() ? await findKeyByHash(db, keyHash) : null;
    record = { ...record, subscription: { ...subscription, planId: reread?.subscription.planId ?? subscription.planId }, plan: reread?.plan ?? record.plan };
  }
  if (record.subscription.status !== 'active') {
    return deny('forbidden', 'The subscription of this key is not active (cancelled, expired or unpaid).', await peekHeaders(db, record, now));
  }
  if (kb.status === 'suspended') return deny('forbidden', 'This knowledge base is suspended.', await peekHeaders(db, record, now));
  return { ok: true, admitted: { db, record, keyHash, kb, period: currentPeriod(record, now), cap: record.plan.queriesPerPeriod } };
}

export function rateRule(record: GatewayKeyRecord): RateLimitRule {
  const env = getEnv();
  const perMinute = record.plan.requestsPerMinute > 0 ? record.plan.requestsPerMinute : env.RATE_LIMIT_PER_MINUTE;
  return { limit: perMinute, windowMs: env.RATE_LIMIT_WINDOW_MS };
}

/** Row 7. The free usage endpoint has a small limit of its own under another name (`limiterId`). */
export async function consumeRateLimit(
  admitted: Admitted,
  options: { rule?: RateLimitRule; limiterId?: string } = {},
): Promise<{ ok: true; rate: RateLimitState; headers: Record<string, string> } | GatewayRefusal> {
  const rule = options.rule ?? rateRule(admitted.record);
  const rate = await observeStage('limits', () => getRateLimiter().consume(options.limiterId ?? admitted.record.keyId, rule));
  const headers: Record<string, string> = rateLimitHeaders(rate);
  if (!rate.allowed) {
    if (!options.limiterId) getUsageRecorder().recordRefusal({ kbId: admitted.kb.id, code: 'rate_limit_exceeded', at: new Date() });
    Object.assign(headers, await usageHeadersNow(admitted), { 'Retry-After': String(rate.retryAfterSeconds) });
    return deny('rate_limit_exceeded', `Too many requests for this key: at most ${rule.limit} per minute.`, headers, { retry_after: rate.retryAfterSeconds });
  }
  return { ok: true, rate, headers };
}

export async function usageHeadersNow(admitted: Admitted): Promise<Record<string, string>> {
  return usageHeaders({ used: await readPeriodUsage(admitted.db, admitted.period), cap: admitted.cap });
}

function currentPeriod(record: GatewayKeyRecord, now: Date): PeriodKey {
  const period = resolveCurrentPeriod(record.subscription, now);
  return { subscriptionId: record.subscription.id, periodStart: period.start, periodEnd: period.end };
}

async function peekHeaders(db: Database, record: GatewayKeyRecord, now: Date): Promise<Record<string, string>> {
  const [state, used] = await Promise.all([getRateLimiter().peek(record.keyId, rateRule(record)), readPeriodUsage(db, currentPeriod(record, now))]);
  return { ...rateLimitHeaders(state), ...usageHeaders({ used, cap: record.plan.queriesPerPeriod }) };
}

import { getRateLimiter, rateLimitHeaders, retryAfterSeconds, type RateLimitRule, type RateLimitState } from '@/lib/limits';
import { UNKNOWN_ADDRESS, clientAddressFromHeaders, type HeaderSource } from '@/lib/platform/client-address';
import { getEnv } from '@/lib/platform/env';
import { ApiError } from '@/lib/platform/errors';
import { processSingleton } from '@/lib/platform/singleton';

/**
 * The per-client limit of the public endpoints (docs/api.md §2.8): one budget per client address,
 * PUBLIC_RATE_LIMIT_PER_MINUTE in the keys' sliding window and limiter backend (`public:<address>`), so it is exact
 * across instances. The address is lib/platform/client-address.ts's; when there is no trustworthy one (a bare
 * `next start`) nothing is counted, since one shared bucket would let a single client shut the catalog for everyone.
 */
const PUBLIC_LIMIT_ID_PREFIX = 'public:';

function publicRateRule(): RateLimitRule {
  const env = getEnv();
  return { limit: env.PUBLIC_RATE_LIMIT_PER_MINUTE, windowMs: env.RATE_LIMIT_WINDOW_MS };
}

/** How many refused addresses this process remembers (the oldest is forgotten first); a forgotten one costs one limiter call. */
const REFUSAL_MEMORY_SIZE = 10_000;

/**
 * Addresses this process saw refused, until the limiter said their next slot frees (`resetAtMs`). Until then the
 * limiter would refuse them again whatever any instance does (a refused request is not counted, and no instance can
 * free a slot early), so answering from memory is exact; it spares a flood from one address a limiter round trip
 * (Redis, Upstash) per request, which bench/listing/server.ts measured taking the cores from paid queries.
 */
const refusals = processSingleton('public-refusals', () => new Map<string, RateLimitState>());

function rememberedRefusal(id: string, now: number): RateLimitState | undefined {
  const state = refusals.get(id);
  if (!state) return undefined;
  if (now < state.resetAtMs) return { ...state, retryAfterSeconds: retryAfterSeconds(state.resetAtMs, now) };
  refusals.delete(id);
  return undefined;
}

function rememberRefusal(id: string, state: RateLimitState): void {
  refusals.delete(id);
  if (refusals.size >= REFUSAL_MEMORY_SIZE) refusals.delete(refusals.keys().next().value!);
  refusals.set(id, state);
}

/** Tests: forget every remembered refusal. */
export function forgetPublicRefusals(): void {
  refusals.clear();
}

/**
 * Counts one request against its client's budget. Allowed: the X-RateLimit-* headers for the answer. Over the limit:
 * throws 429 `rate_limit_exceeded` with those headers, `Retry-After` and `retry_after`.
 */
export async function admitPublicRequest(headers: HeaderSource): Promise<Record<string, string>> {
  const address = clientAddressFromHeaders(headers);
  if (address === UNKNOWN_ADDRESS) return {};
  const rule = publicRateRule();
  const id = PUBLIC_LIMIT_ID_PREFIX + address;
  const state = rememberedRefusal(id, Date.now()) ?? (await getRateLimiter().consume(id, rule));
  const limitHeaders = rateLimitHeaders(state);
  if (!state.allowed) {
    rememberRefusal(id, state);
    throw new ApiError('rate_limit_exceeded', `Too many requests from this address: at most ${rule.limit} per minute on the public endpoints.`, {
      headers: { ...limitHeaders, 'Retry-After': String(state.retryAfterSeconds) },
      extras: { retry_after: state.retryAfterSeconds },
    });
  }
  return limitHeaders;
}

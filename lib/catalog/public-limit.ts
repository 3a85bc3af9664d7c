import { getRateLimiter, rateLimitHeaders, retryAfterSeconds, type RateLimitRule, type RateLimitState } from '@/lib/limits';
import { UNKNOWN_ADDRESS, clientAddressFromHeaders, type HeaderSource } from '@/lib/platform/client-address';
import { getEnv } from '@/lib/platform/env';
import { ApiError } from '@/lib/platform/errors';
import { processSingleton } from '@/lib/platform/singleton';

/**
 * The public endpoints' per-client limit (docs/api.md §2.8), exact across instances through the keys' limiter. Without
 * a trustworthy client address nothing is counted: one shared bucket would let one client shut the catalog.
 */
const PUBLIC_LIMIT_ID_PREFIX = 'public:';

function publicRateRule(): RateLimitRule {
  const env = getEnv();
  return { limit: env.PUBLIC_RATE_LIMIT_PER_MINUTE, windowMs: env.RATE_LIMIT_WINDOW_MS };
}

const REFUSAL_MEMORY_SIZE = 10_000;

/** Refused addresses until their next slot frees: no instance can free it early, so answering from memory is exact. */
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

export function forgetPublicRefusals(): void {
  refusals.clear();
}

/** Allowed: the X-RateLimit-* headers for the answer; over the limit it throws 429 `rate_limit_exceeded`. */
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

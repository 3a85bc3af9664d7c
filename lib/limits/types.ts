/**
 * Per-key request-rate limits behind one interface (docs/api.md §3.2, row 7): in-process, Redis (an exact sliding log
 * in one Lua script) or Upstash (serverless, an approximate window); the gateway talks only to this interface.
 */
export interface RateLimitRule {
  /** Requests allowed inside any window of `windowMs`. */
  limit: number;
  windowMs: number;
}

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the next request slot frees (Unix milliseconds); the X-RateLimit-Reset header rounds it up to seconds. */
  resetAtMs: number;
  /** Whole seconds ≥ 1 to wait before retrying a denied request (0 when allowed). */
  retryAfterSeconds: number;
}

type RateLimiterKind = 'memory' | 'redis' | 'upstash';

export interface RateLimiter {
  readonly kind: RateLimiterKind;
  /** True when the window is an exact sliding log; false for approximations (Upstash's weighted two-bucket window). */
  readonly exact: boolean;
  consume(id: string, rule: RateLimitRule): Promise<RateLimitState>;
  /** The state for `id` without counting anything (headers on responses that stop before the limit step). */
  peek(id: string, rule: RateLimitRule): Promise<RateLimitState>;
  close(): Promise<void>;
}

export function retryAfterSeconds(resetAtMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(Math.max(0, state.remaining)),
    'X-RateLimit-Reset': String(Math.ceil(state.resetAtMs / 1000)),
  };
}

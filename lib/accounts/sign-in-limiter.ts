import { getRateLimiter, type RateLimiter, type RateLimitRule } from '@/lib/limits';

/**
 * Brute-force protection for password sign-in: failed attempts are counted per email and per client address in a
 * sliding window; once either reaches its limit, further attempts are refused until the oldest failure leaves the
 * window. Counting goes through the shared rate-limiter interface (lib/limits), so with REDIS_URL or Upstash set
 * the count holds across every instance; in-process otherwise.
 */
export interface SignInLimits {
  windowMs: number;
  maxFailuresPerEmail: number;
  /** Higher than the per-email limit: many people can share one address (offices, NAT, CI). */
  maxFailuresPerIp: number;
}

export type SignInGate = { ok: true } | { ok: false; code: 'too_many_attempts'; retryAfterSeconds: number };

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { windowMs: 15 * 60_000, maxFailuresPerEmail: 5, maxFailuresPerIp: 20 };

export class SignInLimiter {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
  ) {}

  private keys(email: string, ip: string): [string, RateLimitRule][] {
    const { windowMs } = this.limits;
    return [
      [`signin:email:${email.trim().toLowerCase()}`, { limit: this.limits.maxFailuresPerEmail, windowMs }],
      [`signin:ip:${ip}`, { limit: this.limits.maxFailuresPerIp, windowMs }],
    ];
  }

  /** Whether another attempt may be made now; counts nothing. */
  async check(email: string, ip: string): Promise<SignInGate> {
    const states = await Promise.all(this.keys(email, ip).map(([id, rule]) => this.limiter.peek(id, rule)));
    const wait = Math.max(0, ...states.filter((s) => !s.allowed).map((s) => s.retryAfterSeconds));
    return states.every((s) => s.allowed) ? { ok: true } : { ok: false, code: 'too_many_attempts', retryAfterSeconds: Math.max(1, wait) };
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    await Promise.all(this.keys(email, ip).map(([id, rule]) => this.limiter.consume(id, rule)));
  }
}

export function getSignInLimiter(): SignInLimiter {
  // Cheap wrapper around the process-wide limiter; no state of its own.
  return new SignInLimiter(getRateLimiter());
}

/** "try again in 12 minutes" / "in 40 seconds" */
export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

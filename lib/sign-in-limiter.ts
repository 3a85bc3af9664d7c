import { processSingleton } from './singleton';

/**
 * Brute-force protection for password sign-in: failures are counted per email and per client address in a
 * sliding window; once either reaches its limit, further attempts are refused until the oldest failure leaves
 * the window. In-process (single instance); a multi-instance deployment shares nothing here, which still caps
 * an attacker at limit × instances per window.
 */
export interface SignInLimiterOptions {
  windowMs: number;
  maxFailuresPerEmail: number;
  /** Higher than the per-email limit: many people can share one address (offices, NAT, CI). */
  maxFailuresPerIp: number;
  now?: () => number;
}

export type SignInGate = { ok: true } | { ok: false; code: 'too_many_attempts'; retryAfterSeconds: number };

export const DEFAULT_SIGN_IN_LIMITS: SignInLimiterOptions = { windowMs: 15 * 60_000, maxFailuresPerEmail: 5, maxFailuresPerIp: 20 };

export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly now: () => number;

  constructor(private readonly options: SignInLimiterOptions) {
    this.now = options.now ?? Date.now;
  }

  private recent(key: string): number[] {
    const cutoff = this.now() - this.options.windowMs;
    const kept = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (kept.length === 0) this.failures.delete(key);
    else this.failures.set(key, kept);
    return kept;
  }

  private blockedFor(key: string, limit: number): number {
    const times = this.recent(key);
    if (times.length < limit) return 0;
    // Attempts open again when enough failures have aged out to drop below the limit.
    const reopensAt = times[times.length - limit]! + this.options.windowMs;
    return Math.max(1, Math.ceil((reopensAt - this.now()) / 1000));
  }

  check(email: string, ip: string): SignInGate {
    const wait = Math.max(
      this.blockedFor(`e:${email.trim().toLowerCase()}`, this.options.maxFailuresPerEmail),
      this.blockedFor(`i:${ip}`, this.options.maxFailuresPerIp),
    );
    return wait > 0 ? { ok: false, code: 'too_many_attempts', retryAfterSeconds: wait } : { ok: true };
  }

  recordFailure(email: string, ip: string): void {
    const t = this.now();
    for (const key of [`e:${email.trim().toLowerCase()}`, `i:${ip}`]) this.failures.set(key, [...this.recent(key), t]);
  }

  /** A correct password clears the email's failures (not the address's: one success must not unlock guessing others). */
  recordSuccess(email: string): void {
    this.failures.delete(`e:${email.trim().toLowerCase()}`);
  }
}

export function getSignInLimiter(): SignInLimiter {
  return processSingleton('sign-in-limiter', () => new SignInLimiter(DEFAULT_SIGN_IN_LIMITS));
}

/** "try again in 12 minutes" / "in 40 seconds" */
export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

import { getRateLimiter, type RateLimiter, type RateLimitRule } from '@/lib/limits';
import { UNKNOWN_ADDRESS } from '@/lib/platform/client-address';
import { getEnv } from '@/lib/platform/env';

/**
 * Brute-force and abuse limits for password sign-in and sign-up, on the shared rate-limiter interface (lib/limits),
 * so with Redis or Upstash the counts hold across instances. Every attempt is COUNTED BEFORE its password is checked,
 * with the limiter's atomic consume: N concurrent guesses get exactly the limit's worth of checks (counting failures
 * afterwards let 200 concurrent guesses through a limit of 5 as 14).
 *
 * Sign-in is counted per account AND address, in tiers whose windows grow with the guessing (5 a minute up to 40 a
 * day), so a guesser cannot lock the owner out elsewhere; one address also has a ceiling across all accounts against
 * spraying one password. Guesses spread over many addresses get their tiers each: argon2id and the 10-character
 * minimum are the defence there. With no trustworthy client address the per-address ceilings are skipped, since one
 * shared bucket would let anyone stop every sign-in.
 */
export interface SignInLimits {
  /** Attempts at one account from one address: each rule must hold. */
  perAccountAndAddress: RateLimitRule[];
  /** Attempts from one address across every account: each rule must hold. */
  perAddress: RateLimitRule[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perAccountAndAddress: [
    { limit: 5, windowMs: MINUTE },
    { limit: 10, windowMs: 15 * MINUTE },
    { limit: 20, windowMs: 4 * HOUR },
    { limit: 40, windowMs: 24 * HOUR },
  ],
  perAddress: [
    { limit: 30, windowMs: MINUTE },
    { limit: 200, windowMs: HOUR },
  ],
};

export type SignInGate = { ok: true } | { ok: false; code: 'too_many_attempts'; retryAfterSeconds: number };

export class SignInLimiter {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
    private readonly signUpsPerHour: number = getEnv().SIGN_UPS_PER_ADDRESS_PER_HOUR,
  ) {}

  /**
   * Counts one sign-in attempt for `email` from `address`, before its password is checked. The account's tiers come
   * first: a burst refused there never reaches the address's ceiling, which counts attempts that were let through.
   */
  admitSignIn(email: string, address: string): Promise<SignInGate> {
    const account = email.trim().toLowerCase();
    const rules: [string, RateLimitRule][] = this.limits.perAccountAndAddress.map((rule, tier) => [`signin:acct:${tier}:${address}:${account}`, rule]);
    if (address !== UNKNOWN_ADDRESS)
      rules.push(...this.limits.perAddress.map((rule, tier): [string, RateLimitRule] => [`signin:addr:${tier}:${address}`, rule]));
    return this.consumeAll(rules);
  }

  /** Counts one sign-up from `address` (each costs an argon2id hash of 19 MiB), before anything is hashed. */
  admitSignUp(address: string): Promise<SignInGate> {
    if (address === UNKNOWN_ADDRESS) return Promise.resolve({ ok: true });
    return this.consumeAll([[`signup:addr:${address}`, { limit: this.signUpsPerHour, windowMs: HOUR }]]);
  }

  /**
   * Counts one request that sends an email to `email` (a password reset, a new verification link), before anything is
   * looked up or sent: at most 3 per address and account in 15 minutes and 10 a day, and 20 an hour from one client
   * address across all accounts. The same answer whether or not the account exists, so the limit discloses nothing.
   */
  admitEmailLink(kind: 'reset' | 'verify', email: string, address: string): Promise<SignInGate> {
    const account = email.trim().toLowerCase();
    const rules: [string, RateLimitRule][] = [
      [`mail:${kind}:acct:0:${account}`, { limit: 3, windowMs: 15 * MINUTE }],
      [`mail:${kind}:acct:1:${account}`, { limit: 10, windowMs: 24 * HOUR }],
    ];
    if (address !== UNKNOWN_ADDRESS) rules.push([`mail:${kind}:addr:${address}`, { limit: 20, windowMs: HOUR }]);
    return this.consumeAll(rules);
  }

  /**
   * One atomic consume per rule, in order; the first refusal stops the counting. The wait stated is the longest of the
   * rules that would refuse now (the later ones are only peeked), so "try again in a minute" is never said when a
   * longer tier is full too.
   */
  private async consumeAll(rules: [string, RateLimitRule][]): Promise<SignInGate> {
    for (const [index, [id, rule]] of rules.entries()) {
      const state = await this.limiter.consume(id, rule);
      if (state.allowed) continue;
      const later = await Promise.all(rules.slice(index + 1).map(([laterId, laterRule]) => this.limiter.peek(laterId, laterRule)));
      const wait = Math.max(state.retryAfterSeconds, ...later.filter((s) => !s.allowed).map((s) => s.retryAfterSeconds));
      return { ok: false, code: 'too_many_attempts', retryAfterSeconds: Math.max(1, wait) };
    }
    return { ok: true };
  }
}

export function getSignInLimiter(): SignInLimiter {
  // Cheap wrapper around the process-wide limiter; no state of its own.
  return new SignInLimiter(getRateLimiter());
}

/** "try again in 40 seconds" / "in 12 minutes" / "in 4 hours" */
export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hours`;
}

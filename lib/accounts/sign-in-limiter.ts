import { getRateLimiter, type RateLimiter, type RateLimitRule } from '@/lib/limits';
import { UNKNOWN_ADDRESS } from '@/lib/platform/client-address';
import { getEnv } from '@/lib/platform/env';

/**
 * Brute-force limits for password sign-in and sign-up on the shared limiter, so counts hold across instances. Every
 * attempt is COUNTED BEFORE its password is checked, with an atomic consume, so N concurrent guesses get exactly the
 * limit's checks. Per account AND address in growing tiers (a guesser cannot lock the owner out elsewhere), plus a
 * ceiling per address, skipped without a trustworthy address (one shared bucket would let anyone stop every sign-in).
 */
export interface SignInLimits {
  perAccountAndAddress: RateLimitRule[];
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

  /** The account's tiers first: a burst refused there never reaches the address's ceiling, which counts what got through. */
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

  /** Before anything is looked up or sent, and the same answer whether the account exists, so the limit discloses nothing. */
  admitEmailLink(kind: 'reset' | 'verify', email: string, address: string): Promise<SignInGate> {
    const account = email.trim().toLowerCase();
    const rules: [string, RateLimitRule][] = [
      [`mail:${kind}:acct:0:${account}`, { limit: 3, windowMs: 15 * MINUTE }],
      [`mail:${kind}:acct:1:${account}`, { limit: 10, windowMs: 24 * HOUR }],
    ];
    if (address !== UNKNOWN_ADDRESS) rules.push([`mail:${kind}:addr:${address}`, { limit: 20, windowMs: HOUR }]);
    return this.consumeAll(rules);
  }

  /** The first refusal stops the counting; the wait stated is the longest of the rules that would refuse now. */
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
  return new SignInLimiter(getRateLimiter());
}

export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hours`;
}

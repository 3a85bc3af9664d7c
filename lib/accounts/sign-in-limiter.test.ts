import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '@/lib/limits';
import { UNKNOWN_ADDRESS } from '@/lib/platform/client-address';
import { DEFAULT_SIGN_IN_LIMITS, describeWait, SignInLimiter } from './sign-in-limiter';

const MINUTE = 60_000;

function limiter(signUpsPerHour = 3) {
  let now = 1_000_000;
  const l = new SignInLimiter(
    createMemoryRateLimiter(() => now),
    DEFAULT_SIGN_IN_LIMITS,
    signUpsPerHour,
  );
  return { l, advance: (ms: number) => (now += ms) };
}

/** `n` attempts, each counted as the sign-in path counts it; returns the last gate. */
async function attempts(l: SignInLimiter, n: number, email: string, address: string) {
  let gate;
  for (let i = 0; i < n; i++) gate = await l.admitSignIn(email, address);
  return gate!;
}

describe('SignInLimiter: sign-in', () => {
  it('admits 5 attempts a minute per account and address, whatever the email’s case, then states the wait', async () => {
    const { l } = limiter();
    expect(await attempts(l, 4, 'a@example.test', '203.0.113.1')).toEqual({ ok: true });
    expect(await l.admitSignIn('A@Example.test ', '203.0.113.1')).toEqual({ ok: true });
    expect(await l.admitSignIn('a@example.test', '203.0.113.1')).toEqual({ ok: false, code: 'too_many_attempts', retryAfterSeconds: 60 });
  });

  it('does not let one address’s attempts lock the account at another address', async () => {
    const { l } = limiter();
    await attempts(l, 50, 'owner@example.test', '203.0.113.1');
    expect((await l.admitSignIn('owner@example.test', '203.0.113.1')).ok).toBe(false);
    expect(await l.admitSignIn('owner@example.test', '198.51.100.7')).toEqual({ ok: true });
  });

  it('makes the wait grow with the guessing: a minute, then 15 minutes, then 4 hours, then a day', async () => {
    const { l, advance } = limiter();
    const guess = () => l.admitSignIn('a@example.test', '203.0.113.1');
    const waits: number[] = [];
    // Guess as fast as the gate lets through; note each wait and sit it out.
    for (let admitted = 0; admitted < 40;) {
      const gate = await guess();
      if (gate.ok) admitted++;
      else {
        waits.push(gate.retryAfterSeconds);
        advance(gate.retryAfterSeconds * 1000);
      }
    }
    const gate = await guess();
    expect(gate.ok).toBe(false);
    if (!gate.ok) waits.push(gate.retryAfterSeconds);
    const longest = (from: number, to: number) => Math.max(...waits.filter((w) => w > from && w <= to));
    expect(waits.every((w) => w >= 1)).toBe(true);
    expect(longest(0, 60)).toBe(60);
    expect(longest(60, 15 * 60)).toBeGreaterThan(10 * 60);
    expect(longest(15 * 60, 4 * 3600)).toBeGreaterThan(3 * 3600);
    expect(waits.at(-1)).toBeGreaterThan(12 * 3600);
  });

  it('stops one address spraying over many accounts at 30 attempts a minute, and only that address', async () => {
    const { l, advance } = limiter();
    let admitted = 0;
    for (let account = 0; account < 10; account++) {
      for (let i = 0; i < 4; i++) if ((await l.admitSignIn(`user${account}@example.test`, '203.0.113.9')).ok) admitted++;
    }
    expect(admitted).toBe(30);
    expect((await l.admitSignIn('fresh@example.test', '203.0.113.9')).ok).toBe(false);
    expect((await l.admitSignIn('fresh@example.test', '203.0.113.8')).ok).toBe(true);
    // …and 200 an hour.
    for (let minute = 0; minute < 10; minute++) {
      advance(MINUTE);
      for (let account = 0; account < 30; account++) await l.admitSignIn(`m${minute}-${account}@example.test`, '203.0.113.9');
    }
    expect((await l.admitSignIn('later@example.test', '203.0.113.9')).ok).toBe(false);
  });

  it('counts concurrent attempts exactly: 200 at once, 5 admitted', async () => {
    const { l } = limiter();
    const gates = await Promise.all(Array.from({ length: 200 }, () => l.admitSignIn('a@example.test', '203.0.113.1')));
    expect(gates.filter((g) => g.ok)).toHaveLength(5);
  });

  it('without a known address, limits per account and drops the address ceiling (one shared bucket would stop every sign-in)', async () => {
    const { l } = limiter();
    for (let account = 0; account < 40; account++) expect((await l.admitSignIn(`user${account}@example.test`, UNKNOWN_ADDRESS)).ok).toBe(true);
    expect((await attempts(l, 6, 'target@example.test', UNKNOWN_ADDRESS)).ok).toBe(false);
  });
});

describe('SignInLimiter: sign-up', () => {
  it('admits the hourly number of sign-ups per address, each address apart', async () => {
    const { l, advance } = limiter(3);
    const gates = await Promise.all(Array.from({ length: 10 }, () => l.admitSignUp('203.0.113.1')));
    expect(gates.filter((g) => g.ok)).toHaveLength(3);
    expect(gates.at(-1)).toEqual({ ok: false, code: 'too_many_attempts', retryAfterSeconds: 3600 });
    expect((await l.admitSignUp('203.0.113.2')).ok).toBe(true);
    advance(60 * MINUTE);
    expect((await l.admitSignUp('203.0.113.1')).ok).toBe(true);
  });

  it('does not limit an unknown address as one bucket', async () => {
    const { l } = limiter(1);
    for (let i = 0; i < 5; i++) expect((await l.admitSignUp(UNKNOWN_ADDRESS)).ok).toBe(true);
  });
});

describe('describeWait', () => {
  it.each([
    [1, '1 second'],
    [45, '45 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [900, '15 minutes'],
    [4 * 3600, '4 hours'],
    [24 * 3600, '24 hours'],
  ])('%i s → %s', (s, text) => expect(describeWait(s)).toBe(text));
});

import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '@/lib/limits';
import { describeWait, SignInLimiter } from './sign-in-limiter';

function limiter() {
  let now = 1_000_000;
  const l = new SignInLimiter(createMemoryRateLimiter(() => now), { windowMs: 60_000, maxFailuresPerEmail: 3, maxFailuresPerIp: 5 });
  return { l, advance: (ms: number) => (now += ms) };
}

describe('SignInLimiter', () => {
  it('allows attempts below the per-email limit and blocks at it, whatever the address or case', async () => {
    const { l } = limiter();
    for (let i = 0; i < 2; i++) await l.recordFailure('a@example.test', '10.0.0.1');
    expect(await l.check('a@example.test', '10.0.0.1')).toEqual({ ok: true });
    await l.recordFailure('A@Example.test ', '10.0.0.1');
    expect(await l.check('a@example.test', '10.0.0.2')).toEqual({ ok: false, code: 'too_many_attempts', retryAfterSeconds: 60 });
    // Another account from the same address is still allowed (address limit is 5).
    expect((await l.check('b@example.test', '10.0.0.1')).ok).toBe(true);
  });

  it('reopens when the oldest failure leaves the window and reports the wait', async () => {
    const { l, advance } = limiter();
    await l.recordFailure('a@example.test', 'ip');
    advance(20_000);
    await l.recordFailure('a@example.test', 'ip');
    await l.recordFailure('a@example.test', 'ip');
    expect(await l.check('a@example.test', 'ip')).toMatchObject({ ok: false, retryAfterSeconds: 40 });
    advance(40_001);
    expect((await l.check('a@example.test', 'ip')).ok).toBe(true);
  });

  it('blocks an address that guesses across many emails, not other addresses', async () => {
    const { l } = limiter();
    for (let i = 0; i < 5; i++) await l.recordFailure(`user${i}@example.test`, '10.9.9.9');
    expect((await l.check('fresh@example.test', '10.9.9.9')).ok).toBe(false);
    expect((await l.check('fresh@example.test', '10.9.9.8')).ok).toBe(true);
  });

  it('checking does not count as a failure', async () => {
    const { l } = limiter();
    for (let i = 0; i < 10; i++) expect((await l.check('a@example.test', 'ip')).ok).toBe(true);
  });
});

describe('describeWait', () => {
  it.each([
    [1, '1 second'],
    [45, '45 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [900, '15 minutes'],
  ])('%i s → %s', (s, text) => expect(describeWait(s)).toBe(text));
});

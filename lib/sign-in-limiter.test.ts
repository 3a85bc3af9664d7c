import { describe, expect, it } from 'vitest';
import { describeWait, SignInLimiter } from './sign-in-limiter';

function limiter() {
  let now = 1_000_000;
  const l = new SignInLimiter({ windowMs: 60_000, maxFailuresPerEmail: 3, maxFailuresPerIp: 5, now: () => now });
  return { l, advance: (ms: number) => (now += ms) };
}

describe('SignInLimiter', () => {
  it('allows attempts below the per-email limit and blocks at it', () => {
    const { l } = limiter();
    for (let i = 0; i < 2; i++) l.recordFailure('a@example.test', '10.0.0.1');
    expect(l.check('a@example.test', '10.0.0.1')).toEqual({ ok: true });
    l.recordFailure('A@Example.test ', '10.0.0.1');
    expect(l.check('a@example.test', '10.0.0.2')).toEqual({ ok: false, code: 'too_many_attempts', retryAfterSeconds: 60 });
    // Another account from the same address is still allowed (address limit is 5).
    expect(l.check('b@example.test', '10.0.0.1').ok).toBe(true);
  });

  it('reopens when the oldest failure leaves the window and reports the wait', () => {
    const { l, advance } = limiter();
    l.recordFailure('a@example.test', 'ip');
    advance(20_000);
    l.recordFailure('a@example.test', 'ip');
    l.recordFailure('a@example.test', 'ip');
    expect(l.check('a@example.test', 'ip')).toMatchObject({ ok: false, retryAfterSeconds: 40 });
    advance(40_001);
    expect(l.check('a@example.test', 'ip').ok).toBe(true);
  });

  it('blocks an address that guesses across many emails', () => {
    const { l } = limiter();
    for (let i = 0; i < 5; i++) l.recordFailure(`user${i}@example.test`, '10.9.9.9');
    expect(l.check('fresh@example.test', '10.9.9.9').ok).toBe(false);
    expect(l.check('fresh@example.test', '10.9.9.8').ok).toBe(true);
  });

  it('a success clears the email count but not the address count', () => {
    const { l } = limiter();
    for (let i = 0; i < 2; i++) l.recordFailure('a@example.test', 'ip');
    l.recordSuccess('a@example.test');
    l.recordFailure('a@example.test', 'ip');
    l.recordFailure('a@example.test', 'ip');
    expect(l.check('a@example.test', 'other').ok).toBe(true);
    for (let i = 0; i < 1; i++) l.recordFailure('c@example.test', 'ip');
    expect(l.check('z@example.test', 'ip').ok).toBe(false);
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

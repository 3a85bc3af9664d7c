import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from './memory';
import { retryAfterSeconds } from './types';

/** The sliding log written the obvious way: every allowed time kept, the window counted from scratch each call. */
function referenceLimiter() {
  const allowed = new Map<string, number[]>();
  return (id: string, limit: number, windowMs: number, at: number, count: boolean) => {
    const inWindow = (allowed.get(id) ?? []).filter((t) => t > at - windowMs);
    const pass = inWindow.length < limit;
    if (pass && count) inWindow.push(at);
    allowed.set(id, inWindow);
    const oldest = inWindow[0];
    const resetAtMs = oldest !== undefined ? oldest + windowMs : at + windowMs;
    return {
      allowed: pass,
      limit,
      remaining: Math.max(0, limit - inWindow.length),
      resetAtMs,
      retryAfterSeconds: pass ? 0 : retryAfterSeconds(resetAtMs, at),
    };
  };
}

describe('memory rate limiter', () => {
  it.each([
    { limit: 5, windowMs: 1_000, steps: 2_000 },
    { limit: 300, windowMs: 10_000, steps: 6_000 },
    { limit: 5_000, windowMs: 60_000, steps: 12_000 },
  ])(
    'agrees with the plain sliding log over $steps requests (limit $limit per $windowMs ms), old times cut off in bulk',
    async ({ limit, windowMs, steps }) => {
      let clock = 1_700_000_000_000;
      const limiter = createMemoryRateLimiter(() => clock);
      const reference = referenceLimiter();
      const rule = { limit, windowMs };
      let seed = 42;
      const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
      for (let i = 0; i < steps; i++) {
        // Bursts and pauses: steps of 0 to 3/limit of the window, now and then a pause longer than the window.
        clock += random() < 0.01 ? windowMs + 1 : Math.floor((random() * 3 * windowMs) / limit);
        const id = random() < 0.8 ? 'key_a' : 'key_b';
        const peek = random() < 0.1;
        const got = peek ? await limiter.peek(id, rule) : await limiter.consume(id, rule);
        expect(got, `step ${i}`).toEqual(reference(id, limit, windowMs, clock, !peek));
      }
    },
  );

  it('agrees with the plain sliding log while forgetting expired keys (60 keys, pauses longer than the window)', async () => {
    let clock = 1_700_000_000_000;
    const limiter = createMemoryRateLimiter(() => clock);
    const reference = referenceLimiter();
    const rule = { limit: 4, windowMs: 1_000 };
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) {
      clock += random() < 0.005 ? 1_500 : Math.floor(random() * 40);
      const id = `key_${Math.floor(random() * 60)}`;
      const peek = random() < 0.1;
      const got = peek ? await limiter.peek(id, rule) : await limiter.consume(id, rule);
      expect(got, `step ${i}`).toEqual(reference(id, rule.limit, rule.windowMs, clock, !peek));
    }
  });

  it('keeps logs only for keys active in their window: a new key per request does not grow it without bound', async () => {
    let clock = 1_700_000_000_000;
    const limiter = createMemoryRateLimiter(() => clock);
    const rule = { limit: 300, windowMs: 1_000 };
    for (let i = 0; i < 100_000; i++) {
      clock += 1;
      await limiter.consume(`public:addr-${i}`, rule);
    }
    // 1,000 keys are inside the window at any moment; the sweep runs a little behind them.
    expect(limiter.size).toBeLessThan(2_500);
  });
});

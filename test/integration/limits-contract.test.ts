import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, createRedisRateLimiter, createUpstashRateLimiter, rateLimitHeaders, type RateLimiter } from '@/lib/limits';
import { randomBase62 } from '@/lib/platform/ids';
import { itemAt } from '@/lib/platform/arrays';
import { testDbKind } from '../support/db';
import { startUpstashRestAdapter, type UpstashRestAdapter } from '../support/upstash-rest-adapter';

/**
 * One contract for the three rate-limit backends. Redis and Upstash (through the REST adapter in front of the local
 * Redis) run in the postgres project only, where the shared services are expected; every run uses a random prefix.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const runId = randomBase62(8);
const WINDOW = 2_000;

type Factory = { name: string; shared: boolean; create: () => Promise<RateLimiter> };

let adapter: UpstashRestAdapter | undefined;
const created: RateLimiter[] = [];
afterAll(async () => {
  for (const limiter of created) await limiter.close();
  await adapter?.close();
});

const factories: Factory[] = [{ name: 'memory', shared: false, create: async () => createMemoryRateLimiter() }];
if (testDbKind() === 'postgres') {
  factories.push(
    { name: 'redis', shared: true, create: async () => createRedisRateLimiter({ url: REDIS_URL, prefix: `almanac-test:${runId}:` }) },
    {
      name: 'upstash',
      shared: true,
      create: async () => {
        adapter ??= await startUpstashRestAdapter({ redisUrl: REDIS_URL });
        return createUpstashRateLimiter({ url: adapter.url, token: adapter.token, prefix: `almanac-test-up:${runId}` });
      },
    },
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Upstash's window is two fixed buckets; starting a burst early in a bucket keeps the whole burst inside it. */
async function alignToWindowStart() {
  const into = Date.now() % WINDOW;
  if (into > WINDOW / 5) await sleep(WINDOW - into + 10);
}

describe.each(factories)('rate limiter contract: $name', (factory) => {
  const limiterP = factory.create().then((l) => (created.push(l), l));
  const id = () => `key_${randomBase62(12)}`;

  it('lets exactly the limit through, then denies with a whole-second Retry-After', async () => {
    const limiter = await limiterP;
    const key = id();
    const rule = { limit: 5, windowMs: WINDOW };
    await alignToWindowStart();
    const before = Date.now();
    const states = [];
    for (let i = 0; i < 6; i++) states.push(await limiter.consume(key, rule));
    expect(states.slice(0, 5).map((s) => s.allowed)).toEqual([true, true, true, true, true]);
    expect(states.slice(0, 5).map((s) => s.remaining)).toEqual([4, 3, 2, 1, 0]);
    const denied = itemAt(states, 5);
    expect(denied.allowed).toBe(false);
    expect(denied.remaining).toBe(0);
    expect(Number.isInteger(denied.retryAfterSeconds)).toBe(true);
    expect(denied.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(denied.retryAfterSeconds).toBeLessThanOrEqual(Math.ceil(WINDOW / 1000));
    expect(denied.resetAtMs).toBeGreaterThan(before);
    expect(denied.resetAtMs).toBeLessThanOrEqual(Date.now() + WINDOW + 50);
    const headers = rateLimitHeaders(denied);
    expect(headers['X-RateLimit-Limit']).toBe('5');
    expect(headers['X-RateLimit-Remaining']).toBe('0');
    expect(Number(headers['X-RateLimit-Reset'])).toBe(Math.ceil(denied.resetAtMs / 1000));
  });

  it('peek counts nothing', async () => {
    const limiter = await limiterP;
    const key = id();
    const rule = { limit: 3, windowMs: WINDOW };
    await alignToWindowStart();
    for (let i = 0; i < 5; i++) expect((await limiter.peek(key, rule)).remaining).toBe(3);
    for (let i = 0; i < 3; i++) expect((await limiter.consume(key, rule)).allowed).toBe(true);
    const peeked = await limiter.peek(key, rule);
    expect(peeked.remaining).toBe(0);
    expect(peeked.allowed).toBe(false);
  });

  it('slides: requests pass again once the window has moved past them', async () => {
    const limiter = await limiterP;
    const key = id();
    const rule = { limit: 4, windowMs: WINDOW };
    await alignToWindowStart();
    for (let i = 0; i < 4; i++) await limiter.consume(key, rule);
    expect((await limiter.consume(key, rule)).allowed).toBe(false);
    await sleep(WINDOW + 150);
    expect((await limiter.consume(key, rule)).allowed).toBe(true);
    if (limiter.exact) {
      // An exact log forgets all four old requests: three more pass, the fifth in this window does not.
      const more = [];
      for (let i = 0; i < 4; i++) more.push((await limiter.consume(key, rule)).allowed);
      expect(more).toEqual([true, true, true, false]);
    }
  });

  it('keeps keys apart', async () => {
    const limiter = await limiterP;
    const [a, b] = [id(), id()];
    const rule = { limit: 2, windowMs: WINDOW };
    await alignToWindowStart();
    await limiter.consume(a, rule);
    await limiter.consume(a, rule);
    expect((await limiter.consume(a, rule)).allowed).toBe(false);
    expect((await limiter.consume(b, rule)).allowed).toBe(true);
  });

  it('is exact under concurrency: 60 simultaneous requests, limit 20, exactly 20 pass', async () => {
    const limiter = await limiterP;
    const key = id();
    const rule = { limit: 20, windowMs: 10_000 };
    const results = await Promise.all(Array.from({ length: 60 }, () => limiter.consume(key, rule)));
    expect(results.filter((r) => r.allowed)).toHaveLength(20);
  });

  it.runIf(factory.shared)('is shared by two limiter instances (two app instances)', async () => {
    const first = await limiterP;
    const second = await factory.create();
    created.push(second);
    const key = id();
    const rule = { limit: 10, windowMs: 10_000 };
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? first : second).consume(key, rule)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect((await second.peek(key, rule)).remaining).toBe(0);
  });
});

describe('when the limit store is unreachable', () => {
  it('fails open (the cap, metered in the database, still holds) instead of failing every request', async () => {
    const limiter = createRedisRateLimiter({ url: 'redis://127.0.0.1:1', prefix: `almanac-test-down:${runId}:` });
    created.push(limiter);
    const state = await limiter.consume('key_down', { limit: 1, windowMs: WINDOW });
    expect(state.allowed).toBe(true);
    expect(state.limit).toBe(1);
  });
});

describe.runIf(testDbKind() === 'postgres')('upstash adapter', () => {
  it('really carried the Upstash traffic', async () => {
    expect(adapter).toBeDefined();
    expect(adapter!.commandCount()).toBeGreaterThan(10);
  });
});

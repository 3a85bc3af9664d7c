import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, createRedisRateLimiter, probeRateLimiter } from '@/lib/limits';

/** The health check's view of the limiter (docs/api.md §2.11): a store that cannot be reached is reported, not hidden. */
describe('probeRateLimiter', () => {
  const reachable = createRedisRateLimiter({ url: 'redis://127.0.0.1:6379', prefix: `test:probe:${process.pid}:` });
  // Nothing listens on this port: every call fails open.
  const unreachable = createRedisRateLimiter({ url: 'redis://127.0.0.1:6399', prefix: 'test:probe:' });
  afterAll(async () => {
    await reachable.close();
    await unreachable.close();
  });

  it('is true for a store that answers and for the in-process limiter, false for a store that cannot be reached', async () => {
    expect(await probeRateLimiter(reachable)).toBe(true);
    expect(await probeRateLimiter(createMemoryRateLimiter())).toBe(true);
    expect(await probeRateLimiter(unreachable)).toBe(false);
  });
});

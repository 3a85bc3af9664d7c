import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryRateLimiter, type RateLimiter } from '@/lib/limits';
import { resetEnvForTesting } from '@/lib/platform/env';
import { type ApiError } from '@/lib/platform/errors';
import { PEER_HEADER } from '@/lib/platform/peer-header.mjs';
import { replaceProcessSingleton } from '@/lib/platform/singleton';
import { admitPublicRequest, forgetPublicRefusals } from './public-limit';

/** A refused address is answered from memory until the limiter's reset, with the same headers, and counted again after. */
describe('admitPublicRequest: remembered refusals', () => {
  const saved = { ...process.env };
  let consumed = 0;

  beforeAll(() => {
    Object.assign(process.env, { ALMANAC_LISTEN_URL: 'http://127.0.0.1:3000', PUBLIC_RATE_LIMIT_PER_MINUTE: '2' });
    resetEnvForTesting();
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date'] });
    const memory = createMemoryRateLimiter();
    const counting: RateLimiter = { ...memory, kind: memory.kind, exact: memory.exact, consume: (id, rule) => (consumed++, memory.consume(id, rule)) };
    replaceProcessSingleton('rate-limiter', counting);
    forgetPublicRefusals();
  });
  afterAll(() => {
    vi.useRealTimers();
    replaceProcessSingleton('rate-limiter', undefined);
    forgetPublicRefusals();
    process.env = saved;
    resetEnvForTesting();
  });

  const from = (address: string) => new Headers({ [PEER_HEADER]: address });
  const refusal = (address: string) =>
    admitPublicRequest(from(address)).then(
      () => null,
      (error: unknown) => error as ApiError,
    );

  it('answers a refused address without the limiter until its slot frees', async () => {
    await admitPublicRequest(from('192.0.2.10'));
    await admitPublicRequest(from('192.0.2.10'));
    const first = await refusal('192.0.2.10');
    expect(first?.code).toBe('rate_limit_exceeded');
    expect(consumed).toBe(3);

    vi.setSystemTime(1_000_000 + 30_000);
    const again = await refusal('192.0.2.10');
    expect(again?.code).toBe('rate_limit_exceeded');
    expect(consumed).toBe(3); // from memory
    expect(again?.headers?.['Retry-After']).toBe('30');
    expect(again?.headers?.['X-RateLimit-Remaining']).toBe('0');

    // Another address is not affected.
    await expect(admitPublicRequest(from('192.0.2.11'))).resolves.toMatchObject({ 'X-RateLimit-Remaining': '1' });

    // Once the oldest request leaves the window, the limiter decides again (and allows).
    vi.setSystemTime(1_000_000 + 60_001);
    await expect(admitPublicRequest(from('192.0.2.10'))).resolves.toMatchObject({ 'X-RateLimit-Limit': '2' });
    expect(consumed).toBe(5);
  });
});

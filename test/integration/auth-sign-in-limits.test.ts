import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { attemptPasswordSignIn, getAuthOptions, registerUser, signUpWithVerification } from '@/lib/accounts';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from '@/lib/limits';
import { resetEnvForTesting } from '@/lib/platform/env';
import { PEER_HEADER } from '@/lib/platform/peer-header.mjs';
import { randomBase62 } from '@/lib/platform/ids';
import { replaceProcessSingleton } from '@/lib/platform/singleton';
import { createTestDatabase, testDbKind } from '../support/db';

/**
 * Sign-in and sign-up limits through the real paths (next-auth's credentials `authorize`, and the function the sign-in
 * form's server action calls), against real users and the configured limiter. Each attempt is counted before its
 * password is checked, so a burst of concurrent guesses gets exactly the limit's worth of checks; the count is per
 * account AND address, so a stranger elsewhere cannot lock the owner out. Redis runs in the postgres project only.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'the owner’s long password';

const backends: { name: string; create: () => RateLimiter }[] = [{ name: 'memory', create: () => createMemoryRateLimiter() }];
if (testDbKind() === 'postgres') {
  backends.push({ name: 'redis', create: () => createRedisRateLimiter({ url: REDIS_URL, prefix: `almanac-test:signin:${randomBase62(8)}:` }) });
}

let db: Awaited<ReturnType<typeof createTestDatabase>>['db'];
beforeAll(async () => {
  ({ db } = await createTestDatabase({ seed: false }));
  // Requests come through `npm start`'s front server, which stamps the socket's address (lib/platform/client-address.ts).
  vi.stubEnv('ALMANAC_LISTEN_URL', 'http://127.0.0.1:3000');
  vi.stubEnv('TRUSTED_PROXIES', '');
  resetEnvForTesting();
});
afterAll(() => {
  vi.unstubAllEnvs();
  resetEnvForTesting();
  replaceProcessSingleton('rate-limiter', undefined);
});

async function newOwner(): Promise<string> {
  const email = `owner-${randomBase62(10).toLowerCase()}@example.test`;
  const result = await registerUser(db, { email, password: PASSWORD });
  if (!result.ok) throw new Error(result.code);
  return email;
}

/** next-auth's credentials provider, as POST /api/auth/callback/credentials runs it. */
function authorize(email: string, password: string, headers: Record<string, string>) {
  const provider = getAuthOptions().providers.find((p) => p.id === 'credentials') as unknown as {
    options: { authorize(credentials: Record<string, string>, req: { headers: Record<string, string> }): Promise<unknown> };
  };
  return provider.options.authorize({ email, password }, { headers });
}

describe.each(backends)('sign-in limits on the $name limiter', (backend) => {
  let limiter: RateLimiter;
  beforeAll(() => {
    limiter = backend.create();
    replaceProcessSingleton('rate-limiter', limiter);
  });
  afterAll(async () => {
    await limiter.close();
  });

  it('200 concurrent wrong passwords for one account through authorize: exactly 5 are checked, 195 refused unchecked', async () => {
    const email = await newOwner();
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        authorize(email, `wrong guess ${i}`, { [PEER_HEADER]: '203.0.113.5', 'x-forwarded-for': `198.51.100.${i % 250}` }).then(
          (user) => (user === null ? 'checked' : 'signed in'),
          (error: Error) => (error.message.startsWith('TooManyAttempts:') ? 'refused' : error.message),
        ),
      ),
    );
    // `checked` is the only outcome that ran argon2 on the password: the gate had already counted it.
    expect(outcomes.filter((o) => o === 'checked')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'refused')).toHaveLength(195);
    // The right password from the attacker's address waits too, and is not checked.
    expect(await attemptPasswordSignIn(email, PASSWORD, '203.0.113.5')).toMatchObject({ ok: false, code: 'too_many_attempts' });
  });

  it('a stranger’s wrong passwords do not lock the owner out at another address', async () => {
    const email = await newOwner();
    await Promise.all(Array.from({ length: 50 }, (_, i) => attemptPasswordSignIn(email, `guess ${i}`, '203.0.113.9')));
    expect(await attemptPasswordSignIn(email, PASSWORD, '203.0.113.9')).toMatchObject({ ok: false, code: 'too_many_attempts' });
    expect(await attemptPasswordSignIn(email, PASSWORD, '198.51.100.20')).toMatchObject({ ok: true, user: { email } });
  });

  it('rotating X-Forwarded-For from an untrusted peer changes nothing; faking it locks nobody else out', async () => {
    const email = await newOwner();
    for (let i = 0; i < 6; i++) await authorize(email, `guess ${i}`, { [PEER_HEADER]: '203.0.113.77', 'x-forwarded-for': `10.0.0.${i}` }).catch(() => null);
    await expect(authorize(email, PASSWORD, { [PEER_HEADER]: '203.0.113.77', 'x-forwarded-for': '10.9.9.9' })).rejects.toThrow(/^TooManyAttempts:/);
    // The victim whose address the attacker wrote into X-Forwarded-For signs in.
    expect(await authorize(email, PASSWORD, { [PEER_HEADER]: '10.0.0.1' })).toMatchObject({ email });
  });

  it('one address cannot spray guesses over many accounts', async () => {
    const owners = await Promise.all(Array.from({ length: 8 }, () => newOwner()));
    const results = [];
    // Five per account stays under each account's limit; the address's own ceiling (30 a minute) stops the spray.
    for (const email of owners) for (let i = 0; i < 5; i++) results.push(await attemptPasswordSignIn(email, `spray ${i}`, '203.0.113.200'));
    expect(results.filter((r) => !r.ok && r.code === 'invalid_credentials')).toHaveLength(30);
    expect(results.filter((r) => !r.ok && r.code === 'too_many_attempts')).toHaveLength(10);
    expect(await attemptPasswordSignIn(owners[7]!, PASSWORD, '198.51.100.21')).toMatchObject({ ok: true });
  });
});

describe('sign-up limit per address', () => {
  afterEach(() => {
    vi.stubEnv('SIGN_UPS_PER_ADDRESS_PER_HOUR', '');
    resetEnvForTesting();
  });

  it('refuses sign-ups from an address over its hourly limit before hashing, and counts each address apart', async () => {
    replaceProcessSingleton('rate-limiter', createMemoryRateLimiter());
    vi.stubEnv('SIGN_UPS_PER_ADDRESS_PER_HOUR', '3');
    resetEnvForTesting();
    const signUp = (address: string) =>
      signUpWithVerification(db, { email: `new-${randomBase62(10).toLowerCase()}@example.test`, password: PASSWORD }, address);
    const burst = await Promise.all(Array.from({ length: 10 }, () => signUp('203.0.113.50')));
    expect(burst.filter((r) => r.ok)).toHaveLength(3);
    expect(burst.filter((r) => !r.ok && r.code === 'too_many_attempts')).toHaveLength(7);
    expect((await signUp('198.51.100.50')).ok).toBe(true);
  });
});

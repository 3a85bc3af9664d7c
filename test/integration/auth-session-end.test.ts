import { eq, sql } from 'drizzle-orm';
import { getServerSession } from 'next-auth';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '@/db/schema';
import { encodeSessionToken, getAuthOptions, registerUser, sessionCookie, type UserView } from '@/lib/accounts';
import { endAllSessions, VERSION_CACHE_MS } from '@/lib/accounts/session-version';
import { randomBase62 } from '@/lib/platform/ids';
import { createTestDatabase } from '../support/db';

/**
 * A session cookie stops working once its user signs out, including copies of it. The session is
 * read the way every page reads it: next-auth's getServerSession, with the cookie.
 */
let db: Awaited<ReturnType<typeof createTestDatabase>>['db'];
beforeAll(async () => {
  ({ db } = await createTestDatabase({ seed: false }));
});
afterEach(() => {
  vi.useRealTimers();
});

async function newUser(): Promise<UserView> {
  const result = await registerUser(db, { email: `s-${randomBase62(10).toLowerCase()}@example.test`, password: 'a long enough password' });
  if (!result.ok) throw new Error(result.code);
  return result.user;
}

/** The session next-auth reads from a request carrying `token` as its session cookie ({} for none). */
async function readSession(token: string): Promise<{ user?: { id: string } }> {
  const req = { headers: {}, cookies: { [sessionCookie().name]: token } };
  const res = { getHeader: () => undefined, setHeader: () => undefined, setCookie: () => undefined };
  const session = await getServerSession(req as never, res as never, getAuthOptions());
  return session ?? {};
}

describe('ending sessions', () => {
  it('a copied session cookie stops working when its owner signs out', async () => {
    const user = await newUser();
    const copied = await encodeSessionToken(user);
    expect((await readSession(copied)).user?.id).toBe(user.id);

    await endAllSessions(user.id); // what the sign-out button does (endSession)
    expect(await readSession(copied)).toEqual({});
    // A new sign-in works, and its token survives the old one's refusal.
    const fresh = await encodeSessionToken(user);
    expect((await readSession(fresh)).user?.id).toBe(user.id);
    expect(await readSession(copied)).toEqual({});
  });

  it('ends every session of the user, and only that user’s', async () => {
    const [owner, other] = [await newUser(), await newUser()];
    const laptop = await encodeSessionToken(owner);
    const phone = await encodeSessionToken(owner);
    const others = await encodeSessionToken(other);
    await endAllSessions(owner.id);
    expect(await readSession(laptop)).toEqual({});
    expect(await readSession(phone)).toEqual({});
    expect((await readSession(others)).user?.id).toBe(other.id);
  });

  it(`a sign-out on another instance takes effect here within ${VERSION_CACHE_MS / 1000} s (the cache bound)`, async () => {
    const user = await newUser();
    const token = await encodeSessionToken(user);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    expect((await readSession(token)).user?.id).toBe(user.id);
    // Another instance signs the user out: the row changes, this process's cache does not hear of it.
    await db
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, user.id));
    vi.setSystemTime(Date.now() + VERSION_CACHE_MS - 1_000);
    expect((await readSession(token)).user?.id).toBe(user.id);
    vi.setSystemTime(Date.now() + 1_001);
    expect(await readSession(token)).toEqual({});
  });

  it('refuses the token of a deleted user', async () => {
    const user = await newUser();
    const token = await encodeSessionToken(user);
    await db.delete(users).where(eq(users.id, user.id));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + VERSION_CACHE_MS });
    expect(await readSession(token)).toEqual({});
  });
});

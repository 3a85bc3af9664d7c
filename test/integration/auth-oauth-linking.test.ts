import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/db/client';
import { oauthAccounts, users } from '@/db/schema';
import { registerUser, signInWithOAuth, verifyCredentials, type OAuthIdentity } from '@/lib/accounts/users';
import { createTestDatabase } from '@/test/support/db';

/** The linking rule of lib/accounts/users.ts `signInWithOAuth`, on each database engine. */

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});

let counter = 0;
function gitHubIdentity(email: string, emailVerified: boolean, overrides: Partial<OAuthIdentity> = {}): OAuthIdentity {
  counter += 1;
  return { provider: 'github', providerAccountId: String(9000 + counter), email, emailVerified, name: `GitHub ${counter}`, ...overrides };
}

async function usersWithEmail(email: string) {
  return handle.db.select().from(users).where(eq(users.email, email));
}

async function linksOf(identity: OAuthIdentity) {
  return handle.db.select().from(oauthAccounts).where(eq(oauthAccounts.providerAccountId, identity.providerAccountId));
}

describe('signInWithOAuth', () => {
  it('creates a password-less user for a new verified email, and signs the same identity in to it again', async () => {
    const identity = gitHubIdentity('New.Person@Example.test', true, { name: 'New Person', image: 'https://avatars.example.test/1' });
    const first = await signInWithOAuth(handle.db, identity);
    expect(first).toMatchObject({ ok: true, outcome: 'created', user: { email: 'new.person@example.test', name: 'New Person' } });
    if (!first.ok) throw new Error('unreachable');
    expect(first.user.id).toMatch(/^usr_/);

    const again = await signInWithOAuth(handle.db, identity);
    expect(again).toEqual({ ok: true, outcome: 'returning', user: first.user });

    const [row] = await usersWithEmail('new.person@example.test');
    expect(row).toMatchObject({ id: first.user.id, passwordHash: null, image: 'https://avatars.example.test/1' });
    expect(await linksOf(identity)).toMatchObject([{ userId: first.user.id, provider: 'github' }]);
    expect(await verifyCredentials(handle.db, 'new.person@example.test', 'any password at all')).toBeNull();
  });

  it('links a verified email to the existing, confirmed password account instead of making a second one; the password still works', async () => {
    const registered = await registerUser(handle.db, { email: 'ada@example.test', password: 'correct horse battery', name: 'Ada' });
    if (!registered.ok) throw new Error('setup failed');
    // Only an account whose own address is confirmed is linked (docs/api.md §11.3; accounts-recovery.test.ts has the refusal).
    expect(await signInWithOAuth(handle.db, gitHubIdentity('ada@example.test', true))).toEqual({ ok: false, code: 'account_unverified' });
    await handle.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, registered.user.id));
    const identity = gitHubIdentity('ADA@example.test', true);

    expect(await signInWithOAuth(handle.db, identity)).toEqual({ ok: true, outcome: 'linked', user: registered.user });
    expect(await signInWithOAuth(handle.db, identity)).toEqual({ ok: true, outcome: 'returning', user: registered.user });
    expect(await usersWithEmail('ada@example.test')).toHaveLength(1);
    expect(await linksOf(identity)).toHaveLength(1);
    expect(await verifyCredentials(handle.db, 'ada@example.test', 'correct horse battery')).toEqual(registered.user);

    // Another provider with the same verified address joins the same account.
    const google = await signInWithOAuth(handle.db, { provider: 'google', providerAccountId: 'g-ada', email: 'ada@example.test', emailVerified: true });
    expect(google).toEqual({ ok: true, outcome: 'linked', user: registered.user });
  });

  it('refuses an unverified email that matches an existing account, and links nothing', async () => {
    const registered = await registerUser(handle.db, { email: 'grace@example.test', password: 'correct horse battery' });
    if (!registered.ok) throw new Error('setup failed');
    const identity = gitHubIdentity('grace@example.test', false);

    expect(await signInWithOAuth(handle.db, identity)).toEqual({ ok: false, code: 'email_not_verified' });
    expect(await linksOf(identity)).toEqual([]);
    expect(await usersWithEmail('grace@example.test')).toHaveLength(1);
  });

  it('refuses an unverified email without an account too, creating nothing', async () => {
    const identity = gitHubIdentity('unclaimed@example.test', false);
    expect(await signInWithOAuth(handle.db, identity)).toEqual({ ok: false, code: 'email_not_verified' });
    expect(await usersWithEmail('unclaimed@example.test')).toEqual([]);
    expect(await linksOf(identity)).toEqual([]);
  });

  it.each([null, undefined, '', 'not an email'])('refuses a missing or malformed email (%j)', async (email) => {
    expect(await signInWithOAuth(handle.db, gitHubIdentity('placeholder@example.test', true, { email }))).toEqual({ ok: false, code: 'email_missing' });
  });

  it('signs a linked identity in by its provider id even when its email is no longer verified or has changed', async () => {
    const identity = gitHubIdentity('mover@example.test', true);
    const first = await signInWithOAuth(handle.db, identity);
    if (!first.ok) throw new Error('setup failed');
    const later = await signInWithOAuth(handle.db, { ...identity, email: 'moved@example.test', emailVerified: false });
    expect(later).toEqual({ ok: true, outcome: 'returning', user: first.user });
    expect(await usersWithEmail('moved@example.test')).toEqual([]);
  });

  it('ends two simultaneous first sign-ins of one identity on one user with one link', async () => {
    const identity = gitHubIdentity('twice@example.test', true);
    const results = await Promise.all([signInWithOAuth(handle.db, identity), signInWithOAuth(handle.db, identity)]);
    const ids = results.map((r) => (r.ok ? r.user.id : r.code));
    expect(ids[0]).toMatch(/^usr_/);
    expect(ids[1]).toBe(ids[0]);
    expect(await usersWithEmail('twice@example.test')).toHaveLength(1);
    expect(await linksOf(identity)).toHaveLength(1);
  });
});

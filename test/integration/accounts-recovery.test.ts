import { and, eq, sql } from 'drizzle-orm';
import { getServerSession } from 'next-auth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accountTokens, apiKeys, auditLog, earnings, knowledgeBases, oauthAccounts, publishers, subscriptions, users } from '@/db/schema';
import type { Database } from '@/db/client';
import {
  changePassword,
  confirmEmail,
  encodeSessionToken,
  getAuthOptions,
  requestPasswordReset,
  requireVerifiedEmail,
  resendVerification,
  resetPassword,
  sessionCookie,
  signInWithOAuth,
  signUpWithVerification,
  verifyCredentials,
} from '@/lib/accounts';
import { CLOSED_PUBLISHER_REASON, completeTestPurchase, deleteAccount } from '@/lib/billing';
import { createStripeClient } from '@/lib/billing/stripe';
import { getPublisher } from '@/lib/catalog';
import { createMemoryRateLimiter } from '@/lib/limits';
import { restorePublisher } from '@/lib/publishing';
import { newId, randomBase62 } from '@/lib/platform/ids';
import { listOutbox } from '@/lib/platform/mail';
import { replaceProcessSingleton } from '@/lib/platform/singleton';
import { createTestDatabase } from '../support/db';
import { buildSubscription, startFakeStripe } from '../support/fake-stripe';
import { createCatalogFixture } from './subscriptions-fixtures';

/**
 * Accounts that recover (docs/api.md §11.3), on real databases: verification and reset links are single use and expire,
 * a reset signs every session out, sign-up and reset answers do not tell whether an address has an account, an
 * unconfirmed account cannot buy, OAuth does not link to an unconfirmed account, deletion keeps the ledgers.
 */

let db: Database;
const PASSWORD = 'a long and unusual passphrase';
const ADDRESS = '203.0.113.7';

beforeAll(async () => {
  db = (await createTestDatabase()).db;
});

beforeEach(() => {
  replaceProcessSingleton('rate-limiter', createMemoryRateLimiter());
});

const newEmail = () => `acct-${randomBase62(10).toLowerCase()}@example.test`;

/** The newest message to `email`, and the single-use token in its link. */
async function lastMail(email: string): Promise<{ subject: string; text: string; token: string | null }> {
  const [message] = await listOutbox(db, { to: email, limit: 1 });
  if (!message) throw new Error(`no mail to ${email}`);
  return { subject: message.subject, text: message.text, token: /token=([0-9A-Za-z]{32})/.exec(message.text)?.[1] ?? null };
}

async function signUp(email = newEmail()): Promise<{ email: string; userId: string; token: string }> {
  const result = await signUpWithVerification(db, { email, password: PASSWORD }, ADDRESS);
  expect(result).toEqual({ ok: true, email });
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  const mail = await lastMail(email);
  expect(mail.subject).toBe('Confirm your email address — Almanac');
  return { email, userId: row!.id, token: mail.token! };
}

async function readSession(token: string): Promise<{ user?: { id: string } }> {
  const req = { headers: {}, cookies: { [sessionCookie().name]: token } };
  const res = { getHeader: () => undefined, setHeader: () => undefined, setCookie: () => undefined };
  return (await getServerSession(req as never, res as never, getAuthOptions())) ?? {};
}

describe('sign-up and email verification', () => {
  it('a new account is unconfirmed and cannot buy; its link confirms it once; a second use and another purpose fail', async () => {
    const { userId, token } = await signUp();
    expect(await requireVerifiedEmail(db, userId)).toEqual({ ok: false, code: 'email_unverified' });
    // The link's token is stored only as its hash.
    const stored = await db.select({ hash: accountTokens.tokenHash }).from(accountTokens).where(eq(accountTokens.userId, userId));
    expect(stored.map((r) => r.hash)).not.toContain(token);
    expect(stored[0]!.hash).toMatch(/^[0-9a-f]{64}$/);

    expect(await resetPassword(db, token, 'another long passphrase')).toEqual({ ok: false, code: 'invalid_link' });
    const confirmed = await confirmEmail(db, token);
    expect(confirmed).toMatchObject({ ok: true, user: { id: userId } });
    expect(await requireVerifiedEmail(db, userId)).toEqual({ ok: true });
    expect(await confirmEmail(db, token)).toEqual({ ok: false, code: 'invalid_link' });
  });

  it('concurrent uses of one link: exactly one succeeds', async () => {
    const { token } = await signUp();
    const results = await Promise.all(Array.from({ length: 5 }, () => confirmEmail(db, token)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it('an expired link (24 h) and a superseded one (a newer link was sent) do not work', async () => {
    const { email, userId, token } = await signUp();
    await db
      .update(accountTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(accountTokens.userId, userId));
    expect(await confirmEmail(db, token)).toEqual({ ok: false, code: 'invalid_link' });
    expect(await resendVerification(db, { id: userId, email }, ADDRESS)).toEqual({ ok: true, alreadyVerified: false });
    const first = (await lastMail(email)).token!;
    await resendVerification(db, { id: userId, email }, ADDRESS);
    const second = (await lastMail(email)).token!;
    expect(await confirmEmail(db, first)).toEqual({ ok: false, code: 'invalid_link' });
    expect((await confirmEmail(db, second)).ok).toBe(true);
    const [row] = await db
      .select({ expires: accountTokens.expiresAt, created: accountTokens.createdAt })
      .from(accountTokens)
      .where(eq(accountTokens.userId, userId))
      .orderBy(sql`created_at desc`)
      .limit(1);
    expect(row!.expires.getTime() - row!.created.getTime()).toBeCloseTo(24 * 3600_000, -4);
  });

  it('signing up with a taken address answers the same, creates nothing, and tells the owner by email', async () => {
    const { email, token } = await signUp();
    await confirmEmail(db, token);
    const again = await signUpWithVerification(db, { email, password: 'someone else entirely' }, ADDRESS);
    expect(again).toEqual({ ok: true, email });
    expect((await lastMail(email)).subject).toBe('Someone tried to create an Almanac account with your address');
    expect(await verifyCredentials(db, email, 'someone else entirely')).toBeNull();
    expect(await verifyCredentials(db, email, PASSWORD)).not.toBeNull();
  });

  it.each(['password123', 'Password123', 'qwertyuiop', 'short'])('refuses the password %s', async (password) => {
    const result = await signUpWithVerification(db, { email: newEmail(), password }, ADDRESS);
    expect(result).toMatchObject({ ok: false, code: 'invalid_input', fieldErrors: { password: expect.any(String) } });
  });

  it('an unconfirmed account cannot buy (the gate) and a confirmed one can', async () => {
    const fixture = await createCatalogFixture(db);
    const { userId, token } = await signUp();
    expect((await requireVerifiedEmail(db, userId)).ok).toBe(false);
    await confirmEmail(db, token);
    expect((await requireVerifiedEmail(db, userId)).ok).toBe(true);
    expect((await completeTestPurchase(db, { userId, planId: fixture.plans.starter }, { stripeConfigured: false })).ok).toBe(true);
  });
});

describe('OAuth linking', () => {
  it('does not link a provider identity to an unconfirmed account with the same address; does once it is confirmed', async () => {
    const { email, userId, token } = await signUp();
    const identity = { provider: 'github', providerAccountId: randomBase62(8), email, emailVerified: true };
    expect(await signInWithOAuth(db, identity)).toEqual({ ok: false, code: 'account_unverified' });
    expect(await db.select().from(oauthAccounts).where(eq(oauthAccounts.userId, userId))).toEqual([]);
    await confirmEmail(db, token);
    expect(await signInWithOAuth(db, identity)).toMatchObject({ ok: true, outcome: 'linked', user: { id: userId } });
  });

  it('an account created through a provider with a verified address is confirmed', async () => {
    const email = newEmail();
    const created = await signInWithOAuth(db, { provider: 'google', providerAccountId: randomBase62(8), email, emailVerified: true });
    expect(created).toMatchObject({ ok: true, outcome: 'created' });
    expect((await requireVerifiedEmail(db, created.ok ? created.user.id : '')).ok).toBe(true);
  });
});

describe('password reset', () => {
  it('answers the same for an unknown address and sends nothing to it', async () => {
    const unknown = newEmail();
    expect(await requestPasswordReset(db, unknown, ADDRESS)).toEqual({ ok: true });
    expect(await listOutbox(db, { to: unknown })).toEqual([]);
  });

  it('a reset link works once, within 1 hour, sets the password, signs out every session and proves the address', async () => {
    const { email, userId } = await signUp();
    const user = { id: userId, email, name: null };
    const cookie = await encodeSessionToken(user);
    expect((await readSession(cookie)).user?.id).toBe(userId);

    expect(await requestPasswordReset(db, email.toUpperCase(), ADDRESS)).toEqual({ ok: true });
    const mail = await lastMail(email);
    expect(mail.subject).toBe('Reset your Almanac password');
    const [row] = await db
      .select({ expires: accountTokens.expiresAt, created: accountTokens.createdAt })
      .from(accountTokens)
      .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, 'reset_password')));
    expect(row!.expires.getTime() - row!.created.getTime()).toBeCloseTo(3600_000, -4);

    expect(await resetPassword(db, mail.token!, 'password123')).toMatchObject({ ok: false, code: 'invalid_input' });
    expect((await resetPassword(db, mail.token!, 'a brand new passphrase')).ok).toBe(true);
    expect(await resetPassword(db, mail.token!, 'yet another passphrase')).toEqual({ ok: false, code: 'invalid_link' });
    expect(await verifyCredentials(db, email, 'a brand new passphrase')).not.toBeNull();
    expect(await verifyCredentials(db, email, PASSWORD)).toBeNull();
    // Every session issued before the reset is over.
    expect((await readSession(cookie)).user).toBeUndefined();
    expect((await requireVerifiedEmail(db, userId)).ok).toBe(true);
  });

  it('an expired reset link does not work', async () => {
    const { email, userId } = await signUp();
    await requestPasswordReset(db, email, ADDRESS);
    const { token } = await lastMail(email);
    await db
      .update(accountTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(accountTokens.userId, userId));
    expect(await resetPassword(db, token!, 'a brand new passphrase')).toEqual({ ok: false, code: 'invalid_link' });
  });

  it('reset requests are limited per account the same way whether or not it exists', async () => {
    for (const email of [(await signUp()).email, newEmail()]) {
      const answers = [];
      for (let i = 0; i < 4; i += 1) answers.push(await requestPasswordReset(db, email, ADDRESS));
      expect(answers.map((a) => a.ok)).toEqual([true, true, true, false]);
    }
  });
});

describe('password change and account deletion', () => {
  it('a change needs the current password and ends the other sessions', async () => {
    const { email, userId } = await signUp();
    const cookie = await encodeSessionToken({ id: userId, email, name: null });
    expect(await changePassword(db, { userId, currentPassword: 'wrong one entirely', password: 'a brand new passphrase' }, ADDRESS)).toMatchObject({
      ok: false,
      fieldErrors: { currentPassword: expect.any(String) },
    });
    expect((await changePassword(db, { userId, currentPassword: PASSWORD, password: 'a brand new passphrase' }, ADDRESS)).ok).toBe(true);
    expect((await readSession(cookie)).user).toBeUndefined();
  });

  it('deletion revokes keys, ends subscriptions, removes personal data and keeps the rows that refer to the user', async () => {
    const fixture = await createCatalogFixture(db);
    const { email, userId, token } = await signUp();
    await confirmEmail(db, token);
    const bought = await completeTestPurchase(db, { userId, planId: fixture.plans.starter }, { stripeConfigured: false });
    expect(bought.ok).toBe(true);

    expect(await deleteAccount(db, { userId, confirmEmail: 'someone@else.test', password: PASSWORD }, null)).toMatchObject({
      ok: false,
      code: 'confirmation_mismatch',
    });
    expect(await deleteAccount(db, { userId, confirmEmail: email, password: 'not the password' }, null)).toMatchObject({ ok: false, code: 'wrong_password' });
    expect(await deleteAccount(db, { userId, confirmEmail: email, password: PASSWORD }, null)).toEqual({ ok: true });

    const [user] = await db.select().from(users).where(eq(users.id, userId));
    expect(user).toMatchObject({ name: null, passwordHash: null, image: null, emailVerifiedAt: null });
    expect(user!.email).not.toContain(email.split('@')[0]!);
    expect(user!.deletedAt).toBeInstanceOf(Date);
    const keys = await db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.userId, userId));
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.revokedAt !== null)).toBe(true);
    const subs = await db.select({ status: subscriptions.status }).from(subscriptions).where(eq(subscriptions.userId, userId));
    expect(subs.map((s) => s.status)).toEqual(['cancelled']);
    expect(await listOutbox(db, { to: email })).toEqual([]);
    expect(await verifyCredentials(db, email, PASSWORD)).toBeNull();
    const audit = await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, userId));
    expect(audit.map((a) => a.action)).toContain('user.delete');
    // The address is free again.
    expect((await signUpWithVerification(db, { email, password: PASSWORD }, ADDRESS)).ok).toBe(true);
  });

  it('deleting an account that publishes closes its publisher: listings unpublished, buyers keep their period, page gone, contact email gone, ledger kept', async () => {
    const fixture = await createCatalogFixture(db);
    const { email, userId, token } = await signUp();
    await confirmEmail(db, token);
    await db.update(publishers).set({ ownerUserId: userId, contactEmail: email }).where(eq(publishers.id, fixture.publisherId));
    const listing = (status: 'draft' | 'suspended') => ({
      id: newId('kb'),
      publisherId: fixture.publisherId,
      slug: `kb-${randomBase62(8).toLowerCase()}`,
      title: `A ${status} listing`,
      summary: 'Another listing of the publisher.',
      category: 'research' as const,
      status,
    });
    const draft = listing('draft');
    const suspended = { ...listing('suspended'), statusBeforeSuspension: 'published' as const };
    await db.insert(knowledgeBases).values([draft, suspended]);
    const buyer = await signUp();
    await confirmEmail(db, buyer.token);
    const bought = await completeTestPurchase(db, { userId: buyer.userId, planId: fixture.plans.starter }, { stripeConfigured: false });
    if (!bought.ok) throw new Error(bought.code);
    const [before] = await db.select().from(subscriptions).where(eq(subscriptions.id, bought.subscriptionId));
    const [{ slug }] = (await db.select({ slug: publishers.slug }).from(publishers).where(eq(publishers.id, fixture.publisherId))) as [{ slug: string }];
    expect(await getPublisher(slug, db)).not.toBeNull();

    expect(await deleteAccount(db, { userId, confirmEmail: email, password: PASSWORD }, null)).toEqual({ ok: true });

    const statuses = await db
      .select({ id: knowledgeBases.id, status: knowledgeBases.status, before: knowledgeBases.statusBeforeSuspension })
      .from(knowledgeBases)
      .where(eq(knowledgeBases.publisherId, fixture.publisherId));
    expect(Object.fromEntries(statuses.map((k) => [k.id, [k.status, k.before]]))).toEqual({
      [fixture.kbId]: ['unpublished', null],
      [draft.id]: ['draft', null],
      // Still suspended, and an operator's restore would bring it back unpublished, not published.
      [suspended.id]: ['suspended', 'unpublished'],
    });
    // The buyer keeps the period they paid for, which then ends; nobody can buy any more.
    const [after] = await db.select().from(subscriptions).where(eq(subscriptions.id, bought.subscriptionId));
    expect(after).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, currentPeriodEnd: before!.currentPeriodEnd });
    expect(await db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.subscriptionId, bought.subscriptionId))).toEqual([
      { revokedAt: null },
    ]);
    const third = await signUp();
    expect(await completeTestPurchase(db, { userId: third.userId, planId: fixture.plans.pro }, { stripeConfigured: false })).toMatchObject({
      ok: false,
      code: 'invalid_plan',
    });
    // The profile: hidden (its public page is gone), its contact email removed, the reason on the operator's page.
    const [profile] = await db.select().from(publishers).where(eq(publishers.id, fixture.publisherId));
    expect(profile).toMatchObject({ contactEmail: null, suspensionReason: CLOSED_PUBLISHER_REASON, ownerUserId: userId });
    expect(profile!.suspendedAt).toBeInstanceOf(Date);
    expect(await getPublisher(slug, db)).toBeNull();
    // Money records stay.
    expect(await db.select({ gross: earnings.grossCents }).from(earnings).where(eq(earnings.publisherId, fixture.publisherId))).toEqual([{ gross: 900 }]);
    const [closed] = await db
      .select({ metadata: auditLog.metadata })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'publisher.close'), eq(auditLog.targetId, fixture.publisherId)));
    expect(closed!.metadata).toMatchObject({ listingsUnpublished: [fixture.kbId], subscriptionsEnding: 1 });
    const [user] = await db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId));
    expect(user!.deletedAt).toBeInstanceOf(Date);
    // A second deletion (a retry) finds nothing to delete.
    expect(await deleteAccount(db, { userId, confirmEmail: email, password: PASSWORD }, null)).toMatchObject({ ok: false, code: 'not_found' });
    // The operator cannot bring a closed publisher back: nobody could run it.
    const operator = { kind: 'operator' as const, userId: third.userId, via: 'web' as const };
    expect(await restorePublisher(db, operator, fixture.publisherId, 'by mistake')).toMatchObject({ ok: false, code: 'conflict' });
    expect(
      (await db.select({ suspendedAt: publishers.suspendedAt }).from(publishers).where(eq(publishers.id, fixture.publisherId)))[0]!.suspendedAt,
    ).toBeInstanceOf(Date);
  });

  describe('with Stripe', () => {
    let fake: Awaited<ReturnType<typeof startFakeStripe>>;
    beforeAll(async () => {
      fake = await startFakeStripe();
    });
    afterAll(() => fake.close());

    it('a Stripe-billed subscriber of the closing publisher stops renewing at Stripe before anything is written; a Stripe refusal deletes nothing', async () => {
      const fixture = await createCatalogFixture(db);
      const { email, userId, token } = await signUp();
      await confirmEmail(db, token);
      await db.update(publishers).set({ ownerUserId: userId }).where(eq(publishers.id, fixture.publisherId));
      const buyer = await signUp();
      const bought = await completeTestPurchase(db, { userId: buyer.userId, planId: fixture.plans.starter }, { stripeConfigured: false });
      if (!bought.ok) throw new Error(bought.code);
      const now = Math.floor(Date.now() / 1000);
      const atStripe = buildSubscription({ customer: 'cus_closing', priceId: 'price_closing', start: now, end: now + 30 * 86_400 });
      fake.subscriptions.set(atStripe.id, atStripe);
      await db.update(subscriptions).set({ stripeSubscriptionId: atStripe.id }).where(eq(subscriptions.id, bought.subscriptionId));
      const stripe = createStripeClient(fake.secretKey, fake.baseUrl);
      const path = `/v1/subscriptions/${atStripe.id}`;

      fake.failNext(path, 400);
      await expect(deleteAccount(db, { userId, confirmEmail: email, password: PASSWORD }, stripe)).rejects.toThrow();
      const [kept] = await db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId));
      expect(kept!.deletedAt).toBeNull();
      const [kb] = await db.select({ status: knowledgeBases.status }).from(knowledgeBases).where(eq(knowledgeBases.id, fixture.kbId));
      expect(kb!.status).toBe('published');

      expect(await deleteAccount(db, { userId, confirmEmail: email, password: PASSWORD }, stripe)).toEqual({ ok: true });
      expect(fake.subscriptions.get(atStripe.id)!.cancel_at_period_end).toBe(true);
      expect(fake.requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.params.cancel_at_period_end)).toEqual(['true', 'true']);
      const [sub] = await db
        .select({ status: subscriptions.status, cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd })
        .from(subscriptions)
        .where(eq(subscriptions.id, bought.subscriptionId));
      expect(sub).toEqual({ status: 'active', cancelAtPeriodEnd: true });
    });
  });
});

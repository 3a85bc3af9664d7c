import { and, eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiKeys, auditLog, keyHandoffs, plans, subscriptions, users } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import { changePasswordAction, deleteAccountAction, resendVerificationAction, signOutEverywhereAction } from '@/app/account/settings/actions';
import { signUpWithVerification } from '@/lib/accounts';
import { completeTestPurchase, issueReplacementKeyForReveal } from '@/lib/billing';
import { createMemoryRateLimiter } from '@/lib/limits';
import { FORM_TOKEN_FIELD, newFormToken, onceForForm, purgeOldFormSubmissions } from '@/lib/platform/form-submissions';
import { randomBase62 } from '@/lib/platform/ids';
import { listOutbox } from '@/lib/platform/mail';
import { replaceProcessSingleton } from '@/lib/platform/singleton';
import { createTestDatabase } from '../support/db';
import { buyKey, createKnowledgeBase, createPublisher } from '../support/gateway-fixtures';
import { rememberSecret } from '../support/log-scan';

/**
 * The settings page's server actions run here as Next runs them, but for the request: the session is whoever
 * `request.user` names, and the cookie jar records what the action set (next/navigation's redirect is the real one).
 */
const request = vi.hoisted(() => ({ user: null as { id: string; email: string; name: null } | null, cookies: [] as { name: string; maxAge?: number }[] }));
vi.mock('next/headers', () => ({
  headers: async () => new Headers({ 'x-forwarded-for': '203.0.113.9' }),
  cookies: async () => ({ set: (name: string, _value: string, options?: { maxAge?: number }) => void request.cookies.push({ name, maxAge: options?.maxAge }) }),
}));
vi.mock('@/lib/accounts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/accounts')>()),
  requireSessionUser: async () => {
    if (!request.user) throw new Error('no signed-in user in this test');
    return request.user;
  },
  startSession: async () => void request.cookies.push({ name: 'new-session' }),
}));

/** A state-changing form submitted twice has one effect (docs/api.md §7.4), even when both arrive at once. */
let handle: DatabaseHandle;
let kbId: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  kbId = await createKnowledgeBase(handle.db, await createPublisher(handle.db));
});

describe('one effect per form submission', () => {
  it('"Create replacement key" clicked twice at once: one new key, both clicks go to its one reveal', async () => {
    const bought = await buyKey(handle.db, kbId, { cap: 10 });
    rememberSecret(bought.key);
    const token = newFormToken();
    const reveal = (id: string) => `/account/keys/reveal?handoff=${id}`;
    const submit = () =>
      onceForForm(
        handle.db,
        { userId: bought.userId, token },
        (tx) => issueReplacementKeyForReveal(tx, { userId: bought.userId, subscriptionId: bought.subscriptionId }),
        (r) => (r.ok ? reveal(r.handoffId) : null),
      );
    const [first, second] = await Promise.all([submit(), submit()]);
    const destinations = [first, second].map((o) => (o.repeated ? o.destination : o.result.ok ? reveal(o.result.handoffId) : 'refused'));
    expect(destinations[0]).toBe(destinations[1]);
    expect([first.repeated, second.repeated].sort()).toEqual([false, true]);
    const keys = await handle.db.select().from(apiKeys).where(eq(apiKeys.subscriptionId, bought.subscriptionId));
    expect(keys).toHaveLength(2); // the purchase's key and ONE replacement
    expect(await handle.db.select().from(keyHandoffs).where(eq(keyHandoffs.subscriptionId, bought.subscriptionId))).toHaveLength(1);
    // A later submission of the same rendered form is sent to the same place; a fresh form makes another key.
    const again = await submit();
    expect(again).toEqual({ repeated: true, destination: destinations[0] });
    const fresh = await onceForForm(
      handle.db,
      { userId: bought.userId, token: newFormToken() },
      (tx) => issueReplacementKeyForReveal(tx, { userId: bought.userId, subscriptionId: bought.subscriptionId }),
      () => 'x',
    );
    expect(fresh.repeated).toBe(false);
    expect(await handle.db.select().from(apiKeys).where(eq(apiKeys.subscriptionId, bought.subscriptionId))).toHaveLength(3);
  });

  it('"Complete test purchase" clicked twice at once: one subscription, both clicks go to the one key reveal', async () => {
    const buyer = await buyKey(handle.db, kbId, { cap: 10 });
    rememberSecret(buyer.key);
    const otherKb = await createKnowledgeBase(handle.db, await createPublisher(handle.db));
    const planId = `plan_${otherKb}`;
    await handle.db
      .insert(plans)
      .values({ id: planId, kbId: otherKb, name: 'Starter', priceCents: 0, currency: 'usd', queriesPerPeriod: 10, requestsPerMinute: 60 });
    const token = newFormToken();
    const submit = () =>
      onceForForm(
        handle.db,
        { userId: buyer.userId, token },
        (tx) => completeTestPurchase(tx, { userId: buyer.userId, planId }, { stripeConfigured: false }),
        (r) => (r.ok ? `/checkout/success?handoff=${r.handoffId}` : null),
      );
    const [first, second] = await Promise.all([submit(), submit()]);
    const destinations = [first, second].map((o) =>
      o.repeated ? o.destination : o.result.ok ? `/checkout/success?handoff=${o.result.handoffId}` : o.result.code,
    );
    expect(destinations[0]).toMatch(/^\/checkout\/success\?handoff=/);
    expect(destinations[1]).toBe(destinations[0]);
    const subs = await handle.db.select().from(subscriptions).where(eq(subscriptions.kbId, otherKb));
    expect(subs).toHaveLength(1);
  });

  it('a missing or malformed token runs the form as before; old tokens are purged after a day', async () => {
    const ran: number[] = [];
    const work = async () => (ran.push(1), { ok: true as const });
    for (const token of [null, '', 'short', 'has spaces in it ok?']) {
      const result = await onceForForm(handle.db, { userId: 'usr_none', token }, work, () => null);
      expect(result.repeated).toBe(false);
    }
    expect(ran).toHaveLength(4);
    expect(await purgeOldFormSubmissions(handle.db, new Date(Date.now() + 2 * 86_400_000))).toBeGreaterThanOrEqual(2);
  });
});

describe('the account settings forms: one effect per rendered form', () => {
  const PASSWORD = 'a long and unusual passphrase';
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    return data;
  };
  /** Where a server action sent the browser (Next's redirect throws, carrying the URL in its digest). */
  async function landing(action: Promise<unknown>): Promise<string> {
    try {
      await action;
    } catch (error) {
      const digest = (error as { digest?: unknown }).digest;
      if (typeof digest === 'string' && digest.startsWith('NEXT_REDIRECT;')) return digest.split(';')[2]!;
      throw error;
    }
    throw new Error('the action did not redirect');
  }
  /** A new account, signed in as this "request"'s user. */
  async function signedIn(): Promise<{ id: string; email: string }> {
    const email = `settings-${randomBase62(10).toLowerCase()}@example.test`;
    expect((await signUpWithVerification(handle.db, { email, password: PASSWORD }, '203.0.113.9')).ok).toBe(true);
    const [row] = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    request.user = { id: row!.id, email, name: null };
    request.cookies = [];
    return { id: row!.id, email };
  }
  const sessionVersion = async (userId: string) => (await handle.db.select({ v: users.sessionVersion }).from(users).where(eq(users.id, userId)))[0]!.v;
  const audits = async (userId: string, action: string) =>
    (
      await handle.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetId, userId), eq(auditLog.action, action)))
    ).length;

  beforeEach(() => {
    replaceProcessSingleton('rate-limiter', createMemoryRateLimiter());
  });

  it('"Resend verification email" clicked twice: one email; a new rendering sends another', async () => {
    const user = await signedIn();
    const mails = async () => (await listOutbox(handle.db, { to: user.email })).length;
    const before = await mails();
    const rendered = form({ [FORM_TOKEN_FIELD]: newFormToken() });
    const landings = await Promise.all([landing(resendVerificationAction(rendered)), landing(resendVerificationAction(rendered))]);
    expect(landings).toEqual(['/account/settings?done=verification_sent', '/account/settings?done=verification_sent']);
    expect(await mails()).toBe(before + 1);
    await landing(resendVerificationAction(form({ [FORM_TOKEN_FIELD]: newFormToken() })));
    expect(await mails()).toBe(before + 2);
  });

  it('the password change sent twice: changed once, and the repeat says so (not "that is not your current password")', async () => {
    const user = await signedIn();
    const token = newFormToken();
    const wrong = form({ [FORM_TOKEN_FIELD]: token, currentPassword: 'not the password at all', password: 'a brand new passphrase' });
    // A refusal is not recorded: the corrected form goes through with the same rendering's token.
    expect(await landing(changePasswordAction(wrong))).toBe('/account/settings?error=current_password#password-heading');
    const versionBefore = await sessionVersion(user.id);
    const right = form({ [FORM_TOKEN_FIELD]: token, currentPassword: PASSWORD, password: 'a brand new passphrase' });
    const landings = await Promise.all([landing(changePasswordAction(right)), landing(changePasswordAction(right))]);
    expect(landings).toEqual(['/account/settings?done=password_changed', '/account/settings?done=password_changed']);
    expect(await landing(changePasswordAction(right))).toBe('/account/settings?done=password_changed'); // a later retry too
    expect(await sessionVersion(user.id)).toBe(versionBefore + 1);
    expect(await audits(user.id, 'user.password_change')).toBe(1);
    expect((await listOutbox(handle.db, { to: user.email })).filter((m) => m.subject === 'Your Almanac password was changed')).toHaveLength(1);
    expect(request.cookies.filter((c) => c.name === 'new-session')).toHaveLength(1);
  });

  it('"Sign out everywhere" clicked twice: the sessions end once, and both answers remove the cookie', async () => {
    const user = await signedIn();
    const before = await sessionVersion(user.id);
    const rendered = form({ [FORM_TOKEN_FIELD]: newFormToken() });
    const landings = await Promise.all([landing(signOutEverywhereAction(rendered)), landing(signOutEverywhereAction(rendered))]);
    expect(landings).toEqual(['/signin?signedOut=everywhere', '/signin?signedOut=everywhere']);
    expect(await sessionVersion(user.id)).toBe(before + 1);
    expect(request.cookies.filter((c) => c.maxAge === 0)).toHaveLength(2);
  });

  it('"Delete my account" clicked twice: deleted once, and the repeat lands on the sign-in page, not on "nothing was deleted"', async () => {
    const user = await signedIn();
    const rendered = form({ [FORM_TOKEN_FIELD]: newFormToken(), confirmEmail: user.email, password: PASSWORD });
    const landings = await Promise.all([landing(deleteAccountAction(rendered)), landing(deleteAccountAction(rendered))]);
    expect(landings).toEqual(['/signin?deleted=1', '/signin?deleted=1']);
    expect(await landing(deleteAccountAction(rendered))).toBe('/signin?deleted=1');
    expect(await audits(user.id, 'user.delete')).toBe(1);
    expect(request.cookies.filter((c) => c.maxAge === 0)).toHaveLength(3);
  });
});

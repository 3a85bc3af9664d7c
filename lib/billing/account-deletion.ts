import { verify } from '@node-rs/argon2';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { accountTokens, alertWebhooks, apiKeys, formSubmissions, keyHandoffs, oauthAccounts, publishers, subscriptions, users } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { recordAudit } from '@/lib/platform/audit';
import { log } from '@/lib/platform/log';
import { deleteMailTo } from '@/lib/platform/mail';
import { inTransaction } from '@/lib/platform/transactions';
import { revokeKey } from '@/lib/keys';
import { endSubscription } from '@/lib/subscriptions';
import { getStripe, type Stripe } from './stripe';

/**
 * Account deletion (docs/api.md §11.3). What goes: every key (revoked), every live subscription (ended now, and at
 * Stripe), the sign-in ways (password, OAuth links, sessions), pending links, alert webhooks, the outbox messages to
 * the address, and the personal data on the user row (email, name, picture). What stays: the user row itself, under an
 * address that names nobody, because subscriptions, the earnings ledger, audit records and Stripe's invoices refer to
 * it and the law asks that invoices be kept. A publisher's account is not deleted here: its listings have subscribers
 * (an operator hands them over or retires them first).
 */
export type DeleteAccountResult =
  | { ok: true }
  | { ok: false; code: 'confirmation_mismatch' | 'wrong_password' | 'publisher_account' | 'not_found'; message: string };

export const DELETED_EMAIL_DOMAIN = 'deleted.invalid';

export async function deleteAccount(
  db: Executor,
  input: { userId: string; confirmEmail: string; password: string },
  stripe: Stripe | null = getStripe(),
): Promise<DeleteAccountResult> {
  const [user] = await db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, input.userId), isNull(users.deletedAt)))
    .limit(1);
  if (!user) return { ok: false, code: 'not_found', message: 'This account no longer exists.' };
  if (input.confirmEmail.trim().toLowerCase() !== user.email) {
    return { ok: false, code: 'confirmation_mismatch', message: 'Type the email address of this account to confirm.' };
  }
  if (user.passwordHash && !(input.password.length <= 200 && (await verify(user.passwordHash, input.password).catch(() => false)))) {
    return { ok: false, code: 'wrong_password', message: 'That is not your password.' };
  }
  const [publisher] = await db.select({ id: publishers.id }).from(publishers).where(eq(publishers.ownerUserId, user.id)).limit(1);
  if (publisher) {
    return { ok: false, code: 'publisher_account', message: 'This account publishes knowledge bases. Ask the operator to hand them over or retire them first.' };
  }

  const live = await db
    .select({ id: subscriptions.id, stripeSubscriptionId: subscriptions.stripeSubscriptionId })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, user.id), inArray(subscriptions.status, ['active', 'past_due', 'incomplete'])));
  // Stripe first: money must stop even if the rest failed; a failure here stops the deletion (nothing changed yet).
  if (stripe) {
    for (const sub of live) {
      if (!sub.stripeSubscriptionId) continue;
      await stripe.subscriptions.cancel(sub.stripeSubscriptionId, {}, { idempotencyKey: `almanac-delete-${sub.id}` });
    }
  }

  const now = new Date();
  await inTransaction(db, async (tx) => {
    for (const sub of live) await endSubscription(tx, { subscriptionId: sub.id, at: now, actorKind: 'web' });
    const keys = await tx.select({ id: apiKeys.id }).from(apiKeys).where(and(eq(apiKeys.userId, user.id), isNull(apiKeys.revokedAt)));
    for (const key of keys) await revokeKey(tx, { userId: user.id, keyId: key.id, now });
    const owned = tx.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.userId, user.id));
    await tx.delete(alertWebhooks).where(inArray(alertWebhooks.subscriptionId, owned));
    await tx.delete(keyHandoffs).where(eq(keyHandoffs.userId, user.id));
    await tx.delete(oauthAccounts).where(eq(oauthAccounts.userId, user.id));
    await tx.delete(accountTokens).where(eq(accountTokens.userId, user.id));
    await tx.delete(formSubmissions).where(eq(formSubmissions.userId, user.id));
    await deleteMailTo(tx, user.email);
    await tx
      .update(users)
      .set({
        email: `${user.id.toLowerCase()}@${DELETED_EMAIL_DOMAIN}`,
        name: null,
        image: null,
        passwordHash: null,
        emailVerifiedAt: null,
        deletedAt: now,
        sessionVersion: sql`${users.sessionVersion} + 1`,
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    await recordAudit(tx, { actorUserId: user.id, actorKind: 'web', action: 'user.delete', targetType: 'user', targetId: user.id, metadata: { subscriptionsEnded: live.length, keysRevoked: keys.length } });
  });
  // Loaded when used: the accounts barrel brings Next's request APIs (next/headers, next/navigation), which Node's own
  // ESM loader cannot resolve for tools that load lib/billing outside Next (Playwright's specs and their fixtures).
  (await import('@/lib/accounts')).forgetSessionVersion(user.id);
  log.info({ userId: user.id }, 'account deleted');
  return { ok: true };
}

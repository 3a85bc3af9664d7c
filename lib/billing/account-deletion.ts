import { verify } from '@node-rs/argon2';
import { and, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import {
  accountTokens,
  alertWebhooks,
  apiKeys,
  formSubmissions,
  keyHandoffs,
  knowledgeBases,
  oauthAccounts,
  publishers,
  subscriptions,
  users,
} from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { recordAudit } from '@/lib/platform/audit';
import { log } from '@/lib/platform/log';
import { deleteMailTo } from '@/lib/platform/mail';
import { inTransaction } from '@/lib/platform/transactions';
import { revokeKey } from '@/lib/keys';
import { endSubscription, HOLDING_STATUSES, LIVE_STATUSES } from '@/lib/subscriptions';
import { getStripe, type Stripe } from './stripe';

/**
 * Account deletion (docs/api.md §11.3): keys, subscriptions (here and at Stripe), sign-in ways, pending links, alert
 * webhooks and personal data go; the user row stays under an address that names nobody, because money records and
 * invoices refer to it. A publishing account closes its publisher too: its buyers keep the period they paid for.
 */
export type DeleteAccountResult = { ok: true } | { ok: false; code: 'confirmation_mismatch' | 'wrong_password' | 'not_found'; message: string };

const DELETED_EMAIL_DOMAIN = 'deleted.invalid';

export const CLOSED_PUBLISHER_REASON = 'Closed: the owner deleted their account.';

export async function deleteAccount(
  db: Executor,
  input: { userId: string; confirmEmail: string; password: string },
  stripe: Stripe | null = getStripe(),
): Promise<DeleteAccountResult> {
  const result = await inTransaction(db, async (tx): Promise<DeleteAccountResult> => {
    // The row lock makes a double submit run second and find the account already deleted.
    const [user] = await tx
      .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
      .from(users)
      .where(and(eq(users.id, input.userId), isNull(users.deletedAt)))
      .for('update');
    if (!user) return { ok: false, code: 'not_found', message: 'This account no longer exists.' };
    if (input.confirmEmail.trim().toLowerCase() !== user.email) {
      return { ok: false, code: 'confirmation_mismatch', message: 'Type the email address of this account to confirm.' };
    }
    if (user.passwordHash && !(input.password.length <= 200 && (await verify(user.passwordHash, input.password).catch(() => false)))) {
      return { ok: false, code: 'wrong_password', message: 'That is not your password.' };
    }

    const held = await tx
      .select({ id: subscriptions.id, stripeSubscriptionId: subscriptions.stripeSubscriptionId })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, user.id), inArray(subscriptions.status, [...HOLDING_STATUSES])));
    const [publisher] = await tx.select({ id: publishers.id }).from(publishers).where(eq(publishers.ownerUserId, user.id)).for('update');
    const renewing = publisher ? await renewingAtStripe(tx, publisher.id, user.id) : [];
    // Stripe first: money must stop even if the rest fails. Nothing is written until every call has succeeded, and
    // each call can be made again.
    if (stripe) {
      for (const sub of held) {
        if (sub.stripeSubscriptionId) await stripe.subscriptions.cancel(sub.stripeSubscriptionId, {}, { idempotencyKey: `almanac-delete-${sub.id}` });
      }
      // No idempotency key: the call is idempotent itself, and Stripe would replay a failure's answer to the retry.
      for (const sub of renewing) await stripe.subscriptions.update(sub.stripeSubscriptionId, { cancel_at_period_end: true });
    }

    const now = new Date();
    for (const sub of held) await endSubscription(tx, { subscriptionId: sub.id, at: now, actorKind: 'web' });
    const keys = await tx
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, user.id), isNull(apiKeys.revokedAt)));
    for (const key of keys) await revokeKey(tx, { userId: user.id, keyId: key.id, now });
    const owned = tx.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.userId, user.id));
    await tx.delete(alertWebhooks).where(inArray(alertWebhooks.subscriptionId, owned));
    await tx.delete(keyHandoffs).where(eq(keyHandoffs.userId, user.id));
    await tx.delete(oauthAccounts).where(eq(oauthAccounts.userId, user.id));
    await tx.delete(accountTokens).where(eq(accountTokens.userId, user.id));
    await tx.delete(formSubmissions).where(eq(formSubmissions.userId, user.id));
    await deleteMailTo(tx, user.email);
    if (publisher) await closePublisher(tx, { publisherId: publisher.id, userId: user.id, now });
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
    await recordAudit(tx, {
      actorUserId: user.id,
      actorKind: 'web',
      action: 'user.delete',
      targetType: 'user',
      targetId: user.id,
      metadata: { subscriptionsEnded: held.length, keysRevoked: keys.length, publisherClosed: publisher?.id ?? null },
    });
    return { ok: true };
  });
  if (!result.ok) return result;
  // Loaded when used: the accounts barrel brings Next's request APIs (next/headers, next/navigation), which Node's own
  // ESM loader cannot resolve for tools that load lib/billing outside Next (Playwright's specs and their fixtures).
  (await import('@/lib/accounts')).forgetSessionVersion(input.userId);
  log.info({ userId: input.userId }, 'account deleted');
  return result;
}

/** The owner's own subscriptions (a publisher may buy its own listing) are not among them: they end with the account. */
function renewingAtStripe(tx: Executor, publisherId: string, ownerUserId: string): Promise<{ id: string; stripeSubscriptionId: string }[]> {
  return tx
    .select({ id: subscriptions.id, stripeSubscriptionId: sql<string>`${subscriptions.stripeSubscriptionId}` })
    .from(subscriptions)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, subscriptions.kbId))
    .where(
      and(
        eq(knowledgeBases.publisherId, publisherId),
        ne(subscriptions.userId, ownerUserId),
        inArray(subscriptions.status, [...LIVE_STATUSES]),
        eq(subscriptions.cancelAtPeriodEnd, false),
        isNotNull(subscriptions.stripeSubscriptionId),
      ),
    );
}

/**
 * In the deletion's transaction: listings are unpublished (their subscriptions end with the period paid for) and the
 * profile is held suspended; the contact email goes, money records and the Stripe account stay. Here rather than in
 * lib/publishing, which imports lib/billing.
 */
async function closePublisher(tx: Executor, { publisherId, userId, now }: { publisherId: string; userId: string; now: Date }): Promise<void> {
  const unpublished = await tx
    .update(knowledgeBases)
    .set({ status: 'unpublished', updatedAt: now })
    .where(and(eq(knowledgeBases.publisherId, publisherId), eq(knowledgeBases.status, 'published')))
    .returning({ id: knowledgeBases.id });
  await tx
    .update(knowledgeBases)
    .set({ statusBeforeSuspension: 'unpublished', updatedAt: now })
    .where(and(eq(knowledgeBases.publisherId, publisherId), eq(knowledgeBases.status, 'suspended'), eq(knowledgeBases.statusBeforeSuspension, 'published')));
  const listings = tx.select({ id: knowledgeBases.id }).from(knowledgeBases).where(eq(knowledgeBases.publisherId, publisherId));
  const ending = await tx
    .update(subscriptions)
    .set({ cancelAtPeriodEnd: true, cancelledAt: sql`coalesce(${subscriptions.cancelledAt}, ${now.toISOString()}::timestamptz)`, updatedAt: now })
    .where(and(inArray(subscriptions.kbId, listings), inArray(subscriptions.status, [...LIVE_STATUSES]), eq(subscriptions.cancelAtPeriodEnd, false)))
    .returning({ id: subscriptions.id });
  await tx
    .update(publishers)
    .set({
      contactEmail: null,
      suspendedAt: sql`coalesce(${publishers.suspendedAt}, ${now.toISOString()}::timestamptz)`,
      suspensionReason: CLOSED_PUBLISHER_REASON,
      updatedAt: now,
    })
    .where(eq(publishers.id, publisherId));
  await recordAudit(tx, {
    actorUserId: userId,
    actorKind: 'web',
    action: 'publisher.close',
    targetType: 'publisher',
    targetId: publisherId,
    metadata: { reason: CLOSED_PUBLISHER_REASON, listingsUnpublished: unpublished.map((l) => l.id), subscriptionsEnding: ending.length },
  });
}

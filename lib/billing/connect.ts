import { and, eq, isNotNull } from 'drizzle-orm';
import { knowledgeBases, publishers } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { siteUrl } from '@/lib/platform/base-url';
import { getEnv } from '@/lib/platform/env';
import { log } from '@/lib/platform/log';
import { isCleanId } from '@/lib/platform/text-input';
import { getStripe, type Stripe } from './stripe';
import type { Refusal } from '@/lib/platform/transactions';

/**
 * Stripe Connect for publishers (docs/api.md §9.3): an Express account per publisher, and Checkout for its plans as a
 * destination charge with PLATFORM_FEE_PERCENT kept. Whether it can be paid is Stripe's answer, kept current by the
 * `account.updated` webhook. The publisher is looked up here, not through lib/publishing, which imports billing.
 */

export interface ConnectStatus {
  configured: boolean;
  accountId: string | null;
  onboarded: boolean;
}

async function publisherOf(db: Executor, userId: string) {
  if (!isCleanId(userId)) return null;
  const [row] = await db.select().from(publishers).where(eq(publishers.ownerUserId, userId)).limit(1);
  return row ?? null;
}

export async function getConnectStatus(db: Executor, userId: string): Promise<ConnectStatus> {
  const pub = await publisherOf(db, userId);
  return { configured: Boolean(getStripe()), accountId: pub?.stripeAccountId ?? null, onboarded: pub?.stripeOnboarded ?? false };
}

/** Idempotent per publisher (the Stripe idempotency key is the publisher id); returns a fresh onboarding link. */
export async function startConnectOnboarding(
  db: Executor,
  input: { userId: string; email: string },
  stripe: Stripe | null = getStripe(),
): Promise<{ ok: true; url: string } | Refusal<'not_found' | 'not_configured' | 'stripe_unavailable'>> {
  if (!stripe) return { ok: false, code: 'not_configured', message: 'This server takes no payments (test mode).' };
  const pub = await publisherOf(db, input.userId);
  if (!pub) return { ok: false, code: 'not_found', message: 'Create your publisher profile first.' };
  try {
    let accountId = pub.stripeAccountId;
    if (!accountId) {
      const account = await stripe.accounts.create(
        { type: 'express', email: input.email, metadata: { publisherId: pub.id }, business_profile: { name: pub.name } },
        { idempotencyKey: `connect-account-${pub.id}` },
      );
      accountId = account.id;
      await db
        .update(publishers)
        .set({ stripeAccountId: accountId, updatedAt: new Date() })
        .where(and(eq(publishers.id, pub.id), eq(publishers.ownerUserId, input.userId)));
    }
    const link = await stripe.accountLinks.create({
      account: accountId,
      type: 'account_onboarding',
      refresh_url: siteUrl('/publish/earnings?connect=refresh'),
      return_url: siteUrl('/publish/earnings?connect=return'),
    });
    return { ok: true, url: link.url };
  } catch (err) {
    log.warn({ err, publisherId: pub.id }, 'Stripe Connect onboarding could not start');
    return { ok: false, code: 'stripe_unavailable', message: 'Stripe could not be reached. Please try again.' };
  }
}

export async function refreshConnectStatus(db: Executor, userId: string, stripe: Stripe | null = getStripe()): Promise<ConnectStatus> {
  const pub = await publisherOf(db, userId);
  if (!stripe || !pub?.stripeAccountId) return getConnectStatus(db, userId);
  try {
    const account = await stripe.accounts.retrieve(pub.stripeAccountId);
    const onboarded = Boolean(account.details_submitted && account.charges_enabled);
    if (onboarded !== pub.stripeOnboarded)
      await db.update(publishers).set({ stripeOnboarded: onboarded, updatedAt: new Date() }).where(eq(publishers.id, pub.id));
    return { configured: true, accountId: pub.stripeAccountId, onboarded };
  } catch (err) {
    log.warn({ err, publisherId: pub.id }, 'Stripe Connect account could not be read');
    return getConnectStatus(db, userId);
  }
}

/** Null while the publisher cannot be paid: the platform collects, and the earnings ledger still records the share. */
export async function connectTermsFor(db: Executor, kbId: string): Promise<{ application_fee_percent: number; transfer_data: { destination: string } } | null> {
  const [row] = await db
    .select({ accountId: publishers.stripeAccountId })
    .from(knowledgeBases)
    .innerJoin(publishers, eq(publishers.id, knowledgeBases.publisherId))
    .where(and(eq(knowledgeBases.id, kbId), eq(publishers.stripeOnboarded, true), isNotNull(publishers.stripeAccountId)))
    .limit(1);
  if (!row?.accountId) return null;
  return { application_fee_percent: getEnv().PLATFORM_FEE_PERCENT, transfer_data: { destination: row.accountId } };
}

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
 * Stripe Connect for publishers (docs/api.md §9.3): each publisher onboards an Express account from the console; a
 * buyer's Checkout for one of its plans is then a destination charge to that account, with PLATFORM_FEE_PERCENT kept
 * as the application fee. The account id lives on the publisher row; whether it can be paid (`stripe_onboarded`) is
 * Stripe's answer, re-read when the publisher comes back from onboarding and kept current afterwards by Stripe's
 * `account.updated` Connect events (lib/billing/webhook.ts). (The publisher lookup is by the session's
 * user id here, not through lib/publishing, which itself imports billing for Stripe prices.)
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

/**
 * Creates the publisher's Express account on first use (idempotent per publisher: the Stripe idempotency key is the
 * publisher id) and returns a fresh onboarding link to send the browser to.
 */
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

/** Re-reads the account from Stripe (after onboarding) and stores whether it can receive transfers. */
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

/**
 * The destination-charge terms of a Checkout for a plan of `kbId`: the publisher's onboarded account and the
 * platform's fee percent; null while the publisher has no account that can be paid (the platform collects, and the
 * earnings ledger still records the publisher's share).
 */
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

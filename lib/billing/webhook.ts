import { and, eq, gt, inArray } from 'drizzle-orm';
import { plans, publishers, stripeEvents, subscriptions } from '@/db/schema';
import { parkIssuedKey } from './handoff';
import type { Executor, Transaction } from '@/lib/platform/db';
import { log } from '@/lib/platform/log';
import type { Stripe } from './stripe';
import {
  applyStripePeriod,
  cancelSubscription,
  endSubscription,
  markPastDue,
  purchaseSubscription,
  recordEarning,
  resumeSubscription,
  upgradeSubscription,
} from '@/lib/subscriptions';

/**
 * Applying Stripe webhook events. Each event id is recorded in `stripe_events` in the SAME transaction as its effect,
 * so a duplicate changes nothing and a failed effect is retried. State only moves forward: an older event is
 * `ignored:stale`, and ended subscriptions are never revived. Only `checkout.session.completed` grants access, and of
 * a connected account's events only `account.updated` is ours.
 */

export type WebhookOutcome = { duplicate: true } | { duplicate: false; outcome: string };

const HANDLED = new Set([
  'checkout.session.completed',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'account.updated',
]);

function handles(event: Stripe.Event): boolean {
  return HANDLED.has(event.type) && (!event.account || event.type === 'account.updated');
}

const toDate = (unixSeconds: number) => new Date(unixSeconds * 1000);

function idOf(ref: string | { id: string } | null | undefined): string | null {
  if (!ref) return null;
  return typeof ref === 'string' ? ref : ref.id;
}

function subscriptionIdOfEvent(event: Stripe.Event): string | null {
  switch (event.type) {
    case 'checkout.session.completed':
      return idOf(event.data.object.subscription);
    case 'invoice.paid':
    case 'invoice.payment_failed':
      return invoiceSubscriptionId(event.data.object);
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return event.data.object.id;
    default:
      return null;
  }
}

/** The ledger row's object, so "the newest applied event for this object" is one lookup (`sub_…` or `acct_…`). */
function ledgerObjectIdOfEvent(event: Stripe.Event): string | null {
  return event.type === 'account.updated' ? event.data.object.id : subscriptionIdOfEvent(event);
}

function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const fromParent = idOf(invoice.parent?.subscription_details?.subscription ?? null);
  if (fromParent) return fromParent;
  for (const line of invoice.lines?.data ?? []) {
    const sub = line.parent?.subscription_item_details?.subscription ?? idOf(line.subscription ?? null);
    if (sub) return sub;
  }
  return null;
}

/** The service period an invoice pays for: its subscription line's period (the invoice's own dates are the past one). */
function invoiceServicePeriod(invoice: Stripe.Invoice): { start: Date; end: Date } | null {
  let best: { start: number; end: number } | null = null;
  for (const line of invoice.lines?.data ?? []) {
    if (!line.period) continue;
    if (!best || line.period.end > best.end) best = { start: line.period.start, end: line.period.end };
  }
  return best && best.end > best.start ? { start: toDate(best.start), end: toDate(best.end) } : null;
}

function subscriptionPeriod(sub: Stripe.Subscription): { start: Date; end: Date } | null {
  const item = sub.items?.data?.[0];
  if (!item) return null;
  return { start: toDate(item.current_period_start), end: toDate(item.current_period_end) };
}

/** Things fetched from Stripe BEFORE the transaction (no network calls while holding row locks). */
interface Prefetched {
  subscription?: Stripe.Subscription;
}

async function prefetch(event: Stripe.Event, stripe: Stripe | null): Promise<Prefetched> {
  if (event.type !== 'checkout.session.completed') return {};
  const subId = idOf(event.data.object.subscription);
  if (!subId) return {};
  const inline = event.data.object.subscription;
  if (inline && typeof inline !== 'string' && inline.items) return { subscription: inline };
  if (!stripe) throw new Error('Stripe is not configured: cannot read the subscription of a completed checkout');
  return { subscription: await stripe.subscriptions.retrieve(subId) };
}

/** Throws on unexpected faults: the route answers 500 and Stripe retries. */
export async function applyStripeEvent(db: Executor, event: Stripe.Event, stripe: Stripe | null): Promise<WebhookOutcome> {
  const stripeSubscriptionId = ledgerObjectIdOfEvent(event);
  const known = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id)).limit(1);
  if (known.length) return { duplicate: true };
  const handled = handles(event);
  const fetched = handled ? await prefetch(event, stripe) : {};

  return db.transaction(async (tx) => {
    // The ledger row first: a concurrent delivery of the same event waits on this key, then sees the conflict.
    const inserted = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, eventCreatedAt: toDate(event.created), stripeSubscriptionId })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (!inserted.length) return { duplicate: true } as const;
    const outcome = handled ? await dispatch(tx, event, fetched) : event.account ? 'ignored:connected_account' : 'ignored:unhandled_type';
    if (outcome !== 'applied') await tx.update(stripeEvents).set({ outcome }).where(eq(stripeEvents.id, event.id));
    log.info({ eventId: event.id, type: event.type, outcome }, 'stripe event processed');
    return { duplicate: false, outcome } as const;
  });
}

async function dispatch(tx: Transaction, event: Stripe.Event, fetched: Prefetched): Promise<string> {
  switch (event.type) {
    case 'checkout.session.completed':
      return onCheckoutCompleted(tx, event.data.object, fetched.subscription);
    case 'invoice.paid':
      return onInvoicePaid(tx, event);
    case 'invoice.payment_failed':
      return onPaymentFailed(tx, event);
    case 'customer.subscription.updated':
      return onSubscriptionUpdated(tx, event);
    case 'customer.subscription.deleted':
      return onSubscriptionDeleted(tx, event);
    case 'account.updated':
      return onAccountUpdated(tx, event);
    default:
      return 'ignored:unhandled_type';
  }
}

async function findByStripeId(tx: Transaction, stripeSubscriptionId: string | null) {
  if (!stripeSubscriptionId) return null;
  const rows = await tx.select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, stripeSubscriptionId)).limit(1);
  return rows[0] ?? null;
}

const ENDED = new Set(['cancelled', 'expired']);

async function newerEventApplied(tx: Transaction, event: Stripe.Event, stripeSubscriptionId: string, types: string[]): Promise<boolean> {
  const rows = await tx
    .select({ id: stripeEvents.id })
    .from(stripeEvents)
    .where(
      and(
        eq(stripeEvents.stripeSubscriptionId, stripeSubscriptionId),
        inArray(stripeEvents.type, types),
        eq(stripeEvents.outcome, 'applied'),
        gt(stripeEvents.eventCreatedAt, toDate(event.created)),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

async function onCheckoutCompleted(tx: Transaction, session: Stripe.Checkout.Session, sub: Stripe.Subscription | undefined): Promise<string> {
  if (session.mode !== 'subscription') return 'ignored:not_subscription_mode';
  if (session.payment_status === 'unpaid') return 'ignored:unpaid';
  const userId = session.metadata?.userId ?? session.client_reference_id;
  const planId = session.metadata?.planId;
  const stripeSubscriptionId = idOf(session.subscription);
  if (!userId || !planId || !stripeSubscriptionId || !sub) return 'ignored:missing_metadata';
  if (await findByStripeId(tx, stripeSubscriptionId)) return 'ignored:already_created';
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') return 'ignored:subscription_ended';
  const period = subscriptionPeriod(sub);
  if (!period) return 'ignored:no_period';

  const purchase = await purchaseSubscription(tx, {
    userId,
    planId,
    mode: 'live',
    stripe: {
      subscriptionId: stripeSubscriptionId,
      customerId: idOf(session.customer) ?? idOf(sub.customer)!,
      checkoutSessionId: session.id,
      periodStart: period.start,
      periodEnd: period.end,
    },
  });
  if (!purchase.ok) {
    // Paid at Stripe but refused here (e.g. a second subscription to the same KB from two tabs): an operator must
    // refund/cancel it. Recorded, logged loudly, not retried (a retry would be refused the same way).
    log.error({ sessionId: session.id, stripeSubscriptionId, code: purchase.code }, 'paid checkout could not be granted');
    return `ignored:${purchase.code}`;
  }
  await parkIssuedKey(tx, {
    userId,
    subscriptionId: purchase.subscription.id,
    keyId: purchase.key.id,
    plaintext: purchase.key.plaintext,
    checkoutSessionId: session.id,
  });
  // The first period's earnings: invoice.paid usually comes first and finds no subscription yet; whichever of the
  // two lands second writes nothing (one row per subscription and period).
  await recordEarning(tx, {
    subscriptionId: purchase.subscription.id,
    periodStart: period.start,
    periodEnd: period.end,
    source: 'stripe_invoice',
    sourceEvent: session.id,
    grossCents: session.amount_total ?? undefined,
    currency: session.currency ?? undefined,
  });
  return 'applied';
}

async function onInvoicePaid(tx: Transaction, event: Stripe.InvoicePaidEvent): Promise<string> {
  const invoice = event.data.object;
  const ours = await findByStripeId(tx, invoiceSubscriptionId(invoice));
  // The first invoice usually arrives before checkout.session.completed, which reads the period itself.
  if (!ours) return 'ignored:unknown_subscription';
  if (ENDED.has(ours.status)) return 'ignored:ended';
  const period = invoiceServicePeriod(invoice);
  if (!period) return 'ignored:no_period';
  if (period.start < ours.currentPeriodStart) return 'ignored:stale';
  await applyStripePeriod(tx, { subscriptionId: ours.id, periodStart: period.start, periodEnd: period.end });
  await recordEarning(tx, {
    subscriptionId: ours.id,
    periodStart: period.start,
    periodEnd: period.end,
    source: 'stripe_invoice',
    sourceEvent: event.id,
    grossCents: invoice.amount_paid,
    currency: invoice.currency,
  });
  return 'applied';
}

async function onPaymentFailed(tx: Transaction, event: Stripe.InvoicePaymentFailedEvent): Promise<string> {
  const invoice = event.data.object;
  const stripeSubscriptionId = invoiceSubscriptionId(invoice);
  const ours = await findByStripeId(tx, stripeSubscriptionId);
  if (!ours || !stripeSubscriptionId) return 'ignored:unknown_subscription';
  if (ENDED.has(ours.status)) return 'ignored:ended';
  const period = invoiceServicePeriod(invoice);
  if (period && period.end <= ours.currentPeriodStart) return 'ignored:stale';
  // A payment that succeeded after this failure (delivered first) wins.
  if (await newerEventApplied(tx, event, stripeSubscriptionId, ['invoice.paid'])) return 'ignored:stale';
  await markPastDue(tx, ours.id);
  return 'applied';
}

async function resolvePlanId(tx: Transaction, kbId: string, sub: Stripe.Subscription): Promise<string | null> {
  const price = sub.items?.data?.[0]?.price;
  if (price?.id) {
    const rows = await tx
      .select({ id: plans.id })
      .from(plans)
      .where(and(eq(plans.kbId, kbId), eq(plans.stripePriceId, price.id)))
      .limit(1);
    if (rows[0]) return rows[0].id;
  }
  return sub.metadata?.planId ?? null;
}

async function onSubscriptionUpdated(tx: Transaction, event: Stripe.CustomerSubscriptionUpdatedEvent): Promise<string> {
  const sub = event.data.object;
  const ours = await findByStripeId(tx, sub.id);
  if (!ours) return 'ignored:unknown_subscription';
  if (ENDED.has(ours.status)) return 'ignored:ended';
  if (await newerEventApplied(tx, event, sub.id, ['customer.subscription.updated', 'customer.subscription.deleted'])) {
    return 'ignored:stale';
  }
  const changes: string[] = [];

  const planId = await resolvePlanId(tx, ours.kbId, sub);
  // A downgrade scheduled for the renewal is already Stripe's price (billed from the next invoice); it becomes our
  // plan with the next paid period (applyStripePeriod), not now.
  if (planId && planId !== ours.planId && planId !== ours.pendingPlanId) {
    const result = await upgradeSubscription(tx, { userId: ours.userId, subscriptionId: ours.id, planId });
    if (result.ok) changes.push('plan');
    else log.warn({ subscriptionId: ours.id, planId, code: result.code }, 'Stripe plan change not applied');
  }

  const cancelling = sub.cancel_at_period_end || sub.cancel_at !== null;
  if (cancelling && !ours.cancelAtPeriodEnd) {
    await cancelSubscription(tx, { userId: ours.userId, subscriptionId: ours.id });
    changes.push('cancel');
  } else if (!cancelling && ours.cancelAtPeriodEnd) {
    await resumeSubscription(tx, { userId: ours.userId, subscriptionId: ours.id });
    changes.push('resume');
  }

  if ((sub.status === 'past_due' || sub.status === 'unpaid') && ours.status === 'active') {
    await markPastDue(tx, ours.id);
    changes.push('past_due');
  } else if (sub.status === 'active' && ours.status === 'past_due') {
    const period = subscriptionPeriod(sub);
    if (period && period.start >= ours.currentPeriodStart) {
      await applyStripePeriod(tx, { subscriptionId: ours.id, periodStart: period.start, periodEnd: period.end });
      changes.push('reactivated');
    }
  }
  log.info({ subscriptionId: ours.id, changes }, 'Stripe subscription update applied');
  return 'applied';
}

async function onSubscriptionDeleted(tx: Transaction, event: Stripe.CustomerSubscriptionDeletedEvent): Promise<string> {
  const sub = event.data.object;
  const ours = await findByStripeId(tx, sub.id);
  if (!ours) return 'ignored:unknown_subscription';
  if (ENDED.has(ours.status)) return 'ignored:ended';
  await endSubscription(tx, { subscriptionId: ours.id, at: toDate(sub.ended_at ?? event.created) });
  return 'applied';
}

/**
 * The event carries the whole account as of its `created`, so the newest applied event wins: the publisher row is
 * locked first, so a concurrent delivery waits and then finds this one in the ledger.
 */
async function onAccountUpdated(tx: Transaction, event: Stripe.AccountUpdatedEvent): Promise<string> {
  const account = event.data.object;
  const [publisher] = await tx
    .select({ id: publishers.id, onboarded: publishers.stripeOnboarded })
    .from(publishers)
    .where(eq(publishers.stripeAccountId, account.id))
    .for('update');
  if (!publisher) return 'ignored:unknown_account';
  if (await newerEventApplied(tx, event, account.id, ['account.updated'])) return 'ignored:stale';
  const onboarded = Boolean(account.details_submitted && account.charges_enabled);
  if (onboarded !== publisher.onboarded) {
    await tx.update(publishers).set({ stripeOnboarded: onboarded, updatedAt: new Date() }).where(eq(publishers.id, publisher.id));
  }
  log.info({ publisherId: publisher.id, onboarded }, 'Stripe Connect account update applied');
  return 'applied';
}

import type { Subscription } from '@/db/schema';

/**
 * `knowledge_bases.subscribers_count` ("subscriptions active now", docs/api.md §2.3) counts `active` subscriptions,
 * those cancelling included, in live and test mode alike; every status change adjusts it in the same transaction.
 */
export type SubscriptionStatus = Subscription['status'];
const COUNTED_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['active'];
/** Statuses that still grant access (past_due is suspended, not ended: paying restores it). */
export const LIVE_STATUSES: readonly SubscriptionStatus[] = ['active', 'past_due'];
/** Exactly what the partial unique index `subscriptions_one_active_key` covers: one per buyer and knowledge base. */
export const HOLDING_STATUSES: readonly SubscriptionStatus[] = ['active', 'past_due', 'incomplete'];
export const ENDED_STATUSES: readonly SubscriptionStatus[] = ['cancelled', 'expired'];

export function isCounted(status: SubscriptionStatus): boolean {
  return COUNTED_SUBSCRIPTION_STATUSES.includes(status);
}

/** Only an active subscription that is not cancelling: a cancelled one offers "Resume" alone, a suspended one must be paid. */
export function canChangePlan(subscription: { status: SubscriptionStatus; cancelAtPeriodEnd: boolean }): boolean {
  return subscription.status === 'active' && !subscription.cancelAtPeriodEnd;
}

export function isLive(status: SubscriptionStatus): boolean {
  return LIVE_STATUSES.includes(status);
}

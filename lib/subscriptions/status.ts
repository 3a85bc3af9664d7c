import type { Subscription } from '@/db/schema';

/**
 * `knowledge_bases.subscribers_count` ("subscriptions active now", docs/api.md §2.3) counts subscriptions whose
 * status is `active` — including ones cancelled at period end, which keep access until then — in both modes (live
 * and test: the offline test checkout is the whole product without Stripe keys). `past_due` (access suspended),
 * `incomplete`, `cancelled` and `expired` do not count. Every status change adjusts it in the same transaction.
 */
export type SubscriptionStatus = Subscription['status'];
const COUNTED_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['active'];
/** Statuses that still grant access (past_due is suspended, not ended: paying restores it). */
export const LIVE_STATUSES: readonly SubscriptionStatus[] = ['active', 'past_due'];
/**
 * Statuses that hold the buyer's one subscription per knowledge base (docs/api.md §5.2): the partial unique index
 * `subscriptions_one_active_key` covers exactly these, so a buyer holding one cannot buy the same knowledge base again.
 */
export const HOLDING_STATUSES: readonly SubscriptionStatus[] = ['active', 'past_due', 'incomplete'];
export const ENDED_STATUSES: readonly SubscriptionStatus[] = ['cancelled', 'expired'];

export function isCounted(status: SubscriptionStatus): boolean {
  return COUNTED_SUBSCRIPTION_STATUSES.includes(status);
}

/**
 * Whether the buyer may change plan (an upgrade now, a downgrade at renewal): only an active subscription that is not
 * cancelling. A cancelled one offers "Resume" alone; a suspended one must be paid first.
 */
export function canChangePlan(subscription: { status: SubscriptionStatus; cancelAtPeriodEnd: boolean }): boolean {
  return subscription.status === 'active' && !subscription.cancelAtPeriodEnd;
}

/** Still granting access, or suspended until paid: what the dashboard lists as current rather than past. */
export function isLive(status: SubscriptionStatus): boolean {
  return LIVE_STATUSES.includes(status);
}

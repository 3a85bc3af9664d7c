/** Subscriptions: purchase, billing periods, lifecycle changes, the dashboard's views and where a buyer stands. */
export { addMonthsClamped, periodContaining } from './billing-period';
export { type SubscriptionResult } from './change';
export { earningsBalance, listEarnings, recordEarning, splitGross, type EarningSource, type EarningView } from './earnings';
export {
  applyStripePeriod,
  cancelSubscription,
  endSubscription,
  issueReplacementKey,
  markPastDue,
  resumeSubscription,
  scheduleDowngrade,
  upgradeSubscription,
} from './lifecycle';
export { ensureCurrentPeriod, expireEndedSubscriptions, isPeriodOver, resolveCurrentPeriod, type SubscriptionPeriodState } from './period';
export { noticeListingWithdrawn, noticePlanTermsChanged } from './notices';
export { planViewColumns, toPlanView, type PlanView } from './plan-view';
export { purchaseSubscription } from './purchase';
export { getSubscriberStanding, offerFor, type PlanOffer, type SubscriberStanding } from './standing';
export { canChangePlan, HOLDING_STATUSES, isLive, LIVE_STATUSES, type SubscriptionStatus } from './status';
export { SubscriptionSweeper, startSubscriptionSweeper } from './sweeper';
export {
  findBuyerSubscription,
  getDailyUsage,
  getSubscriptionForUser,
  listSubscriptionsForUser,
  type DailyUsage,
  type SubscriptionView,
  type UsageView,
} from './views';

import type { Executor } from '@/lib/platform/db';
import { isCleanId } from '@/lib/platform/text-input';
import { findLiveSubscriptionView, type SubscriptionView, type UsageView } from './views';

/**
 * Where a signed-in buyer stands with one knowledge base, for its public page: the plan they are on, this period's
 * usage, and what each plan on sale offers them. Plan changes go through the dashboard's confirmation page
 * (lib/billing/plan-change.ts): more queries is an upgrade now, fewer or as many a downgrade at the next renewal, and
 * only while the subscription is active and not cancelling.
 */

/** `active` (cancelling or not) can use and change its plan; `suspended` is past_due; `pending` awaits a first payment. */
type StandingState = 'active' | 'suspended' | 'pending';

export interface SubscriberStanding {
  subscriptionId: string;
  planId: string;
  planName: string;
  state: StandingState;
  /** Cancelled at period end: the ISO instant access ends; null while it renews. */
  endsAt: string | null;
  usage: UsageView;
}

const STATES: Partial<Record<SubscriptionView['status'], StandingState>> = { active: 'active', past_due: 'suspended', incomplete: 'pending' };

/** Only what the page shows; null for a subscription that has ended (cancelled at period end, period over). */
export function toSubscriberStanding(view: SubscriptionView): SubscriberStanding | null {
  const state = STATES[view.status];
  if (!state) return null;
  return {
    subscriptionId: view.id,
    planId: view.plan.id,
    planName: view.plan.name,
    state,
    endsAt: view.cancelAtPeriodEnd ? view.currentPeriodEnd : null,
    usage: view.usage,
  };
}

/** One query (see findLiveSubscriptionView): the knowledge-base page runs it for every signed-in visitor. */
export async function getSubscriberStanding(db: Executor, userId: string, kbId: string, now: Date = new Date()): Promise<SubscriberStanding | null> {
  if (!isCleanId(kbId)) return null; // docs/api.md §7.2
  const view = await findLiveSubscriptionView(db, userId, kbId, now);
  return view ? toSubscriberStanding(view) : null;
}

export type PlanOffer =
  | { kind: 'buy' }
  | { kind: 'current' }
  /** Both lead to the dashboard's confirmation page (docs/api.md §5.4): an upgrade applies now, a downgrade at renewal. */
  | { kind: 'upgrade'; subscriptionId: string }
  | { kind: 'downgrade'; subscriptionId: string }
  /** `inactive`: unpaid or pending; `cancelling`: cancelled at period end (resume first). */
  | { kind: 'unavailable'; reason: 'inactive' | 'cancelling' };

/**
 * What one plan offers this visitor. "Bigger" compares with the cap of the plan they are on (taken from the
 * subscription, so it holds even when that plan is no longer sold), exactly as the dashboard's upgrade list does.
 */
export function offerFor(plan: { id: string; queriesPerPeriod: number }, standing: SubscriberStanding | null): PlanOffer {
  if (!standing) return { kind: 'buy' };
  if (plan.id === standing.planId) return { kind: 'current' };
  if (standing.state !== 'active') return { kind: 'unavailable', reason: 'inactive' };
  if (standing.endsAt) return { kind: 'unavailable', reason: 'cancelling' };
  return { kind: plan.queriesPerPeriod > standing.usage.cap ? 'upgrade' : 'downgrade', subscriptionId: standing.subscriptionId };
}

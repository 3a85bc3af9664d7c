import type { Executor } from '@/lib/platform/db';
import { isCleanId } from '@/lib/platform/text-input';
import { findLiveSubscriptionView, type SubscriptionView, type UsageView } from './views';

/** Where a signed-in buyer stands with one knowledge base, for its public page: plan, usage and what each plan offers. */

/** `active` (cancelling or not) can use and change its plan; `suspended` is past_due; `pending` awaits a first payment. */
type StandingState = 'active' | 'suspended' | 'pending';

export interface SubscriberStanding {
  subscriptionId: string;
  planId: string;
  planName: string;
  state: StandingState;
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

export async function getSubscriberStanding(db: Executor, userId: string, kbId: string, now: Date = new Date()): Promise<SubscriberStanding | null> {
  if (!isCleanId(kbId)) return null; // docs/api.md §7.2
  const view = await findLiveSubscriptionView(db, userId, kbId, now);
  return view ? toSubscriberStanding(view) : null;
}

export type PlanOffer =
  | { kind: 'buy' }
  | { kind: 'current' }
  | { kind: 'upgrade'; subscriptionId: string }
  | { kind: 'downgrade'; subscriptionId: string }
  /** `inactive`: unpaid or pending; `cancelling`: cancelled at period end (resume first). */
  | { kind: 'unavailable'; reason: 'inactive' | 'cancelling' };

/** "Bigger" compares with the subscription's own cap, so it holds when that plan is no longer sold, as the dashboard's does. */
export function offerFor(plan: { id: string; queriesPerPeriod: number }, standing: SubscriberStanding | null): PlanOffer {
  if (!standing) return { kind: 'buy' };
  if (plan.id === standing.planId) return { kind: 'current' };
  if (standing.state !== 'active') return { kind: 'unavailable', reason: 'inactive' };
  if (standing.endsAt) return { kind: 'unavailable', reason: 'cancelling' };
  return { kind: plan.queriesPerPeriod > standing.usage.cap ? 'upgrade' : 'downgrade', subscriptionId: standing.subscriptionId };
}

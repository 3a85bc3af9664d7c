import { describe, expect, it } from 'vitest';
import type { SubscriptionView } from './views';
import { offerFor, toSubscriberStanding, type SubscriberStanding } from './standing';

const usage = { used: 10, cap: 500, remaining: 490, resetsAt: '2026-05-01T00:00:00.000Z' };
const onPro = (state: SubscriberStanding['state']): SubscriberStanding => ({
  subscriptionId: 'sub_1',
  planId: 'plan_pro',
  planName: 'Professional',
  state,
  endsAt: null,
  usage,
});

describe('offerFor', () => {
  const starter = { id: 'plan_starter', queriesPerPeriod: 100 };
  const pro = { id: 'plan_pro', queriesPerPeriod: 500 };
  const team = { id: 'plan_team', queriesPerPeriod: 500 };
  const enterprise = { id: 'plan_enterprise', queriesPerPeriod: 2000 };

  it.each([
    ['anyone without a subscription may buy', enterprise, null, { kind: 'buy' }],
    ['their own plan is current', pro, onPro('active'), { kind: 'current' }],
    ['a plan with more queries is an upgrade', enterprise, onPro('active'), { kind: 'upgrade', subscriptionId: 'sub_1' }],
    ['a plan with fewer queries is a downgrade', starter, onPro('active'), { kind: 'downgrade', subscriptionId: 'sub_1' }],
    ['a different plan with the same cap is a change at renewal', team, onPro('active'), { kind: 'downgrade', subscriptionId: 'sub_1' }],
    [
      'a cancelling subscription changes no plan',
      enterprise,
      { ...onPro('active'), endsAt: '2026-05-01T00:00:00.000Z' },
      { kind: 'unavailable', reason: 'cancelling' },
    ],
    ['a suspended subscription cannot upgrade', enterprise, onPro('suspended'), { kind: 'unavailable', reason: 'inactive' }],
    ['a pending subscription cannot upgrade', enterprise, onPro('pending'), { kind: 'unavailable', reason: 'inactive' }],
    ['a suspended subscription still owns its plan', pro, onPro('suspended'), { kind: 'current' }],
  ] as const)('%s', (_name, plan, standing, expected) => {
    expect(offerFor(plan, standing)).toEqual(expected);
  });
});

describe('toSubscriberStanding', () => {
  const view: SubscriptionView = {
    id: 'sub_1',
    kbId: 'kb_1',
    kbTitle: 'KB',
    kbSlug: 'kb',
    plan: { id: 'plan_pro', name: 'Professional', priceCents: 2900, currency: 'usd', queriesPerPeriod: 500, requestsPerMinute: 60 },
    status: 'active',
    mode: 'test',
    cancelAtPeriodEnd: false,
    pendingPlanId: null,
    planOnSale: true,
    listingOnSale: true,
    stripeManaged: false,
    currentPeriodStart: '2026-04-01T00:00:00.000Z',
    currentPeriodEnd: '2026-05-01T00:00:00.000Z',
    createdAt: '2026-04-01T00:00:00.000Z',
    cancelledAt: null,
    endedAt: null,
    usage,
  };

  it.each([
    ['active', 'active'],
    ['past_due', 'suspended'],
    ['incomplete', 'pending'],
    ['expired', null],
    ['cancelled', null],
  ] as const)('maps %s to %s', (status, state) => {
    expect(toSubscriberStanding({ ...view, status })?.state ?? null).toBe(state);
  });

  it('says when a cancelled subscription ends, and nothing else of the view', () => {
    expect(toSubscriberStanding({ ...view, cancelAtPeriodEnd: true })).toEqual({ ...onPro('active'), endsAt: '2026-05-01T00:00:00.000Z' });
  });
});

import { describe, expect, it } from 'vitest';
import { canChangePlan, type SubscriptionStatus } from './status';

describe('canChangePlan', () => {
  it.each<[SubscriptionStatus, boolean, boolean]>([
    ['active', false, true],
    ['active', true, false], // cancelling: "Resume" first
    ['past_due', false, false], // suspended until paid
    ['incomplete', false, false],
    ['cancelled', false, false],
    ['expired', false, false],
  ])('%s, cancelling %s: %s', (status, cancelAtPeriodEnd, expected) => {
    expect(canChangePlan({ status, cancelAtPeriodEnd })).toBe(expected);
  });
});

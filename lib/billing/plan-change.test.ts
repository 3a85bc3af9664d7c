import { describe, expect, it } from 'vitest';
import { planDirection } from './plan-change';

describe('planDirection', () => {
  it.each([
    [100, 500, 'upgrade'],
    [500, 100, 'downgrade'],
    [500, 500, 'downgrade'],
  ] as const)('%i → %i queries is an %s', (from, to, expected) => {
    expect(planDirection({ queriesPerPeriod: from }, { queriesPerPeriod: to })).toBe(expected);
  });
});

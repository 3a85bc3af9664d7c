import { describe, expect, it } from 'vitest';
import { priceLine } from './knowledge-base-card';

describe('priceLine', () => {
  const facts = (over: Partial<Parameters<typeof priceLine>[0]>) => ({ language: 'en', documentsCount: 3, lowestPrice: null, freePlan: false, ...over });
  it.each<[Partial<Parameters<typeof priceLine>[0]>, string]>([
    [{ lowestPrice: { cents: 899, currency: 'usd' } }, 'From $8.99/month'],
    [{ lowestPrice: { cents: 1_900, currency: 'usd' }, freePlan: true }, 'Free plan · from $19/month'],
    [{ freePlan: true }, 'Free plan'],
    [{}, 'No plan on sale'],
  ])('%j → %s', (over, expected) => {
    expect(priceLine(facts(over))).toBe(expected);
  });
});

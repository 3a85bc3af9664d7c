import { describe, expect, it } from 'vitest';
import { FLASH_MESSAGES, parseFlash, withFlash, type FlashCode } from './flash';

describe('flash codes', () => {
  const codes = Object.keys(FLASH_MESSAGES) as FlashCode[];

  it('reads back every code a producer writes', () => {
    for (const code of codes) {
      const url = new URL(withFlash('/account/subscriptions/sub_1', code), 'http://app.test');
      expect(url.pathname).toBe('/account/subscriptions/sub_1');
      expect(parseFlash(url.searchParams.get('flash') ?? undefined)).toBe(code);
    }
    expect(withFlash('/checkout/test?planId=pln_1', 'already_subscribed')).toBe('/checkout/test?planId=pln_1&flash=already_subscribed');
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['unknown', 'key_already_revoked'],
    ['free text', 'You have won a prize'],
    ['an inherited property', 'toString'],
    ['repeated', ['plan_changed', 'cancelled']],
  ])('shows nothing for a parameter that is %s', (_case, value) => expect(parseFlash(value)).toBeNull());
});

import { describe, expect, it } from 'vitest';
import {
  describePlan,
  formatAmount,
  formatCompact,
  formatDate,
  formatDateTime,
  formatDayMonth,
  formatInteger,
  formatMonth,
  formatMonthlyPrice,
  formatPrice,
  formatTime,
  plural,
} from './format';

describe('formatting', () => {
  it.each([
    [1900, 'usd', '$19'],
    [1950, 'usd', '$19.50'],
    [4999, 'USD', '$49.99'],
    [0, 'usd', 'Free'],
    [120000, 'eur', '€1,200'],
  ])('formatPrice(%i, %s) = %s', (cents, currency, text) => expect(formatPrice(cents, currency)).toBe(text));

  it.each([
    [1000, 'usd', '$10.00'],
    [1250, 'usd', '$12.50'],
    [0, 'usd', '$0.00'],
    [-250, 'usd', '-$2.50'],
    [123456, 'eur', '€1,234.56'],
  ])('formatAmount(%i, %s) = %s', (cents, currency, text) => expect(formatAmount(cents, currency)).toBe(text));

  it.each([
    [950, '950'],
    [1200, '1.2K'],
    [2_000_000, '2M'],
  ])('formatCompact(%i) = %s', (n, text) => expect(formatCompact(n)).toBe(text));

  it('formats dates and instants in UTC, with a word for none', () => {
    expect(formatDate('2026-01-31T23:30:00.000Z')).toBe('Jan 31, 2026');
    expect(formatDate(new Date('2026-02-01T00:30:00.000Z'))).toBe('Feb 1, 2026');
    expect(formatDate(null)).toBe('—');
    expect(formatDateTime('2026-01-31T23:30:00.000Z')).toBe('Jan 31, 2026, 11:30 PM UTC');
    expect(formatDateTime(undefined)).toBe('never');
    expect(formatTime('2026-01-31T23:30:00.000Z')).toBe('11:30 PM UTC');
    // A day as the analytics keep it (YYYY-MM-DD, UTC) reads like every other date on the pages.
    expect(formatDate('2026-10-29')).toBe('Oct 29, 2026');
    expect(formatDayMonth('2026-10-29')).toBe('Oct 29');
    expect(formatMonth('2026-10')).toBe('Oct 2026');
  });

  it('counts', () => {
    expect(formatInteger(1234567)).toBe('1,234,567');
    expect(plural(1, 'document')).toBe('1 document');
    expect(plural(1200, 'query', 'queries')).toBe('1,200 queries');
  });
});

describe('formatMonthlyPrice and describePlan', () => {
  it('never writes "Free/month" or "Free · Free"', () => {
    expect(formatMonthlyPrice(1_900, 'usd')).toBe('$19/month');
    expect(formatMonthlyPrice(0, 'usd')).toBe('free');
    expect(describePlan({ name: 'Starter', priceCents: 1_950, currency: 'usd' })).toBe('Starter plan · $19.50/month');
    expect(describePlan({ name: 'Taster', priceCents: 0, currency: 'usd' })).toBe('Taster plan · free');
    expect(describePlan({ name: 'Free', priceCents: 0, currency: 'usd' })).toBe('Free plan');
  });
});

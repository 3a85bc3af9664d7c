import { describe, expect, it } from 'vitest';
import { categoryLabel, formatCompact, formatDate, formatPrice, languageName, plural } from './format';

describe('marketplace formatting', () => {
  it.each([
    [1900, 'usd', '$19'],
    [1950, 'usd', '$19.50'],
    [4999, 'USD', '$49.99'],
    [0, 'usd', 'Free'],
    [120000, 'eur', '€1,200'],
  ])('formatPrice(%i, %s) = %s', (cents, currency, text) => expect(formatPrice(cents, currency)).toBe(text));

  it.each([
    [950, '950'],
    [1200, '1.2K'],
    [2_000_000, '2M'],
  ])('formatCompact(%i) = %s', (n, text) => expect(formatCompact(n)).toBe(text));

  it('formats dates in UTC', () => {
    expect(formatDate('2026-01-31T23:30:00.000Z')).toBe('Jan 31, 2026');
  });

  it('labels categories, languages and counts', () => {
    expect(categoryLabel('legal')).toBe('Legal');
    expect(languageName('fr')).toBe('French');
    expect(languageName('xx')).toBe('xx');
    expect(plural(1, 'document')).toBe('1 document');
    expect(plural(1200, 'query', 'queries')).toBe('1,200 queries');
  });
});

import { describe, expect, it } from 'vitest';
import { parseListingParams } from '@/lib/catalog';
import { friendlyListingError, pagePosition } from './listing-error';

describe('friendlyListingError', () => {
  it.each([
    [{ page: '0' }, 'That page number does not exist. Page numbers are whole numbers starting at 1.'],
    [{ page: 'abc' }, 'That page number does not exist. Page numbers are whole numbers starting at 1.'],
    [{ sort: 'cheapest' }, 'That sort order does not exist. Choose one from the Sort menu.'],
    [{ category: 'astrology' }, 'There is no such category. Pick one of the categories above.'],
    [{ query: 'x'.repeat(1000) }, 'The search text is too long or contains characters that cannot be searched. Try a shorter search.'],
  ])('%j', (params, expected) => {
    const parsed = parseListingParams(params);
    if (parsed.ok) throw new Error('expected a refusal');
    expect(friendlyListingError(parsed.parameter)).toBe(expected);
    expect(friendlyListingError(parsed.parameter)).not.toContain('Invalid');
  });

  it('an unknown parameter name gets a general sentence', () => {
    expect(friendlyListingError('whatever')).toBe('Part of this address could not be understood.');
  });
});

describe('pagePosition', () => {
  it.each([
    [1, 1, null],
    [1, 6, 'page 1 of 6'],
    [6, 6, 'page 6 of 6'],
    [99, 6, 'past the last page (6)'],
    [2, 0, 'no pages'],
  ] as const)('page %i of %i', (page, total, expected) => {
    expect(pagePosition(page, total)).toBe(expected);
  });
});

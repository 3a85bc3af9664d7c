import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LISTING_LIMITS } from '@/lib/publishing';
import { descriptionCount, ListingForm, type ListingValues } from './listing-form';
import { NEW_LISTING_VALUES } from './new-listing';

const categories = [
  { value: 'education', label: 'Education' },
  { value: 'research', label: 'Research' },
];
const initial = NEW_LISTING_VALUES;
const render = (values: Partial<ListingValues>) =>
  renderToStaticMarkup(
    createElement(ListingForm, {
      action: async (state) => state,
      initial: { ...initial, ...values },
      publisherName: 'Fen Society',
      categories,
      knownTags: ['ecology'],
      limits: LISTING_LIMITS,
      submitLabel: 'Create draft',
      updatedAt: '2026-01-01T00:00:00.000Z',
    }),
  );
/** The preview card's category badge: the first pill in the card, as text (its icon is an inline SVG). */
const badge = (html: string) => /<article[^>]*>.*?<span class="[^"]*rounded-full[^"]*">(.*?)<\/span>/s.exec(html)?.[1]?.replace(/<[^>]+>/g, '');

describe('ListingForm preview', () => {
  it('shows "No category yet" until a category is chosen, not the first category', () => {
    expect(badge(render({}))).toBe('No category yet');
  });

  it('shows the chosen category', () => {
    expect(badge(render({ category: 'research' }))).toBe('Research');
  });
});

describe('descriptionCount', () => {
  it.each([
    ['', '0 of 10,000 characters.'],
    ['a\nb', '3 of 10,000 characters.'],
    ['x'.repeat(10_000), '10,000 of 10,000 characters: the limit, so text pasted beyond it was left out.'],
  ])('%#', (text, expected) => expect(descriptionCount(text, LISTING_LIMITS.description.max)).toBe(expected));
});

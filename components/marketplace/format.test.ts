import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '@/lib/catalog';
import { categoryLabel, languageName } from './format';

describe('marketplace vocabulary', () => {
  it('labels categories and languages', () => {
    expect(categoryLabel('legal')).toBe('Legal');
    // Every category of the database enum has its own display name.
    expect(new Set(CATEGORIES.map(categoryLabel)).size).toBe(CATEGORIES.length);
    for (const category of CATEGORIES) expect(categoryLabel(category)).toMatch(/^[A-Z]/);
    expect(languageName('fr')).toBe('French');
    expect(languageName('en-GB')).toBe('English');
    expect(languageName('xx')).toBe('xx');
  });
});

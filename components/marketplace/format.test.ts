import { describe, expect, it } from 'vitest';
import { categoryLabel, languageName } from './format';

describe('marketplace vocabulary', () => {
  it('labels categories and languages', () => {
    expect(categoryLabel('legal')).toBe('Legal');
    expect(categoryLabel('maritime')).toBe('Maritime');
    expect(languageName('fr')).toBe('French');
    expect(languageName('en-GB')).toBe('English');
    expect(languageName('xx')).toBe('xx');
  });
});

import { describe, expect, it } from 'vitest';
import { publisherColour, publisherColourHex, publisherInitials } from './publisher-mark';

describe('publisher marks', () => {
  it.each([
    ['Civic Texts Collective', 'CT'],
    ['The Harbor Institute', 'HI'],
    ['Instituto de Salud', 'IS'],
    ['Lexica', 'L'],
    ['ÉcoleData', 'É'],
    ['the', 'T'],
    ['***', '?'],
  ])('%j → %j', (name, initials) => expect(publisherInitials(name)).toBe(initials));

  it('gives one publisher one colour', () => {
    expect(publisherColour('civic-texts')).toBe(publisherColour('civic-texts'));
    expect(publisherColour('civic-texts')).toMatch(/^bg-\w+-700$/);
  });

  it('draws the social preview image in the colour of the page mark', () => {
    const slugs = ['civic-texts', 'greenline-health', 'lexica', 'harbor-institute', 'ecoledata', 'instituto-de-salud'];
    const pairs = new Set(slugs.map((slug) => `${publisherColour(slug)} ${publisherColourHex(slug)}`));
    const classes = new Set(slugs.map(publisherColour));
    // One hex per class: the image and the page never disagree.
    expect(pairs.size).toBe(classes.size);
    for (const slug of slugs) expect(publisherColourHex(slug)).toMatch(/^#[0-9a-f]{6}$/);
  });
});

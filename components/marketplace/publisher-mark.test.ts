import { describe, expect, it } from 'vitest';
import { publisherColour, publisherInitials } from './publisher-mark';

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
});

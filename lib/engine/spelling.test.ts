import { describe, expect, it } from 'vitest';
import { allowedEdits, editDistance, mayBeMisspelt } from './spelling';

describe('editDistance', () => {
  it.each([
    ['reticulm', 'reticulum', 1], // a letter left out
    ['corupt', 'corrupt', 1],
    ['beriod', 'beroid', 1], // two neighbours swapped count once
    ['randomis', 'randomiz', 1],
    ['columbain', 'columbian', 1],
    ['statin', 'station', 1],
    ['kitten', 'sitting', 3],
    ['same', 'same', 0],
  ])('%s → %s: %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it('stops past its limit', () => {
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    expect(editDistance('short', 'a much longer word', 2)).toBe(3);
  });
});

describe('which words are looked up', () => {
  it('only long, plain words that general English does not use', () => {
    expect(mayBeMisspelt('reticulm', 'reticulm')).toBe(true);
    expect(mayBeMisspelt('coruption', 'corupt')).toBe(true);
    expect(mayBeMisspelt('station', 'station')).toBe(false); // a word of English the knowledge base may simply lack
    expect(mayBeMisspelt('teh', 'teh')).toBe(false); // too short to tell
    expect(mayBeMisspelt('h1n1flu', 'h1n1flu')).toBe(false); // digits: a name, not a misspelling
  });

  it('two edits only for words of nine letters or more', () => {
    expect(allowedEdits('ferdinnand')).toBe(2);
    expect(allowedEdits('reticulm')).toBe(1);
  });
});

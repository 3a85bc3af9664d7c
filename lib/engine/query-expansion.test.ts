import { describe, expect, it } from 'vitest';
import { compoundNumbers, numberAliases } from './query-expansion';

describe('number aliases', () => {
  it('looks an English number word up as its digits and digits as the word', () => {
    expect(numberAliases(['fifty', 'states', '70', 'one'], 'almanac')).toEqual([
      { word: 'fifty', spelled: '50' },
      { word: '70', spelled: 'seventy' },
    ]);
  });
  it('adds none outside English', () => {
    expect(numberAliases(['fifty', '50'], 'almanac_de')).toEqual([]);
  });
});

describe('compound numbers', () => {
  it('keeps the numbers the text-search parser keeps whole', () => {
    expect(compoundNumbers('What home average matches a clinic reading of 140/90? About 1.3 per million, 25,871 adults')).toEqual(['140/90', '1.3']);
  });
});

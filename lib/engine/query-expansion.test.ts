import { describe, expect, it } from 'vitest';
import { compoundTokens, isCompoundLexeme, numberAliases, romanNumeralAliases } from './query-expansion';

describe('number aliases', () => {
  it('looks an English number word up as its digits and digits as the word', () => {
    expect(numberAliases(['fifty', 'states', '70', 'one'], 'almanac')).toEqual([
      { word: 'fifty', spelled: '50' },
      { word: '70', spelled: 'seventy' },
    ]);
  });
  it('looks an ordinal up in digits and in words, and a number counting a season or a part as its ordinal', () => {
    expect(numberAliases(['when', 'was', 'the', '19th', 'amendment', 'ratified'], 'almanac')).toEqual([{ word: '19th', spelled: 'nineteenth' }]);
    expect(numberAliases(['the', 'second', 'amendment'], 'almanac')).toEqual([{ word: 'second', spelled: '2nd' }]);
    expect(numberAliases(['season', '2', 'of', 'the', 'show'], 'almanac')).toEqual([
      { word: '2', spelled: 'two' },
      { word: '2', spelled: 'second' },
    ]);
    // Two hours are not the second hour, and "22nd" is no ordinal of the table (nor is the misspelt "2th").
    expect(numberAliases(['2', 'hours', '22nd', '2th'], 'almanac')).toEqual([{ word: '2', spelled: 'two' }]);
  });
  it('adds none outside English', () => {
    expect(numberAliases(['fifty', '50'], 'almanac_de')).toEqual([]);
  });
});

describe('Roman numeral aliases', () => {
  const spelled = (query: string) => romanNumeralAliases(query).map((a) => `${a.word}=${a.spelled}`);
  it('looks a numeral after a name or a numbered noun up as its number, in digits and in words', () => {
    expect(spelled('What started World War I?')).toEqual(['i=1st', 'i=first']);
    expect(spelled('Is type I diabetes inherited?')).toEqual(['i=1st', 'i=first']);
    expect(spelled('Who was Henry VIII?')).toEqual(['viii=8th', 'viii=eighth', 'viii=8']);
    expect(spelled('Which drugs are Schedule II?')).toEqual(['ii=2nd', 'ii=second', 'ii=2']);
    expect(spelled('Where was Super Bowl LII played?')).toEqual(['lii=52nd', 'lii=52']);
  });
  it('leaves the pronoun, single letters, letters of longer names and numbers as typed alone', () => {
    const none = [
      'Can I get a refund?',
      'What should I do if it hurts?',
      'Did Mary and I win?',
      'Is an IV drip safe?',
      'Roe v. Wade',
      'What does Article V say?',
      'How does I/O work?',
      'Where does a Form I-9 go?',
      'Why is the ii-V-I progression common?',
      'When did season 2 start?',
      'When did the Second World War end?',
    ];
    for (const query of none) expect(spelled(query), query).toEqual([]);
  });
});

describe('compound numbers', () => {
  it('keeps the numbers the text-search parser keeps whole', () => {
    expect(compoundTokens('What home average matches a clinic reading of 140/90? About 1.3 per million, 25,871 adults')).toEqual(['140/90', '1.3']);
  });

  it('keeps domains, addresses, URLs and versioned names whole, as the text-search parser does', () => {
    expect(compoundTokens('Does kraftrecipes.com share my e-mail (jo.smith@example.org) with https://ads.example.net/track?')).toEqual([
      'kraftrecipes.com',
      'jo.smith@example.org',
      'ads.example.net/track',
    ]);
    expect(compoundTokens('Is GPT-4o better than COVID-19 models or a light-year?')).toEqual(['GPT-4o', 'COVID-19']);
    expect(['kraftrecipes.com', 'gpt-4o', '-19', '140/90', 'jo@example.org'].every(isCompoundLexeme)).toBe(true);
    expect(['light', 'covid', '19'].some(isCompoundLexeme)).toBe(false);
  });
});

import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import {
  MAX_SEARCH_WORDS,
  extractSearchWords,
  foldSearchText,
  lexemesTsquery,
  normaliseTypedText,
  parseSearchTerms,
  searchTsquery,
  startsWithPattern,
} from './search-query';

describe('foldSearchText', () => {
  it.each([
    ['Société', 'societe'],
    ['SOCIÉTÉ', 'societe'],
    ['Constitución', 'constitucion'],
    ['Ärztliche Übersicht', 'arztliche ubersicht'],
    ['ﬁnance', 'finance'], // NFKD expands the ligature
  ])('%s → %s', (input, expected) => {
    expect(foldSearchText(input)).toBe(expected);
  });
});

describe('extractSearchWords', () => {
  it.each<[string, string[]]>([
    ['  Constitution   of the U.S. ', ['constitution', 'of', 'the', 'u', 's']],
    ['o\'brien "quoted" a&b|c!(d):*e\\f<->g', ['o', 'brien', 'quoted', 'a', 'b', 'c', 'd', 'e', 'f', 'g']],
    ['!!! ()&|:* <-> \\ \' "', []],
    ['', []],
    ['GDPR-2018 rules', ['gdpr', '2018', 'rules']],
    ['日本語 テキスト', ['日本語', 'テキスト']],
  ])('%j', (input, expected) => {
    expect(extractSearchWords(input)).toEqual(expected);
  });

  it(`keeps at most ${MAX_SEARCH_WORDS} words`, () => {
    const text = Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ');
    const words = extractSearchWords(text);
    expect(words).toHaveLength(MAX_SEARCH_WORDS);
    expect(words[0]).toBe('w0');
    expect(words.at(-1)).toBe(`w${MAX_SEARCH_WORDS - 1}`);
  });

  it('drops runs too long to be words', () => {
    expect(extractSearchWords(`${'x'.repeat(200)} law`)).toEqual(['law']);
  });
});

describe('parseSearchTerms', () => {
  it('returns null when there is no word', () => {
    expect(parseSearchTerms('')).toBeNull();
    expect(parseSearchTerms(null)).toBeNull();
    expect(parseSearchTerms('\'"&|!():*\\<->')).toBeNull();
  });

  it('ANDs the leading words and makes the last one a prefix', () => {
    expect(parseSearchTerms('World History ess')).toEqual({
      words: ['world', 'history', 'ess'],
      leading: "'world' & 'history'",
      last: "'ess'",
      lastPrefix: "'ess':*",
    });
  });

  it('has no leading part for one word', () => {
    expect(parseSearchTerms('constit')).toMatchObject({ leading: null, last: "'constit'", lastPrefix: "'constit':*" });
  });

  it('never lets an operator or quote into the tsquery strings', () => {
    const terms = parseSearchTerms('a\' | b:* & !c) (d \\ <-> e"')!;
    for (const part of [terms.leading!, terms.last, terms.lastPrefix]) {
      // Only the quotes, operators and prefix marker we add ourselves may appear.
      expect(part.replace(/'[\p{L}\p{N}]+'(:\*)?/gu, '').replace(/ [&|] /g, '')).toBe('');
    }
  });
});

describe('searchTsquery', () => {
  const dialect = new PgDialect();

  it('passes the words as bind parameters, never inline', () => {
    const { sql: text, params } = dialect.sqlToQuery(searchTsquery(parseSearchTerms('climate pol')!));
    expect(text).toBe("(to_tsquery('almanac', $1) && (to_tsquery('almanac', $2) || to_tsquery('almanac_simple', $3)))");
    expect(params).toEqual(["'climate'", "'pol'", "'pol':*"]);
  });

  it('has a single group for one word', () => {
    const { sql: text, params } = dialect.sqlToQuery(searchTsquery(parseSearchTerms('Société')!));
    expect(text).toBe("(to_tsquery('almanac', $1) || to_tsquery('almanac_simple', $2))");
    expect(params).toEqual(["'societe'", "'societe':*"]);
  });
});

describe('prefix stems', () => {
  const dialect = new PgDialect();

  it('ORs them into the last word as one more bind parameter', () => {
    const { sql: text, params } = dialect.sqlToQuery(searchTsquery(parseSearchTerms('handbook constitutio')!, ['constitut']));
    expect(text).toBe("(to_tsquery('almanac', $1) && (to_tsquery('almanac', $2) || to_tsquery('almanac_simple', $3) || $4::tsquery))");
    expect(params).toEqual(["'handbook'", "'constitutio'", "'constitutio':*", "'constitut'"]);
  });

  it('quotes lexemes for the tsquery syntax, whatever they contain', () => {
    expect(lexemesTsquery(['constitut', 'ratif'])).toBe("'constitut' | 'ratif'");
    expect(lexemesTsquery(["o'brien", 'a\\b'])).toBe("'o''brien' | 'a\\\\b'");
  });

  it('escapes LIKE wildcards in a prefix', () => {
    expect(startsWithPattern('constit')).toBe('constit%');
    expect(startsWithPattern('50%_off\\')).toBe('50\\%\\_off\\\\%');
  });
});

describe('text as people type it (issue 17)', () => {
  it.each<[string, string]>([
    ['U.S. Constitution', 'US. Constitution'],
    ['the U.S.A. and the U.K', 'the USA. and the UK'],
    ['e.g. i.e.', 'eg. ie.'],
    ["GDPR Practitioner's Guide", 'GDPR Practitioner Guide'],
    ['Practitioner’s', 'Practitioner'],
    ['J. K. Rowling', 'J. K. Rowling'], // spaced initials stay apart
    ['a.bc x.y.zz', 'a.bc xy.zz'], // only one-letter runs join, as almanac_search_text does
  ])('%j → %j', (input, expected) => {
    expect(normaliseTypedText(input)).toBe(expected);
  });

  it('a dotted abbreviation is one word; leading words typed in capitals are also matched unstemmed', () => {
    expect(parseSearchTerms('U.S. constitution')).toEqual({
      words: ['us', 'constitution'],
      leading: null,
      last: "'constitution'",
      lastPrefix: "'constitution':*",
      capitals: ["'us'"],
    });
    expect(parseSearchTerms('WHO guidelines on diet')).toMatchObject({ leading: "'guidelines' & 'on'", capitals: ["'who'"] });
    expect(parseSearchTerms('who guidelines')).not.toHaveProperty('capitals');
  });
});

import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_WORDS, extractSearchWords, foldSearchText, lexemesTsquery, parseSearchTerms, searchTsquery, startsWithPattern } from './search-query';

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
    ["o'brien \"quoted\" a&b|c!(d):*e\\f<->g", ['o', 'brien', 'quoted', 'a', 'b', 'c', 'd', 'e', 'f', 'g']],
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
    expect(parseSearchTerms("'\"&|!():*\\<->")).toBeNull();
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
    const terms = parseSearchTerms("a' | b:* & !c) (d \\ <-> e\"")!;
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
    expect(text).toBe(
      "(to_tsquery('almanac', $1) && (to_tsquery('almanac', $2) || to_tsquery('almanac_simple', $3) || $4::tsquery))",
    );
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

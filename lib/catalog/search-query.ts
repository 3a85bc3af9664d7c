import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { itemAt } from '@/lib/platform/arrays';

/**
 * Free text → a safe PostgreSQL full-text query for the `almanac` (stemmed) and `almanac_simple` configurations.
 * Safety: only runs of letters and digits survive, so no quote or tsquery operator can reach `to_tsquery`.
 * Every word must match (AND), the last also as a prefix while typing; case and accents never matter; English stop
 * words are dropped unless typed in capitals ("WHO"); dotted abbreviations and possessives are read as the catalogue's
 * vector reads them (migration 0016). Text without any word yields null, which matches nothing.
 */

export const MAX_SEARCH_WORDS = 32;
/** Longer "words" cannot be real words and Postgres refuses to index lexemes above 2 KB; they are dropped. */
const MAX_SEARCH_WORD_LENGTH = 64;

export interface SearchTerms {
  words: string[];
  leading: string | null;
  last: string;
  lastPrefix: string;
  capitals?: string[];
}

const WORD = /[\p{L}\p{N}]+/gu;
const COMBINING_MARK = /\p{M}+/gu;

export function foldSearchText(text: string): string {
  return text.normalize('NFKD').replace(COMBINING_MARK, '').toLowerCase();
}

export function extractSearchWords(text: string): string[] {
  const words: string[] = [];
  for (const match of foldSearchText(text).matchAll(WORD)) {
    const word = match[0];
    if (word.length > MAX_SEARCH_WORD_LENGTH) continue;
    words.push(word);
    if (words.length === MAX_SEARCH_WORDS) break;
  }
  return words;
}

// Words hold only letters and digits, so quoting cannot be broken; the replace is a second line of defence.
const quote = (word: string) => `'${word.replace(/['\\]/g, '')}'`;

// almanac_search_text's regular expression (migration 0016); ASCII letters, as [[:alpha:]] in the C locale.
const DOTTED_ABBREVIATION = /(?<![\p{L}\p{N}_])([A-Za-z])\.(?=[A-Za-z](?![\p{L}\p{N}_]))/gu;
const POSSESSIVE = /(?<=[\p{L}\p{N}])['’]s(?![\p{L}\p{N}])/gu;
const CAPITALS = /^\p{Lu}{2,}$/u;

export function normaliseTypedText(text: string): string {
  return text.replace(POSSESSIVE, '').replace(DOTTED_ABBREVIATION, '$1');
}

export function parseSearchTerms(text: string | null | undefined): SearchTerms | null {
  if (!text) return null;
  const normalised = normaliseTypedText(text);
  const words = extractSearchWords(normalised);
  if (words.length === 0) return null;
  const quoted = words.map(quote);
  const lastQuoted = itemAt(quoted, quoted.length - 1);
  const typedInCapitals = new Set(
    [...normalised.normalize('NFKD').replace(COMBINING_MARK, '').matchAll(WORD)]
      .map((m) => m[0])
      .filter((w) => CAPITALS.test(w))
      .map((w) => w.toLowerCase()),
  );
  const capitals = [...new Set(words.slice(0, -1).filter((w) => typedInCapitals.has(w)))].map(quote);
  const plainLeading = quoted.slice(0, -1).filter((q) => !capitals.includes(q));
  return {
    words,
    leading: plainLeading.length > 0 ? plainLeading.join(' & ') : null,
    last: lastQuoted,
    lastPrefix: `${lastQuoted}:*`,
    ...(capitals.length > 0 ? { capitals } : {}),
  };
}

export function lexemesTsquery(lexemes: string[]): string {
  return lexemes.map((lexeme) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | ');
}

export function startsWithPattern(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Leading words AND (last word OR last word as a prefix), one GIN-indexable tsquery. On a stems-only vector a prefix
 * that runs past its stem ("constitutio") misses, hence `prefixStems`, looked up by the caller.
 */
export function searchTsquery(terms: SearchTerms, prefixStems: string[] = []): SQL {
  const lastWord = lastWordTsquery(terms, prefixStems);
  const parts = [...(terms.leading ? [sql`to_tsquery('almanac', ${terms.leading})`] : []), ...capitalWords(terms)];
  if (parts.length === 0) return lastWord;
  return sql`(${sql.join([...parts, lastWord], sql` && `)})`;
}

function lastWordTsquery(terms: SearchTerms, prefixStems: string[]): SQL {
  const expansion = prefixStems.length > 0 ? sql` || ${lexemesTsquery(prefixStems)}::tsquery` : sql``;
  return sql`(to_tsquery('almanac', ${terms.last}) || to_tsquery('almanac_simple', ${terms.lastPrefix})${expansion})`;
}

// A word typed in capitals: its stem, or the word itself as the vector keeps a capitalised stop word ("WHO").
const capitalWords = (terms: SearchTerms): SQL[] =>
  (terms.capitals ?? []).map((word) => sql`(to_tsquery('almanac', ${word}) || to_tsquery('almanac_simple', ${word}))`);

export function isOneWordSearch(terms: SearchTerms): boolean {
  return !terms.leading && (terms.capitals ?? []).length === 0;
}

export function anyWordTsquery(terms: SearchTerms, prefixStems: string[] = []): SQL {
  const parts = [
    ...(terms.leading ? [sql`to_tsquery('almanac', ${terms.leading.replaceAll(' & ', ' | ')})`] : []),
    ...capitalWords(terms),
    lastWordTsquery(terms, prefixStems),
  ];
  return parts.length === 1 ? itemAt(parts, 0) : sql`(${sql.join(parts, sql` || `)})`;
}

export function matchSearchVector(vector: AnyColumn | SQL, terms: SearchTerms, prefixStems: string[] = []): SQL {
  return sql`${vector} @@ ${searchTsquery(terms, prefixStems)}`;
}

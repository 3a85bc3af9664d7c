import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { itemAt } from '@/lib/platform/arrays';

/**
 * Turns free text typed by a user into a safe PostgreSQL full-text query for the `almanac` (stemmed, accent-folding)
 * and `almanac_simple` (unstemmed, accent-folding) configurations of db/migrations/0001_search.sql.
 *
 * Safety: only runs of Unicode letters and digits (`[\p{L}\p{N}]+`) survive, so no quote, backslash or tsquery
 * operator (`' " & | ! ( ) : * \ <->`) can ever reach `to_tsquery`; each word is additionally single-quoted.
 *
 * Semantics of the catalogue's search (the hosted engine shares the word extraction and folding):
 * - every word must match as a whole, stemmed word (AND);
 * - the LAST word also matches as a prefix of a word, so "constit" finds "constitution" while typing: as a prefix of
 *   the stems, plus the stems of known words that begin with it when it runs past their stem ("constitutio");
 * - case and accents never matter ("societe" finds "Société"): JS folds them here and the configs fold them again;
 * - English stop words used as whole words are dropped by the stemmer (PostgreSQL ignores them inside the AND), so
 *   "history of the world" means "history world". A query made only of stop words therefore matches only through
 *   the prefix of its last word ("the" finds "the…" words such as "theory", not "the" itself); it never errors;
 * - text without any usable word (only punctuation, or only runs longer than MAX_SEARCH_WORD_LENGTH) yields `null`;
 *   the catalogue then matches nothing (a search was asked for and nothing can satisfy it);
 * - as people type them (issue 17): a dotted abbreviation is one word ("U.S." = "US" = "us", "U.S.A." = "usa"), the
 *   rule the catalogue's vector applies to its text (`almanac_search_text`, migration 0016); a possessive "'s" is
 *   dropped ("Practitioner's" = "practitioner"); a word typed in capitals that English drops as a stop word ("WHO",
 *   "IT") still counts, matched unstemmed against the capitalised words the vector keeps (`almanac_text_vector`).
 */

/** At most this many words are used; the rest of a long query is ignored (bounds the work done by Postgres). */
export const MAX_SEARCH_WORDS = 32;
/** Longer "words" cannot be real words and Postgres refuses to index lexemes above 2 KB; they are dropped. */
const MAX_SEARCH_WORD_LENGTH = 64;

export interface SearchTerms {
  /** Normalised words in query order (lower-case, accents removed, only letters and digits). */
  words: string[];
  /** `'w1' & 'w2'` for every word but the last (for `to_tsquery('almanac', …)`); null for a one-word query. */
  leading: string | null;
  /** The last word, quoted: `'w3'` (for `to_tsquery('almanac', …)`). */
  last: string;
  /** The last word as a prefix: `'w3':*` (for `to_tsquery('almanac_simple', …)`). */
  lastPrefix: string;
  /** Leading words typed in capitals (two letters or more: "WHO", "US"), quoted; also matched unstemmed. */
  capitals?: string[];
}

const WORD = /[\p{L}\p{N}]+/gu;
const COMBINING_MARK = /\p{M}+/gu;

/** Lower-cases and strips accents (NFKD, then drops combining marks): "SOCIÉTÉ" → "societe". */
export function foldSearchText(text: string): string {
  return text.normalize('NFKD').replace(COMBINING_MARK, '').toLowerCase();
}

/** Splits text into normalised search words (folded, capped; over-long runs dropped). */
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

// The regular expression of almanac_search_text (migration 0016): a one-letter word followed by a dot and another
// one-letter word loses the dot ("U.S.A." → "USA."). ASCII letters, as PostgreSQL's [[:alpha:]] in the C locale.
const DOTTED_ABBREVIATION = /(?<![\p{L}\p{N}_])([A-Za-z])\.(?=[A-Za-z](?![\p{L}\p{N}_]))/gu;
const POSSESSIVE = /(?<=[\p{L}\p{N}])['’]s(?![\p{L}\p{N}])/gu;
const CAPITALS = /^\p{Lu}{2,}$/u;

/** Text as the catalogue's vector reads it: dotted abbreviations joined, possessives dropped; case kept. */
export function normaliseTypedText(text: string): string {
  return text.replace(POSSESSIVE, '').replace(DOTTED_ABBREVIATION, '$1');
}

/** Parses user text into tsquery strings; null when the text contains no word at all. */
export function parseSearchTerms(text: string | null | undefined): SearchTerms | null {
  if (!text) return null;
  const normalised = normaliseTypedText(text);
  const words = extractSearchWords(normalised);
  if (words.length === 0) return null;
  const quoted = words.map(quote);
  const lastQuoted = itemAt(quoted, quoted.length - 1);
  // Words typed in capitals, found the way extractSearchWords finds words but before folding the case away.
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

/**
 * A tsquery literal that ORs lexemes exactly as given (already stemmed, already folded): `'a' | 'b'`.
 * Backslashes and quotes are escaped as the tsquery input syntax requires, so any lexeme is safe.
 */
export function lexemesTsquery(lexemes: string[]): string {
  return lexemes.map((lexeme) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | ');
}

/** A LIKE pattern matching every string that begins with `prefix` (wildcards in the prefix escaped). */
export function startsWithPattern(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The tsquery expression: all leading words stemmed AND (last word stemmed OR last word as a prefix).
 * One tsquery, so `vector @@ it` is a single GIN-indexable condition. Values travel as bind parameters.
 *
 * The prefix is matched against the vector's lexemes. On a stems-only vector (the catalogue's, the engine's) that
 * misses a partly typed word that runs past its stem ("constitutio" vs the stem "constitut"): `prefixStems` adds
 * the stems of the known words that begin with the last word, looked up by the caller (lib/catalog/listing.ts).
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

/** True when the search is one word: matching any of its words is then matching all of them. */
export function isOneWordSearch(terms: SearchTerms): boolean {
  return !terms.leading && (terms.capitals ?? []).length === 0;
}

/**
 * A tsquery matching ANY of the words (each as `searchTsquery` matches it): the `relevance` sort ranks a title
 * holding some of the words above one holding none (lib/catalog/listing.ts).
 */
export function anyWordTsquery(terms: SearchTerms, prefixStems: string[] = []): SQL {
  const parts = [
    ...(terms.leading ? [sql`to_tsquery('almanac', ${terms.leading.replaceAll(' & ', ' | ')})`] : []),
    ...capitalWords(terms),
    lastWordTsquery(terms, prefixStems),
  ];
  return parts.length === 1 ? itemAt(parts, 0) : sql`(${sql.join(parts, sql` || `)})`;
}

/** `vector @@ tsquery` for a tsvector column such as `catalog_search.search_vector` or `chunks.search_vector`. */
export function matchSearchVector(vector: AnyColumn | SQL, terms: SearchTerms, prefixStems: string[] = []): SQL {
  return sql`${vector} @@ ${searchTsquery(terms, prefixStems)}`;
}

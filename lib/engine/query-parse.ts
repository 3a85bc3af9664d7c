import { extractSearchWords, foldSearchText } from '@/lib/catalog';
import { capture } from '@/lib/platform/arrays';

/**
 * A buyer's question → the words to rank with, the quoted phrases that must occur, and the last word to match as a
 * prefix. Words pass through lib/catalog/search-query's extractor (letters and digits only), so nothing the user types
 * can reach tsquery syntax; phrases are handed to phraseto_tsquery as plain words.
 */
export interface ParsedQuery {
  /** Folded (lower-case, accent-free) words, deduplicated, in question order. */
  words: string[];
  /**
   * Each word as typed (lower-case, accents kept), aligned with `words`: stop words are recognised on this spelling
   * ("für", "qué" are German and Spanish stop words; "fur", "que" need not be).
   */
  spelled: string[];
  /** Each phrase as its words (two or more). */
  phrases: string[][];
  /** The last word, matched as a prefix when it is not a known word of the knowledge base (typing). */
  prefixWord: string | null;
}

const QUOTED = /["“”„«»]([^"“”„«»]+)["“”„«»]/g;
const WORD = /[\p{L}\p{N}]+/gu;

export function parseQuery(text: string): ParsedQuery {
  const phrases: string[][] = [];
  for (const match of text.matchAll(QUOTED)) {
    const words = extractSearchWords(capture(match, 1));
    if (words.length >= 2) phrases.push(words);
  }
  const all = extractSearchWords(text);
  const words = [...new Set(all)];
  const spelling = new Map<string, string>();
  for (const m of text.normalize('NFC').toLowerCase().matchAll(WORD)) {
    const folded = foldSearchText(m[0]);
    if (!spelling.has(folded)) spelling.set(folded, m[0]);
  }
  const endsWithQuote = /["“”„«»]\s*[?.!]*\s*$/.test(text);
  const last = all[all.length - 1];
  return {
    words,
    spelled: words.map((w) => spelling.get(w) ?? w),
    phrases: phrases.slice(0, 4),
    prefixWord: last && !endsWithQuote && last.length >= 3 ? last : null,
  };
}

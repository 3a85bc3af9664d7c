import { extractSearchWords } from '@/lib/catalog';

/**
 * A buyer's question → the words to rank with, the quoted phrases that must occur, and the last word to match as a
 * prefix. Words pass through lib/catalog/search-query's extractor (letters and digits only), so nothing the user types
 * can reach tsquery syntax; phrases are handed to phraseto_tsquery as plain words.
 */
export interface ParsedQuery {
  words: string[];
  /** Each phrase as its words (two or more). */
  phrases: string[][];
  /** The last word, matched as a prefix when it is not a known word of the knowledge base (typing). */
  prefixWord: string | null;
}

const QUOTED = /["“”„«»]([^"“”„«»]+)["“”„«»]/g;

export function parseQuery(text: string): ParsedQuery {
  const phrases: string[][] = [];
  for (const match of text.matchAll(QUOTED)) {
    const words = extractSearchWords(match[1]);
    if (words.length >= 2) phrases.push(words);
  }
  const all = extractSearchWords(text);
  const words = [...new Set(all)];
  const endsWithQuote = /["“”„«»]\s*[?.!]*\s*$/.test(text);
  const last = all[all.length - 1];
  return { words, phrases: phrases.slice(0, 4), prefixWord: last && !endsWithQuote && last.length >= 3 ? last : null };
}

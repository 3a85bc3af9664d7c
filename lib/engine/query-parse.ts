import { extractSearchWords, foldSearchText } from '@/lib/catalog';
import { capture } from '@/lib/platform/arrays';

/** A question's words, quoted phrases and prefix word: letters and digits only, so nothing typed reaches tsquery syntax. */
export interface ParsedQuery {
  words: string[];
  /** As typed, aligned with `words`: "für", "qué" are stop words; their folded "fur", "que" need not be. */
  spelled: string[];
  phrases: string[][];
  prefixWord: string | null;
}

const QUOTED = /["“”„«»]([^"“”„«»]+)["“”„«»]/g;

/**
 * English contractions typed without their apostrophe ("whats", "dont", "cant get you out of my head"): function words,
 * as "what's" and "don't" are, never words the buyer asks about. Spellings that are common words of their own ("ill",
 * "were", "well", "id", "shed") are left alone; "cant" and "wont" are rarely meant as the nouns.
 */
const BARE_CONTRACTIONS = new Set(
  (
    'dont doesnt didnt isnt arent wasnt werent havent hasnt hadnt couldnt wouldnt shouldnt mustnt neednt cant wont aint ' +
    'whats thats theres wheres hows whos theyre youre im ive youve weve theyve youll theyll itll hes shes'
  ).split(' '),
);
const WORD = /[\p{L}\p{N}]+/gu;

export function parseQuery(text: string): ParsedQuery {
  const phrases: string[][] = [];
  for (const match of text.matchAll(QUOTED)) {
    const words = extractSearchWords(capture(match, 1));
    if (words.length >= 2) phrases.push(words);
  }
  const all = extractSearchWords(text).filter((w) => !BARE_CONTRACTIONS.has(w));
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

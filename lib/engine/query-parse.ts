import { extractSearchWords, foldSearchText } from '@/lib/catalog';
import { capture } from '@/lib/platform/arrays';
import { withoutRequestFrame } from './answer-type';

/** A question's words, quoted phrases and prefix word: letters and digits only, so nothing typed reaches tsquery syntax. */
export interface ParsedQuery {
  words: string[];
  /** As typed, aligned with `words`: "für", "qué" are stop words; their folded "fur", "que" need not be. */
  spelled: string[];
  phrases: string[][];
  prefixWord: string | null;
  /**
   * What a negative contraction leaves in the index ("isn" of "isn't"): looked up as an alias (term-lookup.ts), so a
   * manual's "Signal Information isn't activated" still meets the question's "isn't", and a knowledge base without it
   * counts no rare word the question lacks.
   */
  negations: string[];
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

/**
 * English contractions with their apostrophe: split at it, "I'm" would ask about "m", "aren't" about "aren" and "won't"
 * about "won", none of them a stop word, each weighing as a rare word the knowledge base lacks. The clitic goes ("I'm" →
 * "I"); a negation leaves its verb ("aren't" → "are", "won't" → "will"), a stop word as "not" is, and what the index
 * holds of it ("aren") is kept apart (ParsedQuery.negations).
 */
const CLITIC = /(?<=\p{L})['’](?:m|re|ve|ll|d)(?![\p{L}\p{N}])/giu;
const NEGATED = /(?<![\p{L}\p{N}])(\p{L}+)n['’]t(?![\p{L}\p{N}])/giu;
/** Stems whose negation is irregular ("can't", "won't"): no fragment of these is an index word worth looking up. */
const NEGATED_STEMS: Record<string, string> = { ca: 'can', wo: 'will', sha: 'shall', ai: 'is', do: 'do' };

function withoutContractions(text: string): { text: string; negations: string[] } {
  const negations: string[] = [];
  const rewritten = text.replace(CLITIC, '').replace(NEGATED, (_, stem: string) => {
    const irregular = NEGATED_STEMS[stem.toLowerCase()];
    if (!irregular) negations.push(`${foldSearchText(stem)}n`);
    return irregular ?? stem;
  });
  return { text: rewritten, negations: [...new Set(negations)] };
}

/**
 * Prepositions written as phrases ("in the context of", "with regard to"): their nouns name nothing the buyer asks about,
 * and a knowledge base that rarely says "context" would weigh it as the question's rarest word.
 */
const PHRASAL_PREPOSITION =
  /\b(?:(?:in|within) the context of|in terms of|with (?:regard|respect|reference) to|in relation to|as regards|in (?:the )?light of)\b/gi;

/**
 * What the question asks about, without the wording of asking: a request's own words ("Could you please provide
 * examples of…") and phrasal prepositions are not searched for, unless they are all there is.
 */
function askedText(typed: string): string {
  const asked = withoutRequestFrame(typed).replace(PHRASAL_PREPOSITION, ' ');
  return asked !== typed && extractSearchWords(asked).length > 0 ? asked : typed;
}

export function parseQuery(typed: string): ParsedQuery {
  const { text, negations } = withoutContractions(askedText(typed));
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
    negations,
  };
}

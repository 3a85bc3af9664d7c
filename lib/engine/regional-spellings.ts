import { createRequire } from 'node:module';

/**
 * British and American spellings of one English word ("diarrhoea" / "diarrhea", "randomisation" / "randomization",
 * "colour" / "color"): Snowball stems each to a lexeme of its own, so a question asked in one spelling missed a document
 * written in the other. Looked up as aliases of the question's word (term-lookup.ts), as irregular forms are, so
 * retrieval, the reader and the gate all see the match. The list: american-british-english-translator (MIT), about
 * 1,700 words each way, read once when first needed; an "-isation" word it lacks is paired by rule.
 */

/**
 * Pairs where the other spelling is, in American usage, mostly another word: a "tire" is tiring, a "draft" is not beer
 * ("draught"), a "ton" is not a metric "tonne", a "meter" measures.
 */
const ANOTHER_WORD = new Set('tire tires tyre tyres draft drafts draught draughts ton tons tonne tonnes meter meters'.split(' '));

/** Snowball stems "organized" and "organization" to "organ": looked up as aliases they would find the body's organs. */
const OVERSTEMMED = /^organiz/;

let pairs: Map<string, string> | null = null;

function load(): Map<string, string> {
  if (pairs) return pairs;
  const require = createRequire(import.meta.url);
  const british = require('american-british-english-translator/data/british_spellings.json') as Record<string, string>;
  const american = require('american-british-english-translator/data/american_spellings.json') as Record<string, string>;
  const map = new Map<string, string>();
  for (const [from, to] of [...Object.entries(british), ...Object.entries(american)]) {
    if (ANOTHER_WORD.has(from) || ANOTHER_WORD.has(to) || OVERSTEMMED.test(to) || !/^[a-z]+$/.test(from) || !/^[a-z]+$/.test(to)) continue;
    map.set(from, to);
  }
  pairs = map;
  return map;
}

/** "-isation" is British for "-ization" in every English word that ends so; the list lacks some ("randomisation"). */
const ISATION = /(is|iz)(ation|ations)$/;

/** The word's other regional spelling, or null. */
export function regionalSpelling(word: string): string | null {
  const w = word.toLowerCase();
  const listed = load().get(w);
  if (listed) return listed;
  const m = ISATION.exec(w);
  if (!m || w.length < 9) return null;
  const other = `${w.slice(0, m.index)}${m[1] === 'is' ? 'iz' : 'is'}${m[2]}`;
  return OVERSTEMMED.test(other) ? null : other;
}

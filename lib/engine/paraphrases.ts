import { lightStem } from './text';

/**
 * Everyday English paraphrases between how buyers ask and how reference texts state ("the last dose" / "the final
 * dose", "came back" / "returned", "must approve" / "ratification"). A lexical ranker cannot see them otherwise; the
 * table is small and general on purpose (no domain terms), and a paraphrase counts for less than the word itself.
 */
const GROUPS: readonly string[] = [
  'last, final',
  'begin, start, commence',
  'end, finish, conclude',
  'return, came back, come back, went back',
  'approve, ratify, ratification',
  'warn, notice, notify, notification',
  'ask, consult',
  'buy, purchase',
  'need, require, requirement',
  'allow, permit, permission',
  'ban, prohibit, forbid',
  'enough, sufficient',
  'quick, fast, rapid',
  'yearly, annual',
  'job, employment',
  'worker, employee',
  'boss, employer',
  'firm, company',
  'kid, child',
  'doctor, physician, clinician',
  'illness, disease',
  'medicine, medication, drug',
  'shot, injection, vaccination',
  'rule, govern',
  'die, death',
  'eat, ate, consume',
  'spend, spent',
  'pay, paid',
  'leave, left',
  'big, large',
  'small, little',
  'rich, wealthy',
  'poor, poverty',
  'home, house, housing',
  'rent, tenancy',
  'law, statute, legislation',
];

/**
 * A question word's light stem → the light stems of the words that paraphrase it in a text. One-word entries of a
 * group paraphrase each other; the words of a phrase ("came back") are paraphrased by the group's one-word entries,
 * never by each other.
 */
const PARAPHRASES = new Map<string, Set<string>>();
for (const group of GROUPS) {
  const entries = group.split(',').map((e) => e.trim().split(' ').map(lightStem));
  const single = entries.flatMap((e) => (e.length === 1 ? e : []));
  for (const entry of entries) {
    for (const s of entry) {
      const set = PARAPHRASES.get(s) ?? new Set<string>();
      for (const t of single) if (t !== s) set.add(t);
      PARAPHRASES.set(s, set);
    }
  }
}

/** How much a paraphrase covers of the question word it stands for. */
export const PARAPHRASE_WEIGHT = 0.8;

/** Light stem of a text's word → the question words it paraphrases. */
export function paraphraseIndex(questionWords: Iterable<string>): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const word of questionWords) {
    for (const other of PARAPHRASES.get(lightStem(word)) ?? []) index.set(other, [...(index.get(other) ?? []), word]);
  }
  return index;
}

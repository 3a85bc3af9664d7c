import { lightStem } from './text';

/** Everyday English paraphrases ("last" / "final"), general on purpose, counted below the word itself (docs/api.md §8.2). */
const GROUPS: readonly string[] = [
  'last, final',
  'begin, start, commence',
  'end, finish, conclude',
  'return, came back, come back, went back',
  'approve, ratify, ratification',
  'warn, notice, notify, notification',
  'tell, inform, notify',
  'answer, respond, response, reply, replied',
  'aim, target, goal',
  'stop, pause, suspend',
  'throw up, vomit',
  'ill, sick',
  'mom, mum, mother',
  'dad, father',
  'test, check',
  'sugar, glucose',
  'assume, assumption',
  'age, old',
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
  'pay, paid, earn',
  'leave, left',
  'big, large',
  'bigger, larger',
  'biggest, largest',
  'small, little',
  'rich, wealthy',
  'poor, poverty',
  'home, house, housing',
  'rent, tenancy',
  'law, statute, legislation',
];

/**
 * Each word's one-word paraphrases as written, under its lightStem. The words of a phrase ("came back") are paraphrased
 * by the group's one-word entries, never by each other. Kept as written because retrieval looks them up in the
 * knowledge base's own stemming; the reader matches them by lightStem (paraphraseIndex).
 */
const PARAPHRASES = new Map<string, Set<string>>();
for (const group of GROUPS) {
  const entries = group.split(',').map((e) => e.trim().split(' '));
  const single = entries.flatMap((e) => (e.length === 1 ? e : []));
  for (const word of entries.flat()) {
    const s = lightStem(word);
    const set = PARAPHRASES.get(s) ?? new Set<string>();
    for (const t of single) if (lightStem(t) !== s) set.add(t);
    PARAPHRASES.set(s, set);
  }
}

export const PARAPHRASE_WEIGHT = 0.8;

/** A question word's one-word paraphrases as written ("tell" → "inform", "notify"), for retrieval (term-lookup.ts). */
export const paraphraseSpellings = (word: string): string[] => [...(PARAPHRASES.get(lightStem(word)) ?? [])];

export function paraphraseIndex(questionWords: Iterable<string>): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const word of questionWords) {
    for (const other of new Set(paraphraseSpellings(word).map(lightStem))) index.set(other, [...(index.get(other) ?? []), word]);
  }
  return index;
}

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

/** The words of a phrase ("came back") are paraphrased by the group's one-word entries, never by each other. */
const PARAPHRASES = new Map<string, Set<string>>();
/** The same, as written: retrieval looks them up in the knowledge base's own stemming, not by lightStem. */
const SPELLINGS = new Map<string, Set<string>>();
for (const group of GROUPS) {
  const written = group.split(',').map((e) => e.trim().split(' '));
  const singleWritten = written.flatMap((e) => (e.length === 1 ? e : []));
  for (const entry of written) {
    for (const word of entry) {
      const s = lightStem(word);
      const set = PARAPHRASES.get(s) ?? new Set<string>();
      const spelled = SPELLINGS.get(s) ?? new Set<string>();
      for (const t of singleWritten) {
        if (lightStem(t) === s) continue;
        set.add(lightStem(t));
        spelled.add(t);
      }
      PARAPHRASES.set(s, set);
      SPELLINGS.set(s, spelled);
    }
  }
}

export const PARAPHRASE_WEIGHT = 0.8;

/** A question word's one-word paraphrases as written ("tell" → "inform", "notify"), for retrieval (term-lookup.ts). */
export const paraphraseSpellings = (word: string): string[] => [...(SPELLINGS.get(lightStem(word)) ?? [])];

export function paraphraseIndex(questionWords: Iterable<string>): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const word of questionWords) {
    for (const other of PARAPHRASES.get(lightStem(word)) ?? []) index.set(other, [...(index.get(other) ?? []), word]);
  }
  return index;
}

import { questionAnswerType, type AnswerType } from './answer-type';
import type { QueryTerm } from './types';
import { PARAPHRASE_WEIGHT, paraphraseIndex } from './paraphrases';
import { lightStem, STOP_WORDS, tokenize } from './text';
import { affinity as kbAffinity, generalRarity } from './general-frequency';
import type { SearchLanguage } from './language';

/**
 * A question as the answer composer reads it: its words weighted by IDF (framing words weigh less), the kind of answer
 * it asks for, and the word matching every other engine module uses.
 */

export type Lexicon = (word: string) => readonly string[];

/** A lexicon without the database (unit tests, words it was not asked about): the English light stemmer or the word. */
export function fallbackLexicon(terms: QueryTerm[]): Lexicon {
  return (word) => {
    if (STOP_WORDS.has(word)) return [];
    const stem = lightStem(word);
    const out = terms
      .filter((t) => lightStem(t.word) === stem || word === t.lexeme || (t.lexeme.length >= 4 && word.startsWith(t.lexeme)))
      .map((t) => t.lexeme);
    return out.length ? out : [stem];
  };
}

export function mapLexicon(map: Map<string, string[]>, terms: QueryTerm[]): Lexicon {
  const fallback = fallbackLexicon(terms);
  return (word) => map.get(word) ?? fallback(word);
}

export interface Question {
  text: string;
  language: SearchLanguage;
  type: AnswerType | null;
  weights: Map<string, number>;
  total: number;
  byLexeme: Map<string, { word: string; idf: number }>;
  order: string[];
  present: Set<string>;
  matched: Map<string, Map<string, number>>;
  framing: Set<string>;
  /** Uniform for a knowledge base in another language: the general-English table is English. */
  general: Map<string, number>;
  generalTotal: number;
  affinity: Map<string, number>;
  acronyms: Map<string, string[]>;
  paraphrases: Map<string, string[]>;
  /** The first parts of the question's hyphenated compounds ("two" of "two-factor"): a unit as the buyer wrote it. */
  compoundStarts: Set<string>;
  lexicon: Lexicon;
}

/** Framing words ("how often", "keep", "change") count for less, so that a shared "often" does not look like an answer. */
const FRAMING_WORDS = new Set(
  (
    'keep add make made set often many much change use need get take give best way work happen long first new good kind type thing ' +
    'usual typical mean call tell find know show help want like right go come put look start begin end stop try happen possible ' +
    'still also just ever even yet already really actually exactly basically please thank thanks hello hi okay ok anyone anything something ' +
    'would could might whether goes ' +
    'hacer tener mejor manera forma cosa bueno nuevo primero mucho saber ' +
    'machen haben gut besser beste art weise sache neu erste viel oft konnen sollen mussen wissen ' +
    'faire avoir meilleur maniere facon chose bon nouveau premier beaucoup souvent savoir'
  ).split(' '),
);
const FRAMING_WEIGHT = 0.4;
/**
 * Words that belong to the asking in one frame only: the verb that closes a question of how long, how much or how often
 * ("How long should carb loading last?", "How often does the filter run?"), as "long" does ("take" always frames), and
 * the "worth" of "Is it worth it?". The answer gives the duration or the return, seldom these words. "Cost" is not one
 * of them: a price is stated as what something costs, and the statement that does so for the instance asked about ("a
 * ride of 12 kilometres") should win on it.
 */
const FRAMES: readonly RegExp[] = [/^\s*how\s+(?:long|much|often)\b.*\b(last|lasts|stay|stays|remain|remains|run|runs)\s*[?.!]*\s*$/i, /\b(worth)\s+it\b/i];

export function analyseQuestion(text: string, terms: QueryTerm[], lexicon: Lexicon = fallbackLexicon(terms), language: SearchLanguage = 'en'): Question {
  const weights = new Map<string, number>();
  const general = new Map<string, number>();
  const affinity = new Map<string, number>();
  const byLexeme = new Map<string, { word: string; idf: number }>();
  const framing = new Set<string>();
  const framed = new Set(FRAMES.flatMap((frame) => frame.exec(text)?.[1]?.toLowerCase() ?? []));
  for (const t of terms) {
    const isFraming = FRAMING_WORDS.has(t.word) || FRAMING_WORDS.has(lightStem(t.word)) || framed.has(t.word);
    if (isFraming) framing.add(t.word);
    const idf = isFraming ? t.idf * FRAMING_WEIGHT : t.idf;
    weights.set(t.word, Math.max(weights.get(t.word) ?? 0, idf));
    general.set(t.word, (language === 'en' ? generalRarity(t.word) : 1) * (isFraming ? FRAMING_WEIGHT : 1));
    if (language === 'en') {
      const chunks = Math.max(1, (Math.exp(t.idf) - 1) * (t.docFreq + 0.5) + t.docFreq - 0.5);
      affinity.set(t.word, Math.max(affinity.get(t.word) ?? -Infinity, kbAffinity(t.word, t.docFreq, chunks)));
    }
    if (!byLexeme.has(t.lexeme)) byLexeme.set(t.lexeme, { word: t.word, idf });
  }
  const total = [...weights.values()].reduce((a, b) => a + b, 0);
  const present = new Set(terms.filter((t) => t.docFreq > 0).map((t) => t.word));
  const acronyms = questionAcronyms(text, weights);
  const paraphrases = paraphraseIndex(weights.keys());
  const generalTotal = [...general.values()].reduce((a, b) => a + b, 0);
  const compoundStarts = new Set([...text.matchAll(HYPHENATED)].map((m) => tokenize(m[0])).flatMap((parts) => (parts.length >= 2 ? [parts[0]!] : [])));
  return {
    text,
    language,
    type: questionAnswerType(text),
    weights,
    total,
    byLexeme,
    order: [...weights.keys()],
    present,
    lexicon,
    matched: new Map(),
    framing,
    general,
    generalTotal,
    affinity,
    acronyms,
    paraphrases,
    compoundStarts,
  };
}

const HYPHENATED = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu;

/** Initials of consecutive question words: documents introduce a name once and abbreviate it after ("MMR"). */
function questionAcronyms(text: string, weights: Map<string, number>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const words = tokenize(text);
  for (let i = 0; i < words.length; i++) {
    for (let n = 3; n <= 5 && i + n <= words.length; n++) {
      const run = words.slice(i, i + n);
      if (!run.every((w) => weights.has(w))) break;
      out.set(run.map((w) => w[0]).join(''), run);
    }
  }
  return out;
}

/** Words absent from the knowledge base weigh most: they are what the buyer asked about. */
export function queryWeight(terms: QueryTerm[]): number {
  return analyseQuestion('', terms).total;
}

export function matchWords(q: Question, words: string[]): Map<string, number> {
  const found = new Map<string, number>();
  for (const w of words) {
    for (const word of q.acronyms.get(w) ?? []) found.set(word, Math.max(found.get(word) ?? 0, q.weights.get(word) ?? 0));
    if (q.paraphrases.size > 0)
      for (const word of q.paraphrases.get(lightStem(w)) ?? []) found.set(word, Math.max(found.get(word) ?? 0, PARAPHRASE_WEIGHT * (q.weights.get(word) ?? 0)));
    for (const lexeme of q.lexicon(w)) {
      const hit = q.byLexeme.get(lexeme) ?? (q.language === 'de' ? compoundHit(q, lexeme) : undefined);
      if (hit && !(q.language === 'en' && falseFriends(hit.word, w))) found.set(hit.word, Math.max(found.get(hit.word) ?? 0, hit.idf));
    }
  }
  return found;
}

/**
 * Words Snowball's English stemmer gives one stem though they mean different things ("senator" and "Senate" are both
 * "senat"). Retrieval keeps them together (its index is PostgreSQL's); the reader and the gate tell them apart, so that
 * "the minimum age to be a senator" is not answered by a sentence about the Senate.
 */
const FALSE_FRIENDS: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/^senators?$/, /^senates?$/],
  [/^universit(y|ies)$/, /^universes?$/],
  [/^experienc/, /^experiment/],
  [/^authorit/, /^author(s|ed|ing|ship)?$/],
  [/^organs?$/, /^organi[sz]/],
];

function falseFriends(a: string, b: string): boolean {
  return FALSE_FRIENDS.some(([x, y]) => (x.test(a) && y.test(b)) || (y.test(a) && x.test(b)));
}

/** A German compound's first part or head must be this long to stand for a question word ("Recht" of "Arbeitsrecht"). */
const MIN_COMPOUND_HEAD = 5;
const MIN_COMPOUND_START = 6;

/**
 * A German text's compound holding a question word as its head or first part ("Frist" in "Kündigungsfrist",
 * "Kündigungsschutz" in "Kündigungsschutzgesetz"; decompounding.ts does the same for retrieval): it counts for most of
 * the word, as a paraphrase does.
 */
function compoundHit(q: Question, lexeme: string): { word: string; idf: number } | undefined {
  for (const [own, hit] of q.byLexeme) {
    if (own.length >= lexeme.length) continue;
    if ((own.length >= MIN_COMPOUND_HEAD && lexeme.endsWith(own)) || (own.length >= MIN_COMPOUND_START && lexeme.startsWith(own)))
      return { word: hit.word, idf: PARAPHRASE_WEIGHT * hit.idf };
  }
  return undefined;
}

/** Remembered per question: the same sentences are read several times. */
export function matchText(q: Question, text: string): Map<string, number> {
  let hit = q.matched.get(text);
  if (!hit) {
    hit = matchWords(q, tokenize(text));
    q.matched.set(text, hit);
  }
  return hit;
}

export const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/**
 * Two question words that follow each other in the question, in a row in the text (a stop word between them allowed).
 * A hyphenated compound of the question is a unit: the word before it makes no pair with its first part, so "set up
 * two-factor authentication" does not meet "sets out two connecting factors". Its parts pair, and so does its last
 * part with the word it modifies ("factor authentication").
 */
export function hasAdjacentPair(q: Question, words: string[]): boolean {
  if (q.order.length < 2) return false;
  const next = new Map<string, Set<string>>();
  for (let i = 0; i + 1 < q.order.length; i++) {
    const word = q.order[i]!;
    const following = q.order[i + 1]!;
    if (q.compoundStarts.has(following)) continue;
    if (!next.has(word)) next.set(word, new Set());
    next.get(word)!.add(following);
  }
  let previous: Set<string> = new Set();
  let gap = 0;
  for (const w of words) {
    const lexemes = q.lexicon(w);
    if (lexemes.length === 0) {
      if (++gap > 1) previous = new Set();
      continue;
    }
    const current = new Set<string>(q.paraphrases.get(lightStem(w)) ?? []);
    for (const l of lexemes) {
      const hit = q.byLexeme.get(l);
      if (hit) current.add(hit.word);
    }
    for (const p of previous) for (const c of current) if (next.get(p)?.has(c)) return true;
    previous = current;
    gap = 0;
  }
  return false;
}

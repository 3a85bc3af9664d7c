import { isBackMatter } from './back-matter';
import { chunkParagraphs } from './paragraphs';
import { hasAdjacentPair, matchText, matchWords, sum, type Question } from './question';
import type { RetrievedChunk } from './types';
import { GATE_MODEL } from './gate-weights';
import { tokenize } from './text';

/**
 * The relevance gate: whether a knowledge base answers a question. A learned model (GATE_FEATURES, GATE_MODEL) decides
 * for English; the hand-written rule below (passesGate) is one of its inputs, and decides alone for Spanish, German and
 * French. The rule: one of the top three passages holds at least two of the question's words (one for a question of
 * one or two words) and MIN_COVERAGE of its weight, together: one sentence (with its heading and label) holding
 * MIN_SENTENCE_COVERAGE of the weight, or two question words in a row.
 */
export const MIN_COVERAGE = 0.2;
export const MIN_SENTENCE_COVERAGE = 0.2;
/**
 * When 55% or more of the question's weight is in words the knowledge base never uses ("sourdough bread", "diesel
 * timing belt"), what it does hold must stand together: one sentence with MIN_SCATTERED_SENTENCE_COVERAGE of the
 * weight, or two question words in a row. A thousand abstracts share "proof", "France" or "replaced" with any
 * question by chance (PubMedQA, bench/engine-quality/calibrate-gate.ts --outside).
 */
export const ABSENT_SHARE = 0.55;
export const MIN_SCATTERED_SENTENCE_COVERAGE = 0.3;

/** Share of the question's weight in words that occur nowhere in the knowledge base. */
export function absentShare(q: Question): number {
  if (q.total <= 0) return 0;
  let absent = 0;
  for (const [w, weight] of q.weights) if (!q.present.has(w)) absent += weight;
  return absent / q.total;
}

/** What a passage holds of the question: the evidence the relevance gate weighs. */
export interface PassageEvidence {
  /** Share of the question's weight found anywhere in the passage (heading included). */
  coverage: number;
  /** Question words found. */
  words: number;
  /** Question words found that name something (not only framing words such as "still" or "often"). */
  topical: number;
  /** The best share held by one sentence with its section heading and paragraph label. */
  sentenceCoverage: number;
  /** Two question words in a row somewhere in the passage. */
  phrase: boolean;
  /** The best share of the question's general-English weight (Question.general) held by one sentence with its context. */
  generalSentenceCoverage: number;
  /** The most question words (framing words aside) one sentence holds with its context. */
  sentenceWords: number;
}

export function headingParts(p: RetrievedChunk): { section: string; upper: string } {
  const parts = (p.heading ?? '').split(' > ').filter(Boolean);
  if (parts.length <= 1) return { section: '', upper: parts.join(' ') };
  return { section: parts.at(-1) ?? '', upper: parts.slice(0, -1).join(' ') };
}

export function passageEvidence(q: Question, p: RetrievedChunk): PassageEvidence {
  if (q.total <= 0) return { coverage: 0, words: 0, topical: 0, sentenceCoverage: 0, phrase: false, generalSentenceCoverage: 0, sentenceWords: 0 };
  const { section, upper } = headingParts(p);
  const all = matchText(q, `${p.heading ?? ''} ${p.content}`);
  const sectionWords = matchText(q, section);
  let best = 0;
  let bestGeneral = 0;
  let mostWords = 0;
  let phrase = hasAdjacentPair(q, tokenize(section)) || hasAdjacentPair(q, tokenize(upper));
  for (const para of chunkParagraphs(p.content)) {
    const label = para.label ? matchText(q, para.label.text) : new Map<string, number>();
    for (const s of para.sentences) {
      const words = tokenize(p.content.slice(s.start, s.end));
      const own = matchWords(q, words);
      const merged = new Map([...sectionWords, ...label, ...own]);
      best = Math.max(best, sum(merged) / q.total);
      bestGeneral = Math.max(bestGeneral, generalShare(q, merged.keys()));
      mostWords = Math.max(mostWords, [...merged.keys()].filter((w) => !q.framing.has(w)).length);
      if (!phrase && hasAdjacentPair(q, words)) phrase = true;
    }
  }
  const topical = [...all.keys()].filter((w) => !q.framing.has(w)).length;
  return {
    coverage: sum(all) / q.total,
    words: all.size,
    topical,
    sentenceCoverage: best,
    phrase,
    generalSentenceCoverage: bestGeneral,
    sentenceWords: mostWords,
  };
}

/** Share of the question's general-English weight in these question words. */
export function generalShare(q: Question, words: Iterable<string>): number {
  if (q.generalTotal <= 0) return 0;
  let held = 0;
  for (const w of words) held += q.general.get(w) ?? 0;
  return held / q.generalTotal;
}

export function passesGate(q: Question, e: PassageEvidence): boolean {
  // Two of the question's words, unless it has only two ("Was gehört in einen Datenmanagementplan?"): then coverage decides.
  const needWords = q.weights.size >= 3 ? 2 : 1;
  // "Still there?" names nothing: framing words alone never make an answer.
  const together = absentShare(q) >= ABSENT_SHARE ? MIN_SCATTERED_SENTENCE_COVERAGE : MIN_SENTENCE_COVERAGE;
  return e.topical >= 1 && e.words >= needWords && e.coverage >= MIN_COVERAGE && (e.sentenceCoverage >= together || e.phrase);
}

/**
 * What the learned gate weighs, each about 0..1, over the top GATE_PASSAGES passages. The log-odds that the knowledge
 * base answers is GATE_MODEL's weighted sum (gate-weights.ts), fitted by bench/engine-quality/lodo.ts on answerable
 * questions of several public question-answering sets against questions of the other sets asked of each set's
 * knowledge base, each domain judged by a model fitted without it.
 */
export const GATE_FEATURES = [
  'sentence coverage', // the best sentence's share of the question's weight (IDF in this knowledge base)
  'passage coverage', // the best passage's share
  'adjacent pair', // two question words in a row in a passage
  'absent share', // share of the question's weight in words this knowledge base never uses
  'general present', // share of the question's general-English weight in words this knowledge base uses
  'general sentence', // the best sentence's share of the general-English weight
  'rarest absent', // the general-English weight of the most telling word this knowledge base lacks
  'question words', // how many words the question has
  'matched share', // distinct question words in the best passage, of all
  'rule passes', // the hand-written rule (passesGate) holds for one passage
  'affinity', // how much more than general English the knowledge base uses the question's words (weighted mean)
  'lowest affinity', // ... for the question's least-used telling word
  'sentence words', // the most question words one sentence holds (framing words aside), over 5, at most 2
  'coverage together', // sentence coverage times its general-English share: both must be high
  'reader score', // the reader's score of its best statement (sentence-ranker.ts), over 10 (last: lodo.ts relies on it)
] as const;

export const GATE_PASSAGES = 3;

export interface GateModel {
  bias: number;
  weights: readonly number[];
  /** Log-odds at and above which the question is answered. */
  threshold: number;
}

/** What the top passages hold of the question, back matter left out (computed once per question). */
export function gateEvidence(q: Question, passages: RetrievedChunk[]): PassageEvidence[] {
  return passages
    .filter((p) => !isBackMatter(p.heading))
    .slice(0, GATE_PASSAGES)
    .map((p) => passageEvidence(q, p));
}

export function gateFeatures(q: Question, evidence: PassageEvidence[], readerScore: number): number[] {
  const max = (f: (e: PassageEvidence) => number) => evidence.reduce((m, e) => Math.max(m, f(e)), 0);
  let rarestAbsent = 0;
  for (const w of q.weights.keys()) if (!q.present.has(w)) rarestAbsent = Math.max(rarestAbsent, q.general.get(w) ?? 0);
  const size = Math.max(1, q.weights.size);
  return [
    max((e) => e.sentenceCoverage),
    max((e) => e.coverage),
    evidence.some((e) => e.phrase) ? 1 : 0,
    absentShare(q),
    generalShare(q, q.present),
    max((e) => e.generalSentenceCoverage),
    rarestAbsent,
    Math.log1p(q.weights.size) / Math.log(10),
    max((e) => e.words) / size,
    evidence.some((e) => passesGate(q, e)) ? 1 : 0,
    ...affinityFeatures(q),
    Math.min(2, max((e) => e.sentenceWords) / 5),
    max((e) => e.sentenceCoverage) * max((e) => e.generalSentenceCoverage),
    Math.max(-1, Math.min(2, readerScore / 10)),
  ];
}

/** The question's affinity features, scaled to about -1..1 (0 when the knowledge base is not in English). */
function affinityFeatures(q: Question): [number, number] {
  if (q.affinity.size === 0) return [0, 0];
  let weighted = 0;
  let weights = 0;
  let lowest = Infinity;
  for (const [w, a] of q.affinity) {
    const g = q.general.get(w) ?? 0;
    const clipped = Math.max(-10, Math.min(10, a));
    weighted += g * clipped;
    weights += g;
    if (g >= 0.5) lowest = Math.min(lowest, clipped);
  }
  return [weights > 0 ? weighted / weights / 10 : 0, Number.isFinite(lowest) ? lowest / 10 : 0];
}

export function gateScore(features: readonly number[], model: GateModel = GATE_MODEL): number {
  return features.reduce((s, x, k) => s + x * (model.weights[k] ?? 0), model.bias);
}

/**
 * The learned gate's log-odds that the knowledge base answers, or -Infinity when no passage holds a word that names
 * something, or null for a question the rule alone judges (not English). `readerScore` is the best statement's score.
 */
export function relevanceScore(q: Question, passages: RetrievedChunk[], readerScore: number, model: GateModel = GATE_MODEL): number | null {
  if (passages.length === 0 || q.total <= 0) return -Infinity;
  const evidence = gateEvidence(q, passages);
  // A question whose only words found frame it ("Still there?") names nothing the knowledge base holds.
  if (!evidence.some((e) => e.topical > 0)) return -Infinity;
  // The model's general-English features say nothing of a Spanish, German or French question, and its public
  // training sets are English: another language is judged by the rule alone.
  if (q.language !== 'en') return null;
  return gateScore(gateFeatures(q, evidence, readerScore), model);
}

/**
 * Does the knowledge base answer? `threshold` is the knowledge base's own (gate-calibration.ts) when it has one, else
 * the model's.
 */
export function isRelevant(
  q: Question,
  passages: RetrievedChunk[],
  readerScore: number,
  model: GateModel = GATE_MODEL,
  threshold: number | null = null,
): boolean {
  const score = relevanceScore(q, passages, readerScore, model);
  if (score === null) return gateEvidence(q, passages).some((e) => passesGate(q, e));
  return score >= (threshold ?? model.threshold);
}

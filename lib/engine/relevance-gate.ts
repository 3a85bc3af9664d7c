import { isBackMatter } from './back-matter';
import { chunkParagraphs } from './paragraphs';
import { hasAdjacentPair, matchText, matchWords, sum, type Question } from './question';
import type { GateModel, RetrievedChunk, SemanticGate } from './types';
import { GATE_MODEL, LANGUAGE_NEUTRAL_GATE } from './gate-weights';
import { tokenize } from './text';

/**
 * The relevance gate: whether a knowledge base answers a question. A learned model (GATE_FEATURES, GATE_MODEL) decides
 * for English, and near its threshold a second one with the sentence encoder's similarity (SEMANTIC_GATE, below); the
 * hand-written rule (passesGate) is one of its inputs. A question in Spanish, German or French is judged by a model of
 * the same features less the general-English ones (LANGUAGE_NEUTRAL_GATE), without the encoder, which reads English.
 */
export const MIN_COVERAGE = 0.2;
export const MIN_SENTENCE_COVERAGE = 0.2;
/** When most of the question's weight is in words the knowledge base never uses, what it does hold must stand together. */
export const ABSENT_SHARE = 0.55;
export const MIN_SCATTERED_SENTENCE_COVERAGE = 0.3;

export function absentShare(q: Question): number {
  if (q.total <= 0) return 0;
  let absent = 0;
  for (const [w, weight] of q.weights) if (!q.present.has(w)) absent += weight;
  return absent / q.total;
}

export interface PassageEvidence {
  coverage: number;
  words: number;
  /** Question words found that name something (not only framing words such as "still" or "often"). */
  topical: number;
  sentenceCoverage: number;
  phrase: boolean;
  generalSentenceCoverage: number;
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

export function generalShare(q: Question, words: Iterable<string>): number {
  if (q.generalTotal <= 0) return 0;
  let held = 0;
  for (const w of words) held += q.general.get(w) ?? 0;
  return held / q.generalTotal;
}

export function passesGate(q: Question, e: PassageEvidence): boolean {
  // Two of the question's words, unless it has only two: then coverage decides.
  const needWords = q.weights.size >= 3 ? 2 : 1;
  const together = absentShare(q) >= ABSENT_SHARE ? MIN_SCATTERED_SENTENCE_COVERAGE : MIN_SENTENCE_COVERAGE;
  return e.topical >= 1 && e.words >= needWords && e.coverage >= MIN_COVERAGE && (e.sentenceCoverage >= together || e.phrase);
}

/** Each about 0..1; the log-odds is GATE_MODEL's weighted sum (gate-weights.ts, fitted by bench/engine-quality/lodo.ts). */
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

/**
 * The features that weigh a question's words by their frequency in general English (SUBTLEX-US): they say nothing of a
 * question in Spanish, German or French, which the language-neutral model (LANGUAGE_NEUTRAL_GATE) judges without them.
 */
export const GENERAL_ENGLISH_FEATURES: ReadonlySet<(typeof GATE_FEATURES)[number]> = new Set([
  'general present',
  'general sentence',
  'rarest absent',
  'affinity',
  'lowest affinity',
  'coverage together',
]);

/** The features with the general-English ones set to 0 (a prefix of GATE_FEATURES, as the benches keep it, works too). */
export const languageNeutral = (features: readonly number[]): number[] =>
  features.map((x, k) => (GENERAL_ENGLISH_FEATURES.has(GATE_FEATURES[k] as (typeof GATE_FEATURES)[number]) ? 0 : x));

export const GATE_PASSAGES = 3;

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

/** The learned gate's features; 'none' when no passage names anything. */
export function relevanceFeatures(q: Question, passages: RetrievedChunk[], readerScore: number): number[] | 'none' {
  if (passages.length === 0 || q.total <= 0) return 'none';
  const evidence = gateEvidence(q, passages);
  if (!evidence.some((e) => e.topical > 0)) return 'none';
  return gateFeatures(q, evidence, readerScore);
}

/**
 * The lexical log-odds on `model`'s scale. A question in Spanish, German or French is judged by the language-neutral
 * model (the general-English features say nothing of it), its margin over its own threshold added to `model`'s, as
 * combinedScore does for the encoder's model: a threshold then means the same for every language.
 */
export function lexicalScore(q: Question, features: readonly number[], model: GateModel = GATE_MODEL, neutral: GateModel = LANGUAGE_NEUTRAL_GATE): number {
  if (q.language === 'en') return gateScore(features, model);
  return model.threshold + gateScore(languageNeutral(features), neutral) - neutral.threshold;
}

/** The learned gate's lexical log-odds, -Infinity when no passage names anything. */
export function relevanceScore(q: Question, passages: RetrievedChunk[], readerScore: number, model: GateModel = GATE_MODEL, neutral?: GateModel): number {
  const features = relevanceFeatures(q, passages, readerScore);
  return features === 'none' ? -Infinity : lexicalScore(q, features, model, neutral);
}

/**
 * Near the lexical threshold the lexical features confuse a question asked in other words with another domain's
 * question that shares two words with a statement; there the question's similarity to the reader's best statement
 * under a sentence encoder decides (sentence-encoder.ts), by a second model fitted with it (SEMANTIC_GATE). The band
 * lies around the threshold that decides: a knowledge base's own (gate-calibration.ts), else the shipped one.
 */
export function undecided(lexical: number, gate: GateModel, semantic: SemanticGate | null, threshold = gate.threshold): semantic is SemanticGate {
  return semantic !== null && lexical >= threshold - semantic.below && lexical < threshold + semantic.above;
}

/**
 * The gate's score on the lexical model's scale: the lexical log-odds, or inside the band the second model's margin
 * over its own threshold added to the lexical threshold, so a knowledge base's calibrated threshold applies to both.
 */
export function combinedScore(
  lexical: number,
  features: readonly number[],
  similarity: number | null,
  gate: GateModel,
  semantic: SemanticGate | null,
  threshold = gate.threshold,
): number {
  if (similarity === null || !undecided(lexical, gate, semantic, threshold)) return lexical;
  return gate.threshold + gateScore([...features, similarity], semantic.model) - semantic.model.threshold;
}

export function isRelevant(
  q: Question,
  passages: RetrievedChunk[],
  readerScore: number,
  model: GateModel = GATE_MODEL,
  threshold: number | null = null,
  neutral?: GateModel,
): boolean {
  return relevanceScore(q, passages, readerScore, model, neutral) >= (threshold ?? model.threshold);
}

import { FINDING_WORDING_BIAS, FINDING_WORDING_WEIGHTS } from './finding-wording-weights';
import { lightStem, tokenize } from './text';

/**
 * Does a statement read like a study's finding (a result or a conclusion) rather than its background, aim or method,
 * judged by its wording alone? Structured abstracts label their sections; plain ones do not, and there the hand-written
 * patterns of answer-type.ts miss many background sentences ("ACE inhibitors are considered safe, but…"). A logistic
 * model over the statement's word stems, word pairs and a few marks (a number, a p-value, a percentage, its first
 * word), fitted by bench/engine-quality/train-finding-wording.ts on the labelled sections of PubMedQA's tuning
 * abstracts (MIT licence). English only; the sentence ranker consults it for yes-or-no questions, in the document
 * that matches best (sentence-ranker.ts, 'finding wording').
 */

/** What the model reads of a statement: word stems, adjacent stem pairs, and marks for numbers and its first word. */
export function wordingFeatures(text: string): string[] {
  const stems = tokenize(text).map((w) => (/^\d/.test(w) ? '#num' : lightStem(w)));
  const features = new Set(stems);
  for (let i = 0; i + 1 < stems.length; i++) features.add(`${stems[i]}_${stems[i + 1]}`);
  if (/[<>=≤≥]\s*0?\.\d/.test(text) || /\bp\s*[<=>≤≥]/i.test(text)) features.add('#p-value');
  if (/%/.test(text)) features.add('#percent');
  features.add(`#first:${stems[0] ?? ''}`);
  return [...features];
}

/**
 * Words of nearly every English sentence and of no Spanish, German or French one: the model knows English wording
 * only, and on another language it would see little but the numbers.
 */
const ENGLISH = /\b(the|of|and|is|are|was|were|has|have|been|not|to|for|with|that|which|from|by|this|these)\b/i;

/** The model's probability (0..1) that the statement reports a finding; null for a statement not in English. */
export function findingLikelihood(text: string): number | null {
  if (!ENGLISH.test(text)) return null;
  let z = FINDING_WORDING_BIAS;
  for (const f of wordingFeatures(text)) z += FINDING_WORDING_WEIGHTS[f] ?? 0;
  return 1 / (1 + Math.exp(-z));
}

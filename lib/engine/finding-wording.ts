import { FINDING_WORDING_BIAS, FINDING_WORDING_WEIGHTS } from './finding-wording-weights';
import { lightStem, tokenize } from './text';

/**
 * Does a statement read like a study's finding rather than its background, aim or method, by its wording alone? A
 * logistic model over word stems, pairs and a few marks (bench/engine-quality/train-finding-wording.ts), for unlabelled
 * abstracts where the patterns of answer-type.ts miss background sentences. English only.
 */

export function wordingFeatures(text: string): string[] {
  const stems = tokenize(text).map((w) => (/^\d/.test(w) ? '#num' : lightStem(w)));
  const features = new Set(stems);
  for (let i = 0; i + 1 < stems.length; i++) features.add(`${stems[i]}_${stems[i + 1]}`);
  if (/[<>=≤≥]\s*0?\.\d/.test(text) || /\bp\s*[<=>≤≥]/i.test(text)) features.add('#p-value');
  if (/%/.test(text)) features.add('#percent');
  features.add(`#first:${stems[0] ?? ''}`);
  return [...features];
}

/** The model knows English wording only: on another language it would see little but the numbers. */
const ENGLISH = /\b(the|of|and|is|are|was|were|has|have|been|not|to|for|with|that|which|from|by|this|these)\b/i;

export function findingLikelihood(text: string): number | null {
  if (!ENGLISH.test(text)) return null;
  let z = FINDING_WORDING_BIAS;
  for (const f of wordingFeatures(text)) z += FINDING_WORDING_WEIGHTS[f] ?? 0;
  return 1 / (1 + Math.exp(-z));
}

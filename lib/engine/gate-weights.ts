import type { GateModel, SemanticGate } from './types';

/**
 * Weights of GATE_FEATURES (relevance-gate.ts), in its order, and of the second model that decides near the threshold with
 * the sentence encoder's similarity. Written by bench/engine-quality/lodo.ts --write --semantic FILE from
 * 2843 answerable questions and 1395 cross-domain ones over 7 domains (encyclopaedic, legal, technical, long-articles, biomedical, scientific-articles, almanac); edit by re-running it, not by hand.
 */
export const GATE_MODEL: GateModel = {
  bias: -3.764,
  weights: [
    0.533, // sentence coverage
    0.625, // passage coverage
    1.113, // adjacent pair
    -0.458, // absent share
    0.527, // general present
    0.653, // general sentence
    -0.581, // rarest absent
    0.057, // question words
    0.663, // matched share
    0.978, // rule passes
    0.14, // affinity
    0.17, // lowest affinity
    0.87, // sentence words
    0.523, // coverage together
    0.789, // reader score
  ],
  threshold: 0.05,
};

export const SEMANTIC_GATE: SemanticGate = {
  below: 0.5,
  above: 0.5,
  model: {
    bias: -3.882,
    weights: [
      0.514, // sentence coverage
      0.605, // passage coverage
      1.063, // adjacent pair
      -0.442, // absent share
      0.506, // general present
      0.626, // general sentence
      -0.569, // rarest absent
      0.038, // question words
      0.638, // matched share
      0.941, // rule passes
      0.136, // affinity
      0.164, // lowest affinity
      0.814, // sentence words
      0.504, // coverage together
      0.754, // reader score
      0.758, // statement similarity
    ],
    threshold: 0.15,
  },
};

/**
 * The gate of a question in Spanish, German or French: GATE_FEATURES without the general-English ones (relevance-gate.ts
 * languageNeutral), fitted on the same questions (lodo.ts --neutral measures it held out).
 */
export const LANGUAGE_NEUTRAL_GATE: GateModel = {
  bias: -3.51,
  weights: [
    0.738, // sentence coverage
    0.833, // passage coverage
    1.218, // adjacent pair
    -0.692, // absent share
    0, // general present
    0, // general sentence
    0, // rarest absent
    -0.018, // question words
    0.829, // matched share
    1.155, // rule passes
    0, // affinity
    0, // lowest affinity
    0.965, // sentence words
    0, // coverage together
    0.969, // reader score
  ],
  threshold: 0.1,
};

import type { GateModel } from './types';

/**
 * Weights of GATE_FEATURES (relevance-gate.ts), in its order. Written by bench/engine-quality/lodo.ts --write from
 * 2787 answerable questions and 1210 cross-domain ones over 6 domains (encyclopaedic, legal, technical, long-articles, biomedical, almanac); edit by re-running it, not by hand.
 */
export const GATE_MODEL: GateModel = {
  bias: -3.774,
  weights: [
    0.529, // sentence coverage
    0.617, // passage coverage
    1.106, // adjacent pair
    -0.454, // absent share
    0.525, // general present
    0.65, // general sentence
    -0.563, // rarest absent
    0.06, // question words
    0.655, // matched share
    0.981, // rule passes
    0.145, // affinity
    0.169, // lowest affinity
    0.871, // sentence words
    0.519, // coverage together
    0.798, // reader score
  ],
  threshold: 0,
};

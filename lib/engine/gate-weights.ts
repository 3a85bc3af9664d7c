import type { GateModel } from './relevance-gate';

/** Weights of GATE_FEATURES (relevance-gate.ts), in its order. Written by bench/engine-quality/lodo.ts; edit by re-running it. */
export const GATE_MODEL: GateModel = {
  bias: -5,
  weights: [0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0],
  threshold: 0,
};

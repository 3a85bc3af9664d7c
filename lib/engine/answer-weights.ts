/**
 * Weights of SENTENCE_FEATURES (sentence-ranker.ts), in its order. Written by bench/engine-quality/train-ranker.ts from the
 * tuning part of the evaluation set (161 questions with a choice to make); edit by re-running it, not by hand.
 */
export const SENTENCE_WEIGHTS: readonly number[] = [
  3.76, // own coverage
  2.284, // context coverage
  1.641, // window coverage
  0.719, // upper heading coverage
  1.711, // passage score
  -1.26, // passage rank
  1.421, // strong type carried
  -1.221, // strong type missing
  0.56, // weak type carried
  0.473, // type in label
  -0.944, // restates the question
  -0.018, // fresh words
  -1.002, // aim or background
  -1.001, // question mark
  -0.057, // length
  -0.192, // first in paragraph
  -1.003, // other label
  -0.962, // table header
  0.117, // table row
  1.301, // question words share
  0.268, // rarest word
  0.877, // adjacent pair
  1.141, // new number
  -0.018, // lead-in
  0.045, // list
  0.369, // finding
  -0.359, // method or example
  1.077, // topic as subject
];

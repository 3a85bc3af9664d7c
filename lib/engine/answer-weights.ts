/**
 * Weights of SENTENCE_FEATURES (sentence-ranker.ts), in its order. Written by bench/engine-quality/train-ranker.ts from the
 * tuning part of the evaluation set (162 questions with a choice to make); edit by re-running it, not by hand.
 */
export const SENTENCE_WEIGHTS: readonly number[] = [
  5.416, // own coverage
  5.434, // context coverage
  2.897, // window coverage
  0.885, // upper heading coverage
  2.923, // passage score
  -1.223, // passage rank
  1.53, // strong type carried
  -1.33, // strong type missing
  0.429, // weak type carried
  0.327, // type in label
  -1.194, // restates the question
  -1.511, // fresh words
  -1.016, // aim or background
  -1.023, // question mark
  -0.033, // length
  -0.324, // first in paragraph
  -1.015, // other label
  -0.424, // table header
  -0.269, // table row
  3.008, // question words share
  -0.343, // rarest word
  0.62, // adjacent pair
  1.43, // new number
  0.032, // lead-in
  0.006, // list
  0.445, // finding
  -0.499, // method or example
  3.665, // topic as subject
  0.873, // type near topic
  0.541, // type after set-up
  0.323, // type with coverage
  1.33, // question numbers
];

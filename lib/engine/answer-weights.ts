/**
 * Weights of SENTENCE_FEATURES (sentence-features.ts), in its order. Written by bench/engine-quality/lodo.ts --write from
 * 2787 answerable questions and 1210 cross-domain ones over 6 domains (encyclopaedic, legal, technical, long-articles, biomedical, almanac); edit by re-running it, not by hand.
 */
export const SENTENCE_WEIGHTS: readonly number[] = [
  5.191, // own coverage
  5.522, // context coverage
  3.084, // window coverage
  1.03, // upper heading coverage
  2.969, // passage score
  -1.152, // passage rank
  1.679, // strong type carried
  -1.479, // strong type missing
  0.477, // weak type carried
  0.331, // type in label
  -1.171, // restates the question
  -1.492, // fresh words
  -3.155, // aim or background
  -1.011, // question mark
  -0.041, // length
  -0.027, // first in paragraph
  -1.019, // other label
  -0.388, // table header
  -0.265, // table row
  2.777, // question words share
  -0.234, // rarest word
  0.388, // adjacent pair
  0.903, // new number
  0.185, // lead-in
  -0.012, // list
  0.324, // finding
  -0.474, // method or example
  3.585, // topic as subject
  0.946, // type near topic
  0.889, // type after set-up
  0.518, // type with coverage
  1.349, // question numbers
  0.549, // limit asked
  1.604, // negation shared
  -2.691, // aim section
  -0.968, // method section
  2.027, // finding section
  1.213, // conclusion
  2.366, // verdict given
  3.418, // verdict result
  3.934, // finding wording
  0.921, // general coverage
  0.542, // general context coverage
  0.509, // match density
];

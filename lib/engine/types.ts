/** Types engine modules share, apart so that retrieval's helpers and the generated gate-weights.ts import no user back. */

export interface RetrievedChunk {
  chunkId: number;
  documentId: string;
  documentTitle: string;
  page: number | null;
  heading: string | null;
  content: string;
  tokenCount: number;
  score: number;
}

export interface QueryTerm {
  /** The query word (folded) this term came from; for a prefix expansion, the typed prefix. */
  word: string;
  lexeme: string;
  docFreq: number;
  idf: number;
  /** An everyday paraphrase of `word` (paraphrases.ts), looked up for retrieval only. */
  paraphrase?: true;
}

export interface QueryVector {
  model: string;
  values: number[];
}

/** The learned relevance gate: weights of GATE_FEATURES (relevance-gate.ts), in its order. */
export interface GateModel {
  bias: number;
  weights: readonly number[];
  /** Log-odds at and above which the question is answered. */
  threshold: number;
}

/** The relevance gate's second model (relevance-gate.ts), deciding with the sentence encoder near the first's threshold. */
export interface SemanticGate {
  /** Weights over GATE_FEATURES and then the similarity. */
  model: GateModel;
  /** The band of lexical log-odds, around the lexical threshold, within which the encoder decides. */
  below: number;
  above: number;
}

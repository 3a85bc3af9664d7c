/**
 * The types retrieval hands to the reader (question analysis, sentence ranking, the gate, the answer): in a module of
 * their own, so that the modules retrieval itself calls (query expansion, vector search) need not import it back.
 */

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
}

/** The question's vector for hybrid retrieval, from the model the knowledge base's chunks were embedded with. */
export interface QueryVector {
  model: string;
  values: number[];
}

/**
 * The shape every outside question-answering set is prepared into (prepare.ts writes one JSON file of it per set), so
 * that the benchmark, the reader's training and the gate's calibration read every domain the same way.
 */

/** One file as a publisher would upload it: `.md` (its title as the `# ` heading when the set gives one), `.txt` or `.html`. */
export interface OutsideDocument {
  id: string;
  fileName: string;
  text: string;
}

export interface OutsideQuestion {
  id: string;
  question: string;
  /** Short gold spans where the set marks them (SQuAD-like), else []. Each occurs in the document's text. */
  answers: string[];
  /** The gold sentence(s) or passage(s) holding the answer where the set gives them, verbatim from the document's text. */
  evidence: string[];
  /** The document the question was asked of; null for a question asked of the whole set (its evidence spans documents). */
  documentId: string | null;
  /** False for the set's own unanswerable questions (SQuAD 2.0 `is_impossible`, QASPER `unanswerable`, …). */
  answerable: boolean;
  /** What else the set says of the question, kept as it gives it (PubMedQA's yes/no/maybe decision, ObliQA's group, …). */
  meta?: Record<string, string>;
}

export type OutsideDomain = 'long-articles' | 'scientific-articles' | 'legal' | 'technical' | 'encyclopaedic' | 'biomedical';

export interface OutsideSource {
  repository: string;
  commit: string;
  files: Array<{ path: string; sha256: string }>;
  licence: string;
  citation: string;
}

export interface OutsideSet {
  name: string;
  domain: OutsideDomain | string;
  source: OutsideSource;
  documents: OutsideDocument[];
  questions: OutsideQuestion[];
  /** How the sample was drawn and what was left out, for whoever reads the figures. */
  sampling: { description: string; dropped: number; droppedBecause: string };
}

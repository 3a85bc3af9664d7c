import type { Executor } from '@/lib/platform/db';
import { SENTENCE_WEIGHTS } from './answer-weights';
import { GATE_MODEL } from './gate-weights';
import { languageOfConfig } from './language';
import { analyseQuestion, mapLexicon, type Question } from './question';
import { isRelevant, type GateModel } from './relevance-gate';
import { lexemesOf, type SearchResult } from './retrieval';
import { PASSAGES_READ, rankSentences, type RankedCandidate } from './sentence-ranker';
import { tokenize } from './text';

/**
 * Whether a knowledge base answers a question, decided once for every face (answers, streamed answers, search, MCP,
 * Dify): the learned relevance gate over the question, the passages read and the reader's best statement.
 */

/** The learned parts of answer selection: the shipped ones unless a benchmark fits others (bench/engine-quality/lodo.ts). */
export interface ReaderModel {
  sentenceWeights: readonly number[];
  gate: GateModel;
}

export const READER_MODEL: ReaderModel = { sentenceWeights: SENTENCE_WEIGHTS, gate: GATE_MODEL };

export interface Judgement {
  answerable: boolean;
  /** The passages' candidate statements, best first (the extractive composer chooses from them). */
  ranked: RankedCandidate[];
}

/** `gateThreshold`: the knowledge base's own threshold (SearchResult.gateThreshold), null for the model's. */
export function judgeAnswerable(
  q: Question,
  passages: SearchResult['chunks'],
  model: ReaderModel = READER_MODEL,
  gateThreshold: number | null = null,
): Judgement {
  const read = passages.slice(0, PASSAGES_READ);
  const ranked = rankSentences(q, read, model.sentenceWeights);
  return { answerable: ranked[0] !== undefined && isRelevant(q, read, ranked[0].score, model.gate, gateThreshold), ranked };
}

/** The question as the reader sees it, with the words of the passages read stemmed by the knowledge base (one round trip). */
export async function readQuestion(db: Executor, query: string, result: SearchResult, limit = PASSAGES_READ): Promise<Question> {
  const words = result.chunks.slice(0, limit).flatMap((c) => tokenize(`${c.heading ?? ''} ${c.content}`));
  const map = words.length ? await lexemesOf(db, result.config, words) : new Map<string, string[]>();
  return analyseQuestion(query, result.terms, mapLexicon(map, result.terms), languageOfConfig(result.config));
}

import type { Executor } from '@/lib/platform/db';
import { SENTENCE_WEIGHTS } from './answer-weights';
import { GATE_MODEL, SEMANTIC_GATE } from './gate-weights';
import { languageOfConfig } from './language';
import { analyseQuestion, mapLexicon, type Question } from './question';
import { combinedScore, gateScore, isRelevant, relevanceFeatures, relevantAt, undecided } from './relevance-gate';
import { statementSimilarity } from './sentence-encoder';
import type { GateModel, SemanticGate } from './types';
import { lexemesOf } from './lexemes';
import type { SearchResult } from './retrieval';
import { PASSAGES_READ, rankSentences, type RankedCandidate } from './sentence-ranker';
import { tokenize } from './text';

/**
 * Whether a knowledge base answers a question, decided once for every face (answers, streamed answers, search, MCP,
 * Dify): the learned relevance gate over the question, the passages read and the reader's best statement.
 */

export interface ReaderModel {
  sentenceWeights: readonly number[];
  gate: GateModel;
  /** Decides near the lexical gate's threshold when a sentence encoder is at hand (null: the lexical gate alone). */
  semantic?: SemanticGate | null;
}

export const READER_MODEL: ReaderModel = { sentenceWeights: SENTENCE_WEIGHTS, gate: GATE_MODEL, semantic: SEMANTIC_GATE };

export interface Judgement {
  answerable: boolean;
  ranked: RankedCandidate[];
}

/** The text the encoder compares with the question: the reader's best statement as an answer shows it. */
export const statementText = (c: RankedCandidate) => (c.context ? `${c.context}: ${c.text}` : c.text);

export type Similarity = (question: string, statement: string) => Promise<number | null>;

/**
 * The gate's score for the reader's best statement (gate-calibration.ts compares it with a threshold of its own):
 * null when the question is not English and the hand-written rule decides.
 */
export async function gateScoreOf(
  q: Question,
  read: SearchResult['chunks'],
  best: RankedCandidate,
  model: ReaderModel,
  similarity: Similarity = statementSimilarity,
  /** The threshold the score will be compared with: the band the encoder decides in lies around it. */
  threshold = model.gate.threshold,
): Promise<number | null> {
  const features = relevanceFeatures(q, read, best.score);
  if (features === 'none') return -Infinity;
  if (features === 'rule') return null;
  const lexical = gateScore(features, model.gate);
  const semantic = model.semantic ?? null;
  if (!undecided(lexical, model.gate, semantic, threshold)) return lexical;
  return combinedScore(lexical, features, await similarity(q.text, statementText(best)), model.gate, semantic, threshold);
}

/** The lexical gate alone, without waiting for the encoder: the benches' path, and ENGINE_ENCODER=off's in effect. */
export function judgeLexically(
  q: Question,
  passages: SearchResult['chunks'],
  model: ReaderModel = READER_MODEL,
  gateThreshold: number | null = null,
): Judgement {
  const read = passages.slice(0, PASSAGES_READ);
  const ranked = rankSentences(q, read, model.sentenceWeights);
  return { answerable: ranked[0] !== undefined && isRelevant(q, read, ranked[0].score, model.gate, gateThreshold), ranked };
}

/** Whether the knowledge base answers: decided once for answers, streamed answers, search, MCP and Dify. */
export async function judgeAnswerable(
  q: Question,
  passages: SearchResult['chunks'],
  model: ReaderModel = READER_MODEL,
  gateThreshold: number | null = null,
  similarity: Similarity = statementSimilarity,
): Promise<Judgement> {
  const read = passages.slice(0, PASSAGES_READ);
  const ranked = rankSentences(q, read, model.sentenceWeights);
  const best = ranked[0];
  if (!best) return { answerable: false, ranked };
  const threshold = gateThreshold ?? model.gate.threshold;
  const score = await gateScoreOf(q, read, best, model, similarity, threshold);
  return { answerable: relevantAt(score, q, read, threshold), ranked };
}

/** The words of the passages read are stemmed by the knowledge base in one round trip. */
export async function readQuestion(db: Executor, query: string, result: SearchResult, limit = PASSAGES_READ): Promise<Question> {
  const words = result.chunks.slice(0, limit).flatMap((c) => tokenize(`${c.heading ?? ''} ${c.content}`));
  const map = words.length ? await lexemesOf(db, result.config, words) : new Map<string, string[]>();
  return analyseQuestion(query, result.terms, mapLexicon(map, result.terms), languageOfConfig(result.config));
}

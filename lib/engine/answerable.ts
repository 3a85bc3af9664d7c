import type { Executor } from '@/lib/platform/db';
import { SENTENCE_WEIGHTS } from './answer-weights';
import { GATE_MODEL, LANGUAGE_NEUTRAL_GATE, SEMANTIC_GATE } from './gate-weights';
import { languageOfConfig } from './language';
import { analyseQuestion, mapLexicon, type Question } from './question';
import { combinedScore, isRelevant, lexicalScore, relevanceFeatures, undecided } from './relevance-gate';
import { statementSimilarities, statementSimilarity } from './sentence-encoder';
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
  /** Judges questions not in English (relevance-gate.ts lexicalScore); LANGUAGE_NEUTRAL_GATE when absent. */
  neutral?: GateModel;
}

export const READER_MODEL: ReaderModel = { sentenceWeights: SENTENCE_WEIGHTS, gate: GATE_MODEL, semantic: SEMANTIC_GATE, neutral: LANGUAGE_NEUTRAL_GATE };

export interface Judgement {
  answerable: boolean;
  ranked: RankedCandidate[];
}

/** The text the encoder compares with the question: the reader's best statement as an answer shows it. */
export const statementText = (c: RankedCandidate) => (c.context ? `${c.context}: ${c.text}` : c.text);

export type Similarity = (question: string, statement: string) => Promise<number | null>;
export type Similarities = (question: string, statements: string[]) => Promise<number[] | null>;

/**
 * The encoder re-reads the reader's first statements when they lie close: they are re-ordered by reader score +
 * WEIGHT × their cosine with the question, which finds the statement that says what was asked in other words ("tell the
 * regulator" → "notify the supervisory authority"), each read to its first `chars` characters. Fitted leaving each
 * domain out and measured on the public sets by bench/engine-quality/encoder-reader.ts (README there, "Stop 43");
 * English only, as the encoder is.
 */
export const ENCODER_READER = { top: 3, margin: 1, weight: 24, chars: 300 } as const;

/**
 * An answered judgement's statements, the first ENCODER_READER.top re-ordered with the encoder where they are close.
 * The gate has judged the lexical reader's best statement, as it was fitted to; this only changes what an extractive
 * answer quotes first.
 */
export async function rereadWithEncoder(
  q: Question,
  judgement: Judgement,
  similarities: Similarities = (question, statements) => statementSimilarities(question, statements, 'reader'),
): Promise<Judgement> {
  const { ranked } = judgement;
  const [first, second] = ranked;
  if (!judgement.answerable || q.language !== 'en' || !first || !second || first.score - second.score >= ENCODER_READER.margin) return judgement;
  const top = ranked.slice(0, ENCODER_READER.top);
  // A statement's opening says what it is about; the rest of a long list or table row only costs the encoder time.
  const cosines = await similarities(
    q.text,
    top.map((c) => statementText(c).slice(0, ENCODER_READER.chars)),
  );
  if (!cosines || cosines.length !== top.length) return judgement;
  const reordered = top
    .map((c, i) => ({ c, combined: c.score + ENCODER_READER.weight * (cosines[i] ?? 0) }))
    .sort((a, b) => b.combined - a.combined)
    .map(({ c }) => c);
  return { answerable: true, ranked: [...reordered, ...ranked.slice(top.length)] };
}

/** The gate's score for the reader's best statement (gate-calibration.ts compares it with a threshold of its own). */
export async function gateScoreOf(
  q: Question,
  read: SearchResult['chunks'],
  best: RankedCandidate,
  model: ReaderModel,
  similarity: Similarity = statementSimilarity,
  /** The threshold the score will be compared with: the band the encoder decides in lies around it. */
  threshold = model.gate.threshold,
): Promise<number> {
  const features = relevanceFeatures(q, read, best.score);
  if (features === 'none') return -Infinity;
  const lexical = lexicalScore(q, features, model.gate, model.neutral);
  // The encoder, and the second model fitted with it, read English only.
  if (q.language !== 'en') return lexical;
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
  return { answerable: ranked[0] !== undefined && isRelevant(q, read, ranked[0].score, model.gate, gateThreshold, model.neutral), ranked };
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
  return { answerable: score >= threshold, ranked };
}

/** The words of the passages read are stemmed by the knowledge base in one round trip. */
export async function readQuestion(db: Executor, query: string, result: SearchResult, limit = PASSAGES_READ): Promise<Question> {
  const words = result.chunks.slice(0, limit).flatMap((c) => tokenize(`${c.heading ?? ''} ${c.content}`));
  const map = words.length ? await lexemesOf(db, result.config, words) : new Map<string, string[]>();
  return analyseQuestion(query, result.terms, mapLexicon(map, result.terms), languageOfConfig(result.config));
}

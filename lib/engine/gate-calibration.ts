import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { itemAt } from '@/lib/platform/arrays';
import { READER_MODEL, readQuestion, type ReaderModel } from './answerable';
import { BACK_MATTER_SPARE, withoutBackMatter } from './back-matter';
import { OFF_TOPIC_QUESTIONS, type OffTopicQuestion } from './off-topic-questions';
import { relevanceScore } from './relevance-gate';
import { searchChunks } from './retrieval';
import { PASSAGES_READ, rankSentences } from './sentence-ranker';

/**
 * Each knowledge base's own relevance-gate threshold. The shipped gate has one threshold for every knowledge base,
 * fitted across domains; a broad one (whole Wikipedia pages, hundreds of articles) shares words with almost any
 * question and lets more of them through than a narrow rulebook does. So after its index changes, a knowledge base is
 * asked a fixed list of questions about other things (cooking, sport, vehicles, astronomy, entertainment, in four
 * languages: off-topic-questions.ts), and its threshold rises until CALIBRATION_SHARE of them are refused, never
 * above CALIBRATION_CAP, never below the shipped one. Measured in bench/engine-quality (lodo.ts --fit-reader
 * --kb-calibration, each domain held out): other domains' questions refused on long Wikipedia pages 84.4% → 94.4% and
 * on encyclopaedic sets 87.8% → 89.7%, for 1.0 and 1.5 points more of their answerable questions refused; the narrow
 * domains do not move.
 */

export const CALIBRATION_SHARE = 0.95;
/** Log-odds: past this a threshold refuses more of a broad knowledge base's own questions than it saves. */
export const CALIBRATION_CAP = 0.6;

export const CALIBRATION_QUESTIONS: readonly OffTopicQuestion[] = OFF_TOPIC_QUESTIONS;

/**
 * The threshold the gate should use for this knowledge base, from the scores of the calibration questions, or null when
 * the shipped one applies as it is (an index not in English, whose gate is the hand-written rule, or an empty one).
 */
export async function calibratedThreshold(db: Executor, kbId: string, model: ReaderModel = READER_MODEL): Promise<number | null> {
  const scores: CalibrationScore[] = [];
  for (const { question, domain } of CALIBRATION_QUESTIONS) {
    const found = await searchChunks(db, kbId, question, { limit: PASSAGES_READ + BACK_MATTER_SPARE });
    if (found.chunkCount === 0) return null;
    const result = { ...found, chunks: withoutBackMatter(found.chunks, PASSAGES_READ) };
    if (result.chunks.length === 0) {
      scores.push({ domain, score: -Infinity });
      continue;
    }
    const q = await readQuestion(db, question, result);
    const ranked = rankSentences(q, result.chunks, model.sentenceWeights);
    const score = ranked[0] ? relevanceScore(q, result.chunks, ranked[0].score, model.gate) : -Infinity;
    if (score === null) return null;
    scores.push({ domain, score });
  }
  return thresholdFromScores(scores, model.gate.threshold);
}

export interface CalibrationScore {
  /** The calibration question's topic (cooking, sport, …). */
  domain: string;
  score: number;
}

/**
 * The threshold from the calibration questions' gate scores. A topic whose questions mostly pass the shipped threshold
 * is the knowledge base's own (a cookbook asked about recipes): it is left out, so that a knowledge base is never made
 * stricter for answering what it is about. Null when the shipped threshold stands.
 */
export function thresholdFromScores(scores: readonly CalibrationScore[], shipped: number): number | null {
  const domains = [...new Set(scores.map((s) => s.domain))];
  const foreign = domains.filter((d) => {
    const own = scores.filter((s) => s.domain === d);
    return own.filter((s) => s.score >= shipped).length * 2 <= own.length;
  });
  if (foreign.length < 2) return null;
  const kept = scores
    .filter((s) => foreign.includes(s.domain))
    .map((s) => s.score)
    .sort((a, b) => a - b);
  // Just above the score of the question at the share: that question and every one below it are refused.
  const at = itemAt(kept, Math.min(kept.length - 1, Math.floor(CALIBRATION_SHARE * kept.length))) + 1e-6;
  // Rounded up, so that the question at the share stays below it.
  const threshold = Math.min(CALIBRATION_CAP, Math.max(shipped, Math.ceil(at * 1e4) / 1e4));
  return threshold > shipped ? threshold : null;
}

/** Calibrates the knowledge base's gate and stores the threshold where retrieval reads it (kb_index_stats). */
export async function calibrateGate(db: Executor, kbId: string): Promise<number | null> {
  const threshold = await calibratedThreshold(db, kbId);
  await db.execute(sql`update kb_index_stats set gate_threshold = ${threshold} where kb_id = ${kbId}`);
  return threshold;
}

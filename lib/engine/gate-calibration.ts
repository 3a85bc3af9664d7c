import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { itemAt } from '@/lib/platform/arrays';
import { gateScoreOf, READER_MODEL, readQuestion, type ReaderModel } from './answerable';
import { BACK_MATTER_SPARE, withoutBackMatter } from './back-matter';
import { calibrationQuestionsIn } from './calibration-questions';
import { CALIBRATION_BOUNDS, type CalibrationBounds } from './calibration-bounds';
import { checkedSearchConfig, languageOfConfig } from './language';
import { searchChunks } from './retrieval';
import { PASSAGES_READ, rankSentences } from './sentence-ranker';
import { GATE_VERSION } from './gate-version';
import { statementSimilarity } from './sentence-encoder';
import { rows } from './sql-rows';
import { enqueueDebouncedJob } from '@/lib/platform/jobs';
import { PeriodicTask } from '@/lib/platform/periodic-task';
import { processSingleton } from '@/lib/platform/singleton';

/**
 * Each knowledge base's own relevance-gate threshold, from how the calibration questions (calibration-questions.ts, 40
 * subjects) score there. A broad knowledge base shares words with almost any question: its threshold rises until 95% of
 * the foreign ones are refused. A narrow one (a paper, a contract) scores every foreign question far below the shipped
 * threshold: its threshold goes down as far, so that its own questions asked in other words are answered. Bounds in
 * calibration-bounds.ts; measured in bench/engine-quality/README.md.
 */

/** The relevance gate's threshold of a knowledge base, measured again after its index changed. */
export const CALIBRATE_QUEUE = 'content.calibrate';
/**
 * A knowledge base's calibration (240 searches) runs once per window however many documents change in it: twenty
 * uploads in a burst ran it twenty times and kept the embedded database busy for seconds (bench/stall).
 */
export const CALIBRATE_DEBOUNCE_SECONDS = 10;
export const enqueueCalibration = (db: Executor, kbId: string) =>
  enqueueDebouncedJob(db, { queue: CALIBRATE_QUEUE, payload: { kbId }, key: kbId, seconds: CALIBRATE_DEBOUNCE_SECONDS });

const CALIBRATION_ENCODER_MS = 10_000;

/** The threshold for this knowledge base, or null when the shipped one applies (an empty index). */
export async function calibratedThreshold(db: Executor, kbId: string, model: ReaderModel = READER_MODEL): Promise<number | null> {
  const stats = rows<{ search_config: string }>(await db.execute(sql`select search_config from kb_index_stats where kb_id = ${kbId}`));
  if (!stats[0]) return null;
  // Asked in the index's own language: a question in another shares no word with it and says nothing of its threshold.
  const questions = calibrationQuestionsIn(languageOfConfig(checkedSearchConfig(stats[0].search_config)));
  const scores: CalibrationScore[] = [];
  for (const { question, domain } of questions) {
    const found = await searchChunks(db, kbId, question, { limit: PASSAGES_READ + BACK_MATTER_SPARE });
    if (found.chunkCount === 0) return null;
    const result = { ...found, chunks: withoutBackMatter(found.chunks, PASSAGES_READ) };
    if (result.chunks.length === 0) {
      scores.push({ domain, score: -Infinity });
      continue;
    }
    const q = await readQuestion(db, question, result);
    const ranked = rankSentences(q, result.chunks, model.sentenceWeights);
    // The same path as an answer's: near the lexical threshold, the sentence encoder decides (English only). A
    // background job can wait for it, so a busy moment does not make the threshold a lexical one.
    const score = ranked[0] ? await gateScoreOf(q, result.chunks, ranked[0], model, (a, b) => statementSimilarity(a, b, CALIBRATION_ENCODER_MS)) : -Infinity;
    scores.push({ domain, score });
  }
  return thresholdFromScores(scores, model.gate.threshold);
}

export interface CalibrationScore {
  domain: string;
  score: number;
}

/** A topic whose questions mostly pass is the knowledge base's own: left out, so answering it never makes the gate stricter. */
export function thresholdFromScores(scores: readonly CalibrationScore[], shipped: number, bounds: CalibrationBounds = CALIBRATION_BOUNDS): number | null {
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
  const at = itemAt(kept, Math.min(kept.length - 1, Math.floor(bounds.share * kept.length))) + 1e-6;
  // Just above the score of the question at the share, rounded up: it and every one below it are refused.
  const raised = Math.ceil(at * 1e4) / 1e4;
  const lowered = Math.min(shipped, Math.max(shipped - bounds.floor, Math.ceil((at + bounds.margin) * 1e4) / 1e4));
  const threshold = raised >= shipped ? Math.min(shipped + bounds.rise, raised) : lowered;
  return threshold === shipped ? null : threshold;
}

export async function calibrateGate(db: Executor, kbId: string): Promise<number | null> {
  const threshold = await calibratedThreshold(db, kbId);
  await db.execute(sql`update kb_index_stats set gate_threshold = ${threshold}, gate_model = ${GATE_VERSION} where kb_id = ${kbId}`);
  return threshold;
}

/**
 * Knowledge bases whose threshold was calibrated with other weights, questions or bounds, or never, get a calibration
 * job: a narrow knowledge base answers more of its own questions once calibrated.
 */
export async function recalibrateStale(db: Executor): Promise<number> {
  const stale = rows<{ kb_id: string }>(
    await db.execute(sql`select kb_id from kb_index_stats where chunk_count > 0 and gate_model is distinct from ${GATE_VERSION}`),
  );
  for (const { kb_id } of stale) await enqueueCalibration(db, kb_id);
  return stale.length;
}

/** At start and hourly: new weights come with a deployment, and every instance may start first. */
export function startGateRecalibration(): PeriodicTask {
  return processSingleton('gate-recalibration', () =>
    new PeriodicTask('gate-recalibration', async (db) => void (await recalibrateStale(db)), 3_600_000).start(),
  );
}

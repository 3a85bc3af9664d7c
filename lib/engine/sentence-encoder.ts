import { getEnv } from '@/lib/platform/env';
import { log } from '@/lib/platform/log';
import { countEncoderOutcome } from '@/lib/platform/metrics';
import { processSingleton } from '@/lib/platform/singleton';
import { WorkerPool } from '@/lib/platform/worker-pool';

/**
 * The relevance gate's sentence encoder (encoder-task.ts), in one worker thread per process so that its 40 ms of CPU
 * never hold the event loop. Only questions the lexical gate leaves undecided reach it (relevance-gate.ts), and a
 * question it cannot serve in time is judged lexically, as it would be with ENGINE_ENCODER=off.
 */

/** Loading the model takes about a quarter of a second; a question waits for that once, not within the budget. */
const LOAD_MS = 30_000;
/** More questions than this waiting for the encoder: the gate decides lexically rather than queue behind them. */
const MAX_WAITING = 8;
const RETRY_AFTER_FAILURE_MS = 60_000;

interface EncoderState {
  pool: WorkerPool;
  loaded: boolean;
  waiting: number;
  failedAt: number;
}

const state = () =>
  processSingleton<EncoderState>('sentence-encoder', () => ({
    // The model stays loaded for an hour without questions (about 190 MB of memory).
    pool: new WorkerPool({ size: 1, maxHeapMb: getEnv().ENGINE_ENCODER_MAX_HEAP_MB, idleMs: 60 * 60_000 }),
    loaded: false,
    waiting: 0,
    failedAt: -Infinity,
  }));

const encoderEnabled = () => getEnv().ENGINE_ENCODER === 'on';

function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
    timer.unref();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Who asks: the relevance gate about an undecided question, or the reader about close statements (answerable.ts). */
export type EncoderUse = 'gate' | 'reader';

/**
 * The cosines between a question and each statement under the encoder (one worker call, one batch), or null when the
 * caller must decide without it. budgetMs: how long the caller waits once the model is loaded (a buyer's question:
 * ENGINE_ENCODER_BUDGET_MS).
 */
export async function statementSimilarities(
  question: string,
  statements: string[],
  use: EncoderUse,
  budgetMs = getEnv().ENGINE_ENCODER_BUDGET_MS,
): Promise<number[] | null> {
  if (!encoderEnabled() || statements.length === 0) return null;
  const s = state();
  if (performance.now() - s.failedAt < RETRY_AFTER_FAILURE_MS) {
    countEncoderOutcome(use, 'failed');
    return null;
  }
  if (s.waiting >= MAX_WAITING) {
    countEncoderOutcome(use, 'busy');
    return null;
  }
  s.waiting++;
  const task = s.pool
    .run<number[]>({ module: 'lib/engine/encoder-task.ts', exportName: 'similarities', args: [question, statements], timeoutMs: LOAD_MS })
    .then((value) => {
      s.loaded = true;
      return value;
    })
    .catch((error: unknown) => {
      s.failedAt = performance.now();
      log.warn({ err: (error as Error).message }, 'sentence encoder failed; the engine decides lexically for a minute');
      return null;
    })
    .finally(() => s.waiting--);
  const similarities = await within(task, s.loaded ? budgetMs : Math.max(budgetMs, LOAD_MS));
  countEncoderOutcome(use, similarities === null ? (performance.now() - s.failedAt < RETRY_AFTER_FAILURE_MS ? 'failed' : 'late') : 'decided');
  return similarities;
}

/** The cosine between a question and the best statement (the relevance gate's question), or null. */
export async function statementSimilarity(question: string, statement: string, budgetMs?: number): Promise<number | null> {
  return (await statementSimilarities(question, [statement], 'gate', budgetMs))?.[0] ?? null;
}

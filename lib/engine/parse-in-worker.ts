import { getEnv } from '@/lib/platform/env';
import { processSingleton } from '@/lib/platform/singleton';
import { WorkerLimitError, WorkerPool } from '@/lib/platform/worker-pool';
import type { ChunkOutcome, IndexedChunk, ParseBudget, ParseOutcome, PrepareOutcome } from './parse-task';
import { ParseError, type ParsedDocument, type SourceFormat } from './parsers';

/**
 * parseSource and chunkDocument off the main thread, within the document budgets of .env.example (PARSE_*): the same
 * result, or a ParseError whose sentence names the limit a hostile or oversized file broke. The main thread stays
 * free meanwhile to answer requests and renew the job's lease (lib/platform/jobs.ts).
 */

const pool = () =>
  processSingleton('parse-pool', () => {
    const env = getEnv();
    return new WorkerPool({ size: env.PARSE_WORKERS, maxHeapMb: env.PARSE_MAX_HEAP_MB });
  });

export function parseBudget(): ParseBudget {
  const env = getEnv();
  return {
    maxPages: env.PARSE_MAX_PAGES,
    maxInflatedBytes: env.PARSE_MAX_INFLATED_BYTES,
    maxDepth: env.PARSE_MAX_DEPTH,
    maxCharacters: env.PARSE_MAX_CHARACTERS,
    maxChunks: env.PARSE_MAX_CHUNKS,
  };
}

/** Runs one export of parse-task.ts in the pool; a breach of the pool's budgets (time, heap) is the file's ParseError. */
async function runTask<T extends { ok: boolean }>(exportName: string, args: unknown[], transfer: ArrayBuffer[] = []): Promise<Exclude<T, { ok: false }>> {
  let outcome: T;
  try {
    outcome = await pool().run<T>({ module: 'lib/engine/parse-task.ts', exportName, args, transfer, timeoutMs: getEnv().PARSE_TIMEOUT_MS });
  } catch (error) {
    if (!(error instanceof WorkerLimitError)) throw error;
    if (error.limit === 'crash') throw error; // ours, not the file's: the job retries
    throw new ParseError('over_limit', `Reading the file ${error.message}, the limit for one document.`);
  }
  const refused = outcome as unknown as { ok: boolean; code: ParseError['code']; message: string };
  if (!refused.ok) throw new ParseError(refused.code, refused.message);
  return outcome as Exclude<T, { ok: false }>;
}

export async function parseInWorker(format: SourceFormat, bytes: Uint8Array, sourceName: string, budget: ParseBudget = parseBudget()): Promise<ParsedDocument> {
  const copy = new Uint8Array(bytes); // its buffer moves to the worker
  return (await runTask<ParseOutcome>('parseWithinBudget', [format, copy, sourceName, budget], [copy.buffer])).parsed;
}

/** Parses a file and cuts its chunks (with their token counts) in one trip to a worker. */
export async function prepareInWorker(
  format: SourceFormat,
  bytes: Uint8Array,
  sourceName: string,
  budget: ParseBudget = parseBudget(),
): Promise<{ parsed: ParsedDocument; chunks: IndexedChunk[] }> {
  const copy = new Uint8Array(bytes);
  const { parsed, chunks } = await runTask<PrepareOutcome>('prepareWithinBudget', [format, copy, sourceName, budget], [copy.buffer]);
  return { parsed, chunks };
}

/** Cuts a parsed document's chunks in a worker (reindexing a stored structure). */
export async function chunkInWorker(parsed: ParsedDocument, budget: ParseBudget = parseBudget()): Promise<IndexedChunk[]> {
  return (await runTask<ChunkOutcome>('chunkWithinBudget', [parsed, budget])).chunks;
}

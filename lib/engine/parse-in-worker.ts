import { getEnv } from '@/lib/platform/env';
import { processSingleton } from '@/lib/platform/singleton';
import { WorkerLimitError, WorkerPool } from '@/lib/platform/worker-pool';
import type { ParseBudget, ParseOutcome } from './parse-task';
import { ParseError, type ParsedDocument, type SourceFormat } from './parsers';

/**
 * parseSource off the main thread, within the document budgets of .env.example (PARSE_*): the same result, or a
 * ParseError whose sentence names the limit a hostile or oversized file broke. The main thread stays free meanwhile
 * to answer requests and renew the job's lease (lib/platform/jobs.ts).
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
  };
}

export async function parseInWorker(format: SourceFormat, bytes: Uint8Array, sourceName: string, budget: ParseBudget = parseBudget()): Promise<ParsedDocument> {
  const copy = new Uint8Array(bytes); // its buffer moves to the worker
  let outcome: ParseOutcome;
  try {
    outcome = await pool().run<ParseOutcome>({
      module: 'lib/engine/parse-task.ts',
      exportName: 'parseWithinBudget',
      args: [format, copy, sourceName, budget],
      transfer: [copy.buffer],
      timeoutMs: getEnv().PARSE_TIMEOUT_MS,
    });
  } catch (error) {
    if (!(error instanceof WorkerLimitError)) throw error;
    if (error.limit === 'crash') throw error; // ours, not the file's: the job retries
    throw new ParseError('over_limit', `Reading the file ${error.message}, the limit for one document.`);
  }
  if (!outcome.ok) throw new ParseError(outcome.code, outcome.message);
  return outcome.parsed;
}

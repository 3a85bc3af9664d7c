import { getEnv } from '@/lib/platform/env';
import { log } from '@/lib/platform/log';
import type { DraftChunk } from './chunking';
import type { QueryVector } from './types';

/** Unit vectors from an OpenAI-compatible `/embeddings` endpoint (docs/api.md §8.1); every failure is an EmbeddingsError. */
export interface EmbeddingsConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
}

export class EmbeddingsError extends Error {}

const BATCH = 64;
/** Long chunks are cut: the start carries the heading and the topic. */
const MAX_CHARS = 4_000;

export function embeddingsConfig(): EmbeddingsConfig | null {
  const env = getEnv();
  if (!env.EMBEDDINGS_BASE_URL || !env.EMBEDDINGS_API_KEY || !env.EMBEDDINGS_MODEL) return null;
  return { baseUrl: env.EMBEDDINGS_BASE_URL, apiKey: env.EMBEDDINGS_API_KEY, model: env.EMBEDDINGS_MODEL, timeoutMs: env.EMBEDDINGS_TIMEOUT_MS };
}

function normalise(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((a, v) => a + v * v, 0));
  return norm > 0 ? vector.map((v) => v / norm) : vector;
}

export async function embedTexts(config: EmbeddingsConfig, texts: string[], signal?: AbortSignal): Promise<number[][]> {
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += BATCH) {
    const input = texts.slice(i, i + BATCH).map((t) => t.slice(0, MAX_CHARS));
    const timeout = AbortSignal.timeout(config.timeoutMs ?? 10_000);
    const post = () =>
      fetch(`${config.baseUrl.replace(/\/+$/, '')}/embeddings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${config.apiKey}` },
        body: JSON.stringify({ model: config.model, input }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    // Once more on a failure to connect: after an idle spell the first request can reuse a keep-alive connection the
    // endpoint has closed, and fetch does not retry a POST. Embedding is idempotent.
    const response = await post()
      .catch((error: unknown) => {
        if (timeout.aborted || signal?.aborted) throw error;
        return post();
      })
      .catch((error: unknown) => {
        throw new EmbeddingsError(`embeddings endpoint unreachable: ${(error as Error).message}`);
      });
    if (!response.ok) throw new EmbeddingsError(`embeddings endpoint answered ${response.status}`);
    const body = (await response.json().catch(() => null)) as { data?: Array<{ index?: number; embedding?: unknown }> } | null;
    const data = body?.data;
    if (!Array.isArray(data) || data.length !== input.length) throw new EmbeddingsError('embeddings answer has the wrong number of vectors');
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    let dimension = -1;
    for (const item of ordered) {
      const v = item.embedding;
      if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'number' && Number.isFinite(x)))
        throw new EmbeddingsError('embeddings answer holds an invalid vector');
      if (dimension >= 0 && v.length !== dimension) throw new EmbeddingsError('embeddings answer mixes dimensions');
      dimension = v.length;
      out.push(normalise(v as number[]));
    }
  }
  return out;
}

/**
 * The vectors of a document's chunks (each embedded as its heading path, then its content), or null when no endpoint
 * is configured or it fails: the document is then searchable lexically only. Called outside any transaction, so that
 * a slow endpoint holds no lock.
 */
export async function embedDrafts(
  config: EmbeddingsConfig | null,
  drafts: DraftChunk[],
  /** Which document, for the log: its file name on ingestion, its id on a reindex. */
  document: string,
): Promise<{ model: string; vectors: number[][] } | null> {
  if (!config || drafts.length === 0) return null;
  try {
    return {
      model: config.model,
      vectors: await embedTexts(
        config,
        drafts.map((d) => `${d.heading ?? ''}\n${d.content}`),
      ),
    };
  } catch (error) {
    log.warn({ document, err: (error as Error).message }, 'embeddings failed; the document is indexed lexically only');
    return null;
  }
}

/** Numbers only, so nothing else can reach SQL. */
export function realArrayLiteral(vector: number[]): string {
  return `{${vector.map((v) => (Number.isFinite(v) ? String(Math.fround(v)) : '0')).join(',')}}`;
}

/** Undefined when the endpoint fails, so the buyer still gets an answer; an abort is not a failure: it ends the work. */
export async function questionVector(
  config: EmbeddingsConfig,
  question: string,
  context: { signal?: AbortSignal; requestId?: string } = {},
): Promise<QueryVector | undefined> {
  try {
    const [values] = await embedTexts(config, [question], context.signal);
    if (!values) throw new Error('the embeddings service returned no vector');
    return { model: config.model, values };
  } catch (error) {
    if (context.signal?.aborted) throw error;
    log.warn({ requestId: context.requestId, err: (error as Error).message }, 'question embedding failed; retrieving lexically');
    return undefined;
  }
}

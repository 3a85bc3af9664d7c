import { getDb, type Executor } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { log } from '@/lib/platform/log';
import type { QueryAnswer, QueryRequest } from '@/lib/query-answer';
import { composeExtractiveAnswer, noAnswer } from './answer';
import { judgeAnswerable, readQuestion, rereadWithEncoder } from './answerable';
import { BACK_MATTER_SPARE, withoutBackMatter } from './back-matter';
import { PASSAGES_READ } from './sentence-ranker';
import { embeddingsConfig, questionVector, type EmbeddingsConfig } from './embeddings';
import { composeLlmAnswer, LLM_PASSAGES, StreamBroken, streamLlmAnswer, type LlmConfig } from './llm';
import { searchChunks } from './retrieval';

/** The built-in engine (docs/api.md §8): ingestion, retrieval, passages and the hosted backend's answers (§6.1). */
export type { SearchResult } from './retrieval';
export type { QueryTerm, RetrievedChunk } from './types';
export { searchChunks } from './retrieval';
export { embeddingsConfig, embedTexts, EmbeddingsError, type EmbeddingsConfig } from './embeddings';
export { findPassages, type Passage } from './passages';
export { deleteDocument, documentIdFor, ingestDocument, type IngestResult } from './ingest';
export { reindexKnowledgeBase } from './reindex';
export { purgeAbandonedStagedChunks, startStagedChunkPurge } from './chunk-store';
export { detectFormat, MIME_TYPES, ParseError, type SourceFormat } from './parsers';
export { parsePdfSource, renderPdfFromSource, type PdfSource } from './pdf-render';
export * from './uploads';
export { CALIBRATE_DEBOUNCE_SECONDS, CALIBRATE_QUEUE, calibrateGate, calibratedThreshold, startGateRecalibration } from './gate-calibration';
export { GATE_VERSION } from './gate-version';
export { uploadStagingDirectory } from './source-store';

export function llmConfig(): LlmConfig | null {
  const env = getEnv();
  if (!env.LLM_BASE_URL || !env.LLM_API_KEY || !env.LLM_MODEL) return null;
  return { baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY, model: env.LLM_MODEL, timeoutMs: env.LLM_TIMEOUT_MS };
}

/** The gateway has already authorised the request; this only reads. */
export async function answerHostedQuery(
  request: QueryRequest,
  db?: Executor,
  options: { llm?: LlmConfig | null; embeddings?: EmbeddingsConfig | null } = {},
): Promise<QueryAnswer> {
  const executor = db ?? (await getDb());
  request.signal?.throwIfAborted();
  const llm = options.llm === undefined ? llmConfig() : options.llm;
  const limit = Math.max(PASSAGES_READ, llm ? LLM_PASSAGES : 0);
  const embeddings = options.embeddings === undefined ? embeddingsConfig() : options.embeddings;
  const vector = embeddings ? () => questionVector(embeddings, request.query, request) : undefined;
  const found = await searchChunks(executor, request.kbId, request.query, { limit: limit + BACK_MATTER_SPARE, vector });
  const result = { ...found, chunks: withoutBackMatter(found.chunks, limit) };
  request.signal?.throwIfAborted();
  const question = await readQuestion(executor, request.query, result, limit);
  const judgement = await judgeAnswerable(question, result.chunks, undefined, result.gateThreshold);
  request.signal?.throwIfAborted();
  if (llm) {
    if (!judgement.answerable) return noAnswer(request.query, [], question.language);
    try {
      if (request.progress) return await streamLlmAnswer(llm, request.query, result.chunks, request.progress, request.signal);
      return await composeLlmAnswer(llm, request.query, result.chunks, request.signal);
    } catch (error) {
      // Text already streamed cannot be taken back for an extractive answer.
      if (request.signal?.aborted || error instanceof StreamBroken) throw error;
      // The knowledge base still answers when the chat model is down: extractively, from the same passages.
      log.warn({ requestId: request.requestId, err: (error as Error).message }, 'chat model failed; answering extractively');
    }
  }
  // Off by default: the encoder's re-reading adds about 75 ms to an answer at the median (bench/engine-speed/README.md).
  const reread = getEnv().ENGINE_ENCODER_READER === 'on' ? await rereadWithEncoder(question, judgement) : judgement;
  return composeExtractiveAnswer(request.query, result.terms, result.chunks, undefined, { question, judgement: reread });
}

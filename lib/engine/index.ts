import { getDb, type Executor } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { log } from '@/lib/platform/log';
import type { QueryAnswer, QueryRequest } from '@/lib/query-answer';
import { composeExtractiveAnswer, noAnswer } from './answer';
import { analyseQuestion, mapLexicon, type Lexicon } from './question';
import { languageOfConfig } from './language';
import { isRelevant } from './relevance-gate';
import { PASSAGES_READ } from './sentence-ranker';
import { embeddingsConfig, questionVector, type EmbeddingsConfig } from './embeddings';
import { composeLlmAnswer, LLM_PASSAGES, type LlmConfig } from './llm';
import { lexemesOf, searchChunks, type SearchResult } from './retrieval';
import { tokenize } from './text';

export type { QueryTerm, RetrievedChunk, SearchResult } from './retrieval';
export { searchChunks } from './retrieval';
export { embeddingsConfig, embedTexts, EmbeddingsError, type EmbeddingsConfig } from './embeddings';
export { findPassages, type Passage } from './passages';
export { deleteDocument, documentIdFor, ingestDocument, reindexKnowledgeBase, type IngestResult } from './ingest';
export { detectFormat, MIME_TYPES, ParseError, type SourceFormat } from './parsers';
export { parsePdfSource, renderPdfFromSource, type PdfSource } from './pdf-render';
export * from './uploads';

/** The configured chat model, or null for extractive answers. */
export function llmConfig(): LlmConfig | null {
  const env = getEnv();
  if (!env.LLM_BASE_URL || !env.LLM_API_KEY || !env.LLM_MODEL) return null;
  return { baseUrl: env.LLM_BASE_URL, apiKey: env.LLM_API_KEY, model: env.LLM_MODEL, timeoutMs: env.LLM_TIMEOUT_MS };
}

/**
 * The `hosted` backend of docs/api.md §6.1: answers a buyer's query from the knowledge base's own documents.
 * The gateway has already authorised the request; this only reads. `options.llm` overrides the configuration
 * (null forces extractive mode).
 */
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
  const result = await searchChunks(executor, request.kbId, request.query, { limit, vector });
  request.signal?.throwIfAborted();
  const lexicon = await passageLexicon(executor, result, limit);
  const language = languageOfConfig(result.config);
  if (llm) {
    if (!isRelevant(result.terms, result.chunks, analyseQuestion(request.query, result.terms, lexicon, language))) return noAnswer(request.query);
    try {
      return await composeLlmAnswer(llm, request.query, result.chunks, request.signal);
    } catch (error) {
      if (request.signal?.aborted) throw error;
      // The knowledge base still answers when the chat model is down: extractively, from the same passages.
      log.warn({ requestId: request.requestId, err: (error as Error).message }, 'chat model failed; answering extractively');
    }
  }
  return composeExtractiveAnswer(request.query, result.terms, result.chunks, lexicon, { language });
}

/** The words of the passages read, stemmed by the knowledge base's own configuration (one round trip). */
async function passageLexicon(db: Executor, result: SearchResult, limit: number): Promise<Lexicon> {
  const words = result.chunks.slice(0, limit).flatMap((c) => tokenize(`${c.heading ?? ''} ${c.content}`));
  const map = words.length ? await lexemesOf(db, result.config, words) : new Map<string, string[]>();
  return mapLexicon(map, result.terms);
}

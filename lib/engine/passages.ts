import type { Executor } from '@/lib/platform/db';
import { embeddingsConfig, questionVector, type EmbeddingsConfig } from './embeddings';
import { isRelevant } from './relevance-gate';
import { searchChunks } from './retrieval';

/** A retrieved passage as the retrieval-only endpoints return it (docs/api.md §10.2, §10.3). */
export interface Passage {
  documentId: string;
  title: string;
  /** A verbatim slice of the document, on `page`. */
  excerpt: string;
  page: number | null;
  heading: string | null;
  /** Relevance in (0, 1]: the best passage of the query scores 1, the others in proportion to their ranking score. */
  score: number;
}

/** Excerpts end at a sentence (or word) boundary near this length, so they stay verbatim and readable. */
const EXCERPT_CHARS = 600;

function verbatimExcerpt(content: string): string {
  if (content.length <= EXCERPT_CHARS) return content.trim();
  const window = content.slice(0, EXCERPT_CHARS);
  const sentenceEnd = Math.max(window.lastIndexOf('. '), window.lastIndexOf('? '), window.lastIndexOf('! '));
  if (sentenceEnd > EXCERPT_CHARS / 3) return window.slice(0, sentenceEnd + 1).trim();
  const wordEnd = window.lastIndexOf(' ');
  return (wordEnd > 0 ? window.slice(0, wordEnd) : window).trim();
}

/**
 * The best passages of a hosted knowledge base for a query, or none when nothing is relevant (the same gate as the
 * answer's, so a search abstains exactly when an answer would). Hybrid like the answer's retrieval when an embeddings
 * endpoint is configured (`embeddings` overrides the configuration; null forces lexical).
 */
export async function findPassages(db: Executor, kbId: string, query: string, topK: number, signal?: AbortSignal, embeddings: EmbeddingsConfig | null = embeddingsConfig()): Promise<Passage[]> {
  const vector = embeddings ? () => questionVector(embeddings, query, { signal }) : undefined;
  const result = await searchChunks(db, kbId, query, { limit: topK, vector });
  signal?.throwIfAborted();
  if (result.chunks.length === 0 || !isRelevant(result.terms, result.chunks)) return [];
  const best = Math.max(...result.chunks.map((c) => c.score));
  return result.chunks.slice(0, topK).map((chunk) => ({
    documentId: chunk.documentId,
    title: chunk.documentTitle,
    excerpt: verbatimExcerpt(chunk.content),
    page: chunk.page,
    heading: chunk.heading,
    score: best > 0 ? Math.round((chunk.score / best) * 1e4) / 1e4 : 0,
  }));
}

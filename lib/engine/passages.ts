import type { Executor } from '@/lib/platform/db';
import { itemAt } from '@/lib/platform/arrays';
import { embeddingsConfig, questionVector, type EmbeddingsConfig } from './embeddings';
import { judgeAnswerable, readQuestion } from './answerable';
import { searchChunks } from './retrieval';

/** A retrieved passage as the retrieval-only endpoints return it (docs/api.md §10.2, §10.3). */
export interface Passage {
  documentId: string;
  title: string;
  /** A verbatim slice of the document, on `page`. */
  excerpt: string;
  page: number | null;
  heading: string | null;
  score: number;
}

const EXCERPT_CHARS = 600;

function verbatimExcerpt(content: string): string {
  if (content.length <= EXCERPT_CHARS) return content.trim();
  const window = content.slice(0, EXCERPT_CHARS);
  const sentenceEnd = Math.max(window.lastIndexOf('. '), window.lastIndexOf('? '), window.lastIndexOf('! '));
  if (sentenceEnd > EXCERPT_CHARS / 3) return window.slice(0, sentenceEnd + 1).trim();
  const wordEnd = window.lastIndexOf(' ');
  return (wordEnd > 0 ? window.slice(0, wordEnd) : window).trim();
}

/** Relative to the first, never 0, never above the score before: a client filtering on them (Dify's score_threshold) sees the order given. */
export function rankScores(ranking: number[]): number[] {
  const first = ranking[0] ?? 0;
  let ceiling = 1;
  return ranking.map((score) => (ceiling = Math.min(ceiling, first > 0 ? Math.max(1e-4, Math.round((score / first) * 1e4) / 1e4) : 1e-4)));
}

/** None when nothing is relevant: the same gate as the answer's, so a search abstains exactly when an answer would. */
export async function findPassages(
  db: Executor,
  kbId: string,
  query: string,
  topK: number,
  signal?: AbortSignal,
  embeddings: EmbeddingsConfig | null = embeddingsConfig(),
): Promise<Passage[]> {
  const vector = embeddings ? () => questionVector(embeddings, query, { signal }) : undefined;
  const result = await searchChunks(db, kbId, query, { limit: topK, vector });
  signal?.throwIfAborted();
  if (result.chunks.length === 0 || !(await judgeAnswerable(await readQuestion(db, query, result), result.chunks, undefined, result.gateThreshold)).answerable)
    return [];
  const top = result.chunks.slice(0, topK);
  const scores = rankScores(top.map((c) => c.score));
  return top.map((chunk, i) => ({
    documentId: chunk.documentId,
    title: chunk.documentTitle,
    excerpt: verbatimExcerpt(chunk.content),
    page: chunk.page,
    heading: chunk.heading,
    score: itemAt(scores, i),
  }));
}

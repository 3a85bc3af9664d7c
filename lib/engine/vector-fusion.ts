import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { toRetrievedChunk, type ChunkRow } from './lexical-search';
import { rows } from './sql-rows';
import type { QueryVector, RetrievedChunk } from './types';
import { nearestChunkIds } from './vector-search';

/** Reciprocal rank fusion constant (the usual 60) and the vector candidates fused with the lexical ones. */
export const RRF_K = 60;
export const VECTOR_CANDIDATES = 20;

/**
 * When the vectors have a say. Measured with a real sentence encoder (bench/engine-quality, round 6), plain RRF
 * let a model far weaker than BM25 at rank 1 (77% against 97% of gold documents first) reorder confident lexical
 * rankings: recall@1 fell from 97.1% to 86.8%. So the vector list is fused only where the lexical ranking is
 * close, its best document's score less than CLOSE_LEAD ahead of the next document's, and then with weight
 * VECTOR_WEIGHT. Both chosen on the tuning part (gold document first for 96.4% of it instead of 94.1%); over the
 * whole set 97.9%, no part lower (the tests' hashed-word stand-in: 96.6%, where plain RRF gave 92.0%).
 */
export const CLOSE_LEAD = 0.2;
export const VECTOR_WEIGHT = 0.25;

/**
 * How far the best lexical document leads the next one, as a share of its score; 1 when no other document matched
 * (nothing to choose between: an off-topic question that shares one word with one document must not bring in the
 * chunks nearest its meaning, which the relevance gate then read), 0 when nothing matched.
 */
export function lexicalLead(lexical: RetrievedChunk[]): number {
  const best = lexical[0];
  if (!best || best.score <= 0) return 0;
  const next = lexical.find((c) => c.documentId !== best.documentId);
  return next ? (best.score - next.score) / best.score : 1;
}

/**
 * Reciprocal rank fusion of two rankings of chunk ids: 1 / (RRF_K + rank) summed over the lists, the vector list's
 * share scaled by `vectorWeight` (VECTOR_WEIGHT in the engine; bench/engine-quality/hybrid.ts measures others), ties
 * by chunk id.
 */
export function fuseRanks(lexical: number[], nearest: number[], vectorWeight = 1): number[] {
  const fused = new Map<number, number>();
  lexical.forEach((id, i) => fused.set(id, 1 / (RRF_K + i + 1)));
  nearest.forEach((id, i) => fused.set(id, (fused.get(id) ?? 0) + vectorWeight / (RRF_K + i + 1)));
  return [...fused.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
}

/**
 * Hybrid retrieval: the knowledge base's chunks nearest the question's vector (exact: pgvector where the database has
 * it, otherwise an inner product in SQL over real[]; vector-search.ts), fused with the lexical ranking by weighted
 * reciprocal rank (1 / (RRF_K + rank) for the lexical list, VECTOR_WEIGHT / (RRF_K + rank) for the vector list). A
 * chunk found only by its vector keeps half the lowest BM25 score of the list, so passage-rank features stay
 * comparable; the relevance gate still asks for the question's words.
 */
export async function fuseWithVectors(db: Executor, kbId: string, lexical: RetrievedChunk[], vector: QueryVector, limit: number): Promise<RetrievedChunk[]> {
  const nearest = await nearestChunkIds(db, kbId, vector, VECTOR_CANDIDATES);
  const order = fuseRanks(
    lexical.map((c) => c.chunkId),
    nearest,
    VECTOR_WEIGHT,
  ).slice(0, limit);
  const byId = new Map(lexical.map((c) => [c.chunkId, c]));
  const missing = order.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    const floor = lexical.length ? Math.min(...lexical.map((c) => c.score)) / 2 : 0;
    const extra = rows<ChunkRow>(
      await db.execute(sql`
        select c.id, c.document_id, d.title, c.page, c.heading, c.content, c.token_count
        from chunks c join documents d on d.id = c.document_id
        where c.kb_id = ${kbId} and c.id = any(${`{${missing.join(',')}}`}::bigint[])`),
    );
    for (const r of extra) byId.set(Number(r.id), { ...toRetrievedChunk(r), score: floor });
  }
  return order.map((id) => byId.get(id)).filter((c): c is RetrievedChunk => c !== undefined);
}

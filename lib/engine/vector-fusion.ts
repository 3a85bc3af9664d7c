import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { toRetrievedChunk, type ChunkRow } from './lexical-search';
import { rows } from './sql-rows';
import type { QueryVector, RetrievedChunk } from './types';
import { nearestChunkIds } from './vector-search';

/** Weighted reciprocal rank fusion of the lexical and vector rankings (docs/api.md §8.1) where the lexical lead is close. */

export const RRF_K = 60;
export const VECTOR_CANDIDATES = 20;

export const CLOSE_LEAD = 0.2;
export const VECTOR_WEIGHT = 0.25;

/** 1 when no other document matched: an off-topic question sharing one word with one document must not bring in vectors. */
export function lexicalLead(lexical: RetrievedChunk[]): number {
  const best = lexical[0];
  if (!best || best.score <= 0) return 0;
  const next = lexical.find((c) => c.documentId !== best.documentId);
  return next ? (best.score - next.score) / best.score : 1;
}

export function fuseRanks(lexical: number[], nearest: number[], vectorWeight = 1): number[] {
  const fused = new Map<number, number>();
  lexical.forEach((id, i) => fused.set(id, 1 / (RRF_K + i + 1)));
  nearest.forEach((id, i) => fused.set(id, (fused.get(id) ?? 0) + vectorWeight / (RRF_K + i + 1)));
  return [...fused.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
}

/** A chunk found only by its vector keeps half the lowest BM25 score of the list, so passage-rank features stay comparable. */
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

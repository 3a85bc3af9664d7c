import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db';

export interface RetrievedChunk {
  chunkId: number;
  documentId: string;
  documentTitle: string;
  page: number | null;
  heading: string | null;
  content: string;
  score: number;
}

/** First version: websearch tsquery + ts_rank_cd inside one knowledge base. Replaced by BM25 below. */
export async function searchChunks(db: Executor, kbId: string, query: string, options: { limit: number }): Promise<RetrievedChunk[]> {
  const result = await db.execute(sql`
    select c.id, c.document_id, d.title, c.page, c.heading, c.content,
           ts_rank_cd(c.search_vector, q) as score
    from chunks c join documents d on d.id = c.document_id,
         websearch_to_tsquery('almanac', ${query}) q
    where c.kb_id = ${kbId} and c.search_vector @@ q
    order by score desc, c.id
    limit ${options.limit}`);
  return (result.rows as Array<Record<string, unknown>>).map((r) => ({
    chunkId: Number(r.id),
    documentId: String(r.document_id),
    documentTitle: String(r.title),
    page: r.page === null ? null : Number(r.page),
    heading: (r.heading as string | null) ?? null,
    content: String(r.content),
    score: Number(r.score),
  }));
}

import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';

/** Adds (+1) or removes (−1) one document's chunks from the knowledge base's BM25 statistics. */
export async function applyDocumentStats(tx: Executor, kbId: string, documentId: string, sign: 1 | -1): Promise<void> {
  if (sign === 1) {
    // Sorted so concurrent writers (serialised anyway by the stats-row lock) would take row locks in one order.
    await tx.execute(sql`
      insert into kb_terms (kb_id, lexeme, doc_freq)
      select ${kbId}, lexeme, count(*)::int from chunks c, unnest(tsvector_to_array(c.search_vector)) lexeme
      where c.document_id = ${documentId} and c.kb_id = ${kbId} group by lexeme order by lexeme
      on conflict (kb_id, lexeme) do update set doc_freq = kb_terms.doc_freq + excluded.doc_freq`);
  } else {
    // Two statements: sub-statements of one WITH cannot see each other's changes to the same table.
    await tx.execute(sql`
      update kb_terms t set doc_freq = t.doc_freq - d.n
      from (
        select lexeme, count(*)::int as n from chunks c, unnest(tsvector_to_array(c.search_vector)) lexeme
        where c.document_id = ${documentId} and c.kb_id = ${kbId} group by lexeme
      ) d
      where t.kb_id = ${kbId} and t.lexeme = d.lexeme`);
    await tx.execute(sql`delete from kb_terms where kb_id = ${kbId} and doc_freq <= 0`);
  }
  await tx.execute(sql`
    update kb_index_stats s set
      chunk_count = s.chunk_count + ${sign} * d.n,
      total_length = s.total_length + ${sign} * d.len,
      updated_at = now()
    from (select count(*)::int as n, coalesce(sum(lexeme_count), 0)::bigint as len from chunks where document_id = ${documentId} and kb_id = ${kbId}) d
    where s.kb_id = ${kbId}`);
}

/** Recomputes kb_terms and kb_index_stats of one knowledge base from its chunks. */
export async function rebuildKnowledgeBaseStats(tx: Executor, kbId: string): Promise<void> {
  await tx.execute(sql`delete from kb_terms where kb_id = ${kbId}`);
  await tx.execute(sql`
    insert into kb_terms (kb_id, lexeme, doc_freq)
    select ${kbId}, lexeme, count(*)::int from chunks c, unnest(tsvector_to_array(c.search_vector)) lexeme
    where c.kb_id = ${kbId} group by lexeme`);
  await tx.execute(sql`
    insert into kb_index_stats (kb_id, chunk_count, total_length)
    select ${kbId}, count(*)::int, coalesce(sum(lexeme_count), 0) from chunks where kb_id = ${kbId}
    on conflict (kb_id) do update set chunk_count = excluded.chunk_count, total_length = excluded.total_length, updated_at = now()`);
}

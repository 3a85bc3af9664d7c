import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { checkedSearchConfig, searchConfigFor, type SearchConfig } from './language';
import { rows } from './sql-rows';

/**
 * Takes the knowledge base's statistics row lock (creating the row on first use): writes to one knowledge base's index
 * run one after another, so document frequencies stay exact. Returns the text-search configuration to index with
 * (the one the index was built with; an empty index, or a reindex, adopts the knowledge base's current language), or
 * null when the knowledge base does not exist.
 */
export async function lockKnowledgeBase(tx: Executor, kbId: string, options: { adoptLanguage?: boolean } = {}): Promise<SearchConfig | null> {
  const kb = rows<{ language: string }>(await tx.execute(sql`select language from knowledge_bases where id = ${kbId}`));
  if (!kb[0]) return null;
  const current = searchConfigFor(kb[0].language);
  await tx.execute(sql`insert into kb_index_stats (kb_id, search_config) values (${kbId}, ${current}) on conflict (kb_id) do nothing`);
  const stats = rows<{ search_config: string; chunk_count: number }>(
    await tx.execute(sql`select search_config, chunk_count from kb_index_stats where kb_id = ${kbId} for update`),
  );
  const stored = checkedSearchConfig(stats[0]?.search_config);
  if (stored !== current && (options.adoptLanguage || Number(stats[0]?.chunk_count ?? 0) === 0)) {
    await tx.execute(sql`update kb_index_stats set search_config = ${current} where kb_id = ${kbId}`);
    return current;
  }
  return stored;
}

/** The catalogue's document count and the knowledge base's `updated_at`, after a change to its documents. */
export async function touchKnowledgeBase(tx: Executor, kbId: string): Promise<void> {
  await tx.execute(sql`
    update knowledge_bases set
      documents_count = (select count(*)::int from documents where kb_id = ${kbId} and status = 'ready'),
      updated_at = now()
    where id = ${kbId}`);
}

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

/**
 * One document's share of the statistics, counted in short statements before the transaction that applies it: how
 * many chunks, their total length, in how many of them each lexeme occurs, and their ids, by which that transaction
 * knows that chunks already visible are still the same rows (ids are never reused).
 */
export interface DocumentShare {
  chunks: number;
  length: number;
  ids: string[];
  terms: Map<string, number>;
}

export const emptyShare = (): DocumentShare => ({ chunks: 0, length: 0, ids: [], terms: new Map() });

/** Adds chunk rows (their ids, lengths and lexemes) to a share. */
export function addToShare(share: DocumentShare, chunks: Array<{ id: number | string; lexeme_count: number; lexemes: string[] | null }>): void {
  for (const chunk of chunks) {
    share.chunks++;
    share.length += Number(chunk.lexeme_count);
    share.ids.push(String(chunk.id));
    for (const lexeme of chunk.lexemes ?? []) share.terms.set(lexeme, (share.terms.get(lexeme) ?? 0) + 1);
  }
}

const SHARE_BATCH = 200;

/** The share of a document's visible chunks, read in batches of SHARE_BATCH chunks (each a short statement). */
export async function readVisibleShare(db: Executor, kbId: string, documentId: string): Promise<DocumentShare> {
  const share = emptyShare();
  for (let after = 0; ;) {
    const batch = rows<{ id: string; lexeme_count: number; lexemes: string[] | null }>(
      await db.execute(sql`
        select id, lexeme_count, tsvector_to_array(search_vector) as lexemes from chunks
        where document_id = ${documentId} and kb_id = ${kbId} and id > ${after} order by id limit ${SHARE_BATCH}`),
    );
    addToShare(share, batch);
    const last = batch.at(-1);
    if (!last || batch.length < SHARE_BATCH) return share;
    after = Number(last.id);
    // PGlite answers on this thread without a turn of the event loop between statements: one is given here.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Whether the document's visible chunks are still the rows `share` was read from (readVisibleShare, which reads them
 * in id order), asked under the statistics lock.
 */
export async function isVisibleShare(tx: Executor, kbId: string, documentId: string, share: DocumentShare): Promise<boolean> {
  const [now] = rows<{ ids: string }>(
    await tx.execute(sql`select coalesce(string_agg(id::text, ',' order by id), '') as ids from chunks where document_id = ${documentId} and kb_id = ${kbId}`),
  );
  return now?.ids === share.ids.join(',');
}

/**
 * Replaces one share of the statistics by another in a few statements over the lexemes whose counts differ: a
 * reindex that cuts a document as before changes no term, where subtracting and adding its chunks in SQL reads every
 * lexeme of both twice.
 */
export async function swapShares(tx: Executor, kbId: string, out: DocumentShare, into: DocumentShare): Promise<void> {
  const delta = new Map(into.terms);
  for (const [lexeme, n] of out.terms) delta.set(lexeme, (delta.get(lexeme) ?? 0) - n);
  const changed = [...delta].filter(([, n]) => n !== 0);
  if (changed.length > 0) {
    const json = JSON.stringify(changed.map(([lexeme, n]) => ({ lexeme, n })));
    await tx.execute(sql`
      insert into kb_terms (kb_id, lexeme, doc_freq)
      select ${kbId}, x.lexeme, x.n from jsonb_to_recordset(${json}::jsonb) as x(lexeme text, n int)
      on conflict (kb_id, lexeme) do update set doc_freq = kb_terms.doc_freq + excluded.doc_freq`);
    await tx.execute(sql`
      delete from kb_terms t using jsonb_to_recordset(${json}::jsonb) as x(lexeme text, n int)
      where t.kb_id = ${kbId} and t.lexeme = x.lexeme and x.n < 0 and t.doc_freq <= 0`);
  }
  await tx.execute(sql`
    update kb_index_stats set chunk_count = chunk_count + ${into.chunks - out.chunks},
      total_length = total_length + ${into.length - out.length}, updated_at = now()
    where kb_id = ${kbId}`);
}

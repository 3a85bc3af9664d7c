import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { itemAt } from '@/lib/platform/arrays';
import type { SearchConfig } from './language';
import type { ParsedQuery } from './query-parse';
import { rows } from './sql-rows';
import type { QueryTerm, RetrievedChunk } from './types';

/** Candidate generation through the GIN index and BM25 scoring in SQL (retrieval.ts, steps 2 and 3). */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** Upper bound on chunks scored per query; keeps latency flat at 100,000 chunks. */
export const CANDIDATE_BUDGET = 200;

/** A lexeme as a tsquery operand. Lexemes come from to_tsvector over letters and digits; quoting is a second guard. */
const operand = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** Candidates and BM25 ranking of one knowledge base's chunks for a set of terms (every one present). */
export async function lexicalSearch(
  db: Executor,
  kbId: string,
  parsed: ParsedQuery,
  config: SearchConfig,
  present: QueryTerm[],
  avgLength: number,
  limit: number,
): Promise<RetrievedChunk[]> {
  // Candidate generation: rare terms first, until their postings would exceed the budget.
  const byRarity = [...present].sort((a, b) => a.docFreq - b.docFreq);
  const selective: QueryTerm[] = [];
  let postings = 0;
  for (const t of byRarity) {
    if (selective.length > 0 && postings + t.docFreq > CANDIDATE_BUDGET) break;
    selective.push(t);
    postings += t.docFreq;
  }
  const phraseFilter: SQL = parsed.phrases.length
    ? sql.join(
        parsed.phrases.map((p) => sql` and c.search_vector @@ phraseto_tsquery(${config}::regconfig, ${p.join(' ')})`),
        sql``,
      )
    : sql``;
  const selectiveQuery = selective.map((t) => operand(t.lexeme)).join(' | ');
  // When even the rarest term is common, an OR would be cut at the budget arbitrarily. Candidates are then the
  // chunks holding at least two of the four rarest terms (one GIN query, far more selective and more relevant),
  // topped up with a few holding the rarest term alone.
  // `present` is never empty: searchChunks returns before the lexical search when no term is present.
  const truncated = itemAt(byRarity, 0).docFreq > CANDIDATE_BUDGET;
  const rarest = byRarity.slice(0, 4).map((t) => operand(t.lexeme));
  const pairs: string[] = [];
  for (let i = 0; i < rarest.length; i++) for (let j = i + 1; j < rarest.length; j++) pairs.push(`(${rarest[i]} & ${rarest[j]})`);
  const candidates: SQL =
    truncated && pairs.length > 0
      ? sql`select distinct on (id) id, lexeme_count, search_vector from (
          (select c.id, c.lexeme_count, c.search_vector from chunks c where c.kb_id = ${kbId} and c.search_vector @@ ${pairs.join(' | ')}::tsquery ${phraseFilter} limit ${CANDIDATE_BUDGET}::int)
          union all
          (select c.id, c.lexeme_count, c.search_vector from chunks c where c.kb_id = ${kbId} and c.search_vector @@ ${selectiveQuery}::tsquery ${phraseFilter} limit ${Math.floor(CANDIDATE_BUDGET / 4)}::int)
        ) both_branches order by id`
      : sql`select c.id, c.lexeme_count, c.search_vector from chunks c
          where c.kb_id = ${kbId} and c.search_vector @@ ${selectiveQuery}::tsquery ${phraseFilter} limit ${CANDIDATE_BUDGET}::int`;
  const termRows = JSON.stringify(present.map((t) => ({ lexeme: t.lexeme, idf: t.idf })));

  // Scoring reads only the query's lexemes of each candidate vector: setweight marks them (weight C, unused by
  // ingestion), ts_filter keeps them, so unnest yields a handful of rows per chunk instead of every lexeme.
  // Heading-path occurrences (weight A) count half again (tuned on bench/engine-quality: 0 and 1 both did worse).
  const statement = sql`
      with q as (
        select * from jsonb_to_recordset(${termRows}::jsonb) as q(lexeme text, idf float8)
      ), lex as (
        select array_agg(lexeme) as a from q
      ), cand as materialized (
        ${candidates}
      ), cv as materialized (
        select cand.id, cand.lexeme_count,
               ts_filter(setweight(cand.search_vector, 'C', lex.a), '{c}') as qv,
               ts_filter(setweight(ts_filter(cand.search_vector, '{a}'), 'C', lex.a), '{c}') as hv
        from cand cross join lex
      ), tf as (
        select cv.id, cv.lexeme_count, x.lexeme, array_length(x.positions, 1)::float8 + 0.5 * coalesce(array_length(h.positions, 1), 0) as tf
        from cv cross join lateral unnest(cv.qv) x
        left join lateral unnest(cv.hv) h on h.lexeme = x.lexeme
      ), scored as (
        select tf.id, sum(
          q.idf * (tf.tf * ${BM25_K1 + 1}::float8) / (tf.tf + ${BM25_K1}::float8 * (1 - ${BM25_B}::float8 + ${BM25_B}::float8 * tf.lexeme_count / ${avgLength}::float8))
        ) as score
        from tf join q on q.lexeme = tf.lexeme
        group by tf.id
        order by score desc, tf.id
        limit ${limit}::int
      )
      select c.id, c.document_id, d.title, c.page, c.heading, c.content, c.token_count, s.score
      from scored s join chunks c on c.id = s.id join documents d on d.id = c.document_id
      order by s.score desc, c.id`;
  // The planner cannot see that testing a TOASTed tsvector costs far more than a GIN lookup, and on a mid-sized
  // knowledge base it picks a sequential scan that detoasts every chunk (seconds at 100,000 chunks). Candidate
  // generation must go through the GIN index: sequential scans are disabled for this one query (SET LOCAL, so
  // only inside this transaction), and JIT compilation, whose start-up dwarfs a 10 ms query, is switched off.
  const result = rows<ChunkRow & { score: number }>(
    await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`);
      return tx.execute(statement);
    }),
  );
  return result.map(toRetrievedChunk);
}

export type ChunkRow = {
  id: number;
  document_id: string;
  title: string;
  page: number | null;
  heading: string | null;
  content: string;
  token_count: number;
  score?: number;
};

export function toRetrievedChunk(r: ChunkRow): RetrievedChunk {
  return {
    chunkId: Number(r.id),
    documentId: r.document_id,
    documentTitle: r.title,
    page: r.page === null ? null : Number(r.page),
    heading: r.heading,
    content: r.content,
    tokenCount: Number(r.token_count),
    score: Number(r.score ?? 0),
  };
}

import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { itemAt } from '@/lib/platform/arrays';
import type { SearchConfig } from './language';
import type { ParsedQuery } from './query-parse';
import { rows } from './sql-rows';
import type { QueryTerm, RetrievedChunk } from './types';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
export const CANDIDATE_BUDGET = 200;

/** Lexemes come from to_tsvector over letters and digits; quoting is a second guard. */
const operand = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

export async function lexicalSearch(
  db: Executor,
  kbId: string,
  parsed: ParsedQuery,
  config: SearchConfig,
  present: QueryTerm[],
  avgLength: number,
  limit: number,
): Promise<RetrievedChunk[]> {
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
  // When even the rarest term is common, an OR would be cut at the budget arbitrarily: candidates are then the chunks
  // holding two of the four rarest terms, topped up with a few holding the rarest alone. `present` is never empty.
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
  // A question word and its paraphrases count once, by the best of them: "check" and "test" in one passage are not two
  // question words. Every other term is its own group, as in plain BM25.
  const paraphrasedWords = new Set(present.filter((t) => t.paraphrase).map((t) => t.word));
  const termRows = JSON.stringify(
    present.map((t) => ({ lexeme: t.lexeme, idf: t.idf, grp: paraphrasedWords.has(t.word) ? `word:${t.word}` : `lexeme:${t.lexeme}` })),
  );

  // setweight marks the query's lexemes (weight C, unused by ingestion) and ts_filter keeps them, so unnest yields a
  // handful of rows per chunk. Heading-path occurrences (weight A) count half again.
  const statement = sql`
      with q as (
        select * from jsonb_to_recordset(${termRows}::jsonb) as q(lexeme text, idf float8, grp text)
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
      ), grouped as (
        select tf.id, max(
          q.idf * (tf.tf * ${BM25_K1 + 1}::float8) / (tf.tf + ${BM25_K1}::float8 * (1 - ${BM25_B}::float8 + ${BM25_B}::float8 * tf.lexeme_count / ${avgLength}::float8))
        ) as score
        from tf join q on q.lexeme = tf.lexeme
        group by tf.id, q.grp
      ), scored as (
        select id, sum(score) as score
        from grouped
        group by id
        order by score desc, id
        limit ${limit}::int
      )
      select c.id, c.document_id, d.title, c.page, c.heading, c.content, c.token_count, s.score
      from scored s join chunks c on c.id = s.id join documents d on d.id = c.document_id
      order by s.score desc, c.id`;
  // The planner cannot see that testing a TOASTed tsvector costs far more than a GIN lookup and may scan every chunk:
  // sequential scans and JIT are off for this one query (SET LOCAL).
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

import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { catalogSearch } from '@/db/schema';
import { rowsByIds, type ListRow } from './cards';
import { listingConditions } from './listing';
import type { ListingParams } from './params';
import type { SearchTerms } from './search-query';

/** The catalog page's last resort: listings matching SOME of the words, most first (docs/api.md §2.6). */

function wordQueries(terms: SearchTerms): { words: string[]; values: SQL } {
  const words = [...new Set(terms.words)];
  const queries = words.map((word, i) => {
    const stemmed = sql`to_tsquery('almanac', ${`'${word}'`})`;
    return i === words.length - 1 ? sql`(${stemmed} || to_tsquery('almanac_simple', ${`'${word}':*`}))` : stemmed;
  });
  return {
    words,
    values: sql.join(
      queries.map((q, i) => sql`(${i}, ${q})`),
      sql`, `,
    ),
  };
}

const titleMatch = (q: SQL) => sql`to_tsvector('almanac', d.title) @@ ${q}`;

export async function wordsWithMatches(executor: Executor, terms: SearchTerms): Promise<string[]> {
  const { words, values } = wordQueries(terms);
  if (words.length < 2) return [];
  const result = await executor.execute(sql`
    with words(i, q) as (values ${values})
    select w.i from words w
    where exists (select 1 from catalog_search cs where cs.search_vector @@ w.q)
       or exists (select 1 from documents d join catalog_search cs on cs.kb_id = d.kb_id where ${titleMatch(sql`w.q`)} and d.status = 'ready')
    order by w.i`);
  return (result.rows as Array<{ i: number }>).map((r) => words[Number(r.i)]!);
}

export async function searchSomeWords(executor: Executor, params: ListingParams, terms: SearchTerms): Promise<{ rows: ListRow[]; total: number }> {
  const { words, values } = wordQueries(terms);
  if (words.length < 2) return { rows: [], total: 0 };
  const filters = listingConditions(params, null);
  const result = await executor.execute(sql`
    with words(i, q) as (values ${values}),
    hits as (
      select cs.kb_id, w.i from words w join catalog_search cs on cs.search_vector @@ w.q
      union
      select d.kb_id, w.i from words w join documents d on ${titleMatch(sql`w.q`)} where d.status = 'ready'
    ),
    scored as (select kb_id, count(*)::int as matched from hits group by kb_id)
    select s.kb_id, count(*) over ()::int as total
    from scored s join ${catalogSearch} on ${catalogSearch.kbId} = s.kb_id
    ${filters ? sql`where ${filters}` : sql``}
    order by s.matched desc, ${catalogSearch.subscribersCount} desc, ${catalogSearch.queryVolume} desc, s.kb_id
    limit ${params.pageSize} offset ${(params.page - 1) * params.pageSize}`);
  const ranked = result.rows as Array<{ kb_id: string; total: number }>;
  if (ranked.length === 0) return { rows: [], total: 0 };
  const byId = new Map(
    (
      await rowsByIds(
        executor,
        ranked.map((r) => r.kb_id),
      )
    ).map((row) => [row.id, row]),
  );
  return { rows: ranked.map((r) => byId.get(r.kb_id)).filter((row): row is ListRow => row !== undefined), total: Number(ranked[0]!.total) };
}

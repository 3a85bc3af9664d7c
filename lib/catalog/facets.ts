import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { catalogSearch } from '@/db/schema';
import { CATEGORIES, type Category, type ListingParams } from './params';
import { listingConditions, type ListingSearch } from './listing';

/**
 * Facet counts of the catalog page, in one statement that also yields the total. Each category and language count
 * leaves its own filter out, so an option says what choosing it gives; a tag counts what it leaves when added.
 */
export interface CatalogFacets {
  categories: { category: Category; count: number }[];
  languages: { language: string; count: number }[];
  tags: { tag: string; count: number }[];
  total: number;
}

export function facetsStatement(params: Pick<ListingParams, 'category' | 'tags' | 'language'>, search: ListingSearch | null): SQL {
  const scope = listingConditions({ tags: params.tags }, search);
  const inCategory: SQL = params.category ? sql`m.category = ${params.category}` : sql`true`;
  const inLanguage: SQL = params.language ? sql`m.language = ${params.language}` : sql`true`;
  return sql`
    with m as materialized (
      select ${catalogSearch.category} as category, ${catalogSearch.tags} as tags, ${catalogSearch.language} as language from ${catalogSearch}
      ${scope ? sql`where ${scope}` : sql``}
    )
    select
      (select coalesce(json_agg(json_build_array(c.category, c.n)), '[]'::json)
         from (select m.category, count(*)::int as n from m where ${inLanguage} group by m.category) c) as categories,
      (select coalesce(json_agg(json_build_array(l.language, l.n) order by l.n desc, l.language), '[]'::json)
         from (select m.language, count(*)::int as n from m where ${inCategory} group by m.language) l) as languages,
      (select coalesce(json_agg(json_build_array(t.tag, t.n) order by t.n desc, t.tag), '[]'::json)
         from (select u.tag, count(*)::int as n from (select unnest(m.tags) as tag from m where ${inCategory} and ${inLanguage}) u group by u.tag) t) as tags`;
}

type FacetRow = { categories: [Category, number][] | string; languages: [string, number][] | string; tags: [string, number][] | string };
const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

export async function queryFacets(
  executor: Executor,
  params: Pick<ListingParams, 'category' | 'tags' | 'language'>,
  search: ListingSearch | null,
): Promise<CatalogFacets> {
  const result = await executor.execute(facetsStatement(params, search));
  const row = result.rows[0] as FacetRow | undefined;
  const byCategory = new Map(parsed(row?.categories ?? []).map(([category, n]) => [category, Number(n)]));
  const categories = CATEGORIES.map((category) => ({ category, count: byCategory.get(category) ?? 0 }));
  const total = params.category ? (byCategory.get(params.category) ?? 0) : categories.reduce((sum, c) => sum + c.count, 0);
  const languages = parsed(row?.languages ?? []).map(([language, n]) => ({ language, count: Number(n) }));
  return { categories, languages, tags: parsed(row?.tags ?? []).map(([tag, n]) => ({ tag, count: Number(n) })), total };
}

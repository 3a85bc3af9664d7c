import { and, arrayContains, asc, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Executor } from '@/db/client';
import { catalogSearch, catalogWords, knowledgeBases, publishers } from '@/db/schema';
import type { ListingParams } from './params';
import { getDb } from '@/lib/platform/db';
import { anyWordTsquery, isOneWordSearch, matchSearchVector, parseSearchTerms, searchTsquery, startsWithPattern, type SearchTerms } from './search-query';
import { listColumns, toCard, toListItem, withCardFacts, type KnowledgeBaseCard, type ListRow } from './cards';
import type { KnowledgeBaseListItem } from './schemas';
import { itemAt } from '@/lib/platform/arrays';

export type { KnowledgeBaseListItem };

export { parseListingParams, type ListingParams } from './params';

/** The public listing (docs/api.md §2), read from the catalog_search projection so deep pages stay index reads. */

export interface Listing<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

export interface ListingSearch {
  terms: SearchTerms | null;
  prefixStems: string[];
}

/** The word's own stem is left out: a repeated lexeme doubles the planner's estimate of matches. */
export function prefixStemsQuery(executor: Executor, word: string) {
  return executor
    .selectDistinct({ lexeme: catalogWords.lexeme })
    .from(catalogWords)
    .where(
      and(
        sql`${catalogWords.word} like ${startsWithPattern(word)}`,
        sql`not starts_with(${catalogWords.lexeme}, ${word})`,
        sql`${catalogWords.lexeme} <> all(tsvector_to_array(to_tsvector('almanac', ${word})))`,
      ),
    )
    .orderBy(asc(catalogWords.lexeme));
}

export async function resolveListingSearch(executor: Executor, query: string | null | undefined): Promise<ListingSearch | null> {
  if (!query) return null;
  const terms = parseSearchTerms(query);
  if (!terms) return { terms: null, prefixStems: [] };
  const rows = await prefixStemsQuery(executor, itemAt(terms.words, terms.words.length - 1));
  return { terms, prefixStems: rows.map((r) => r.lexeme) };
}

export function listingConditions(params: Pick<ListingParams, 'category' | 'tags' | 'language'>, search: ListingSearch | null): SQL | undefined {
  const conditions: SQL[] = [];
  if (params.category) conditions.push(eq(catalogSearch.category, params.category));
  if (params.language) conditions.push(eq(catalogSearch.language, params.language));
  // Tags are stored and parsed lower-case, so `@>` is a case-insensitive AND.
  if (params.tags.length > 0) conditions.push(arrayContains(catalogSearch.tags, params.tags));
  if (search) {
    conditions.push(search.terms ? matchSearchVector(catalogSearch.searchVector, search.terms, search.prefixStems) : sql`false`);
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

// As the indexes declare it: a bare DESC means NULLS FIRST, and that mismatch stops PostgreSQL reading the index in order.
const descNullsLast = (column: AnyColumn) => sql`${column} desc nulls last`;

type SortColumns = Record<'subscribersCount' | 'queryVolume' | 'createdAt' | 'updatedAt', AnyColumn>;

/** Total orders (the id breaks every tie) so that paging never repeats or skips a row. */
function orderBy(sort: ListingParams['sort'], table: SortColumns, id: AnyColumn): SQL[] {
  switch (sort) {
    case 'new':
      return [descNullsLast(table.createdAt), asc(id)];
    case 'updated':
      return [descNullsLast(table.updatedAt), asc(id)];
    default:
      return [descNullsLast(table.subscribersCount), descNullsLast(table.queryVolume), asc(id)];
  }
}

/**
 * The `relevance` tiers: 2 when the title matches the whole search, 1 when it matches some words, 0 otherwise; then
 * popular's order. Coarse on purpose: the vectors are stripped (no positions or weights to score by).
 */
function relevanceTiers(search: ListingSearch): { rank: 2 | 1 | 0; condition: SQL }[] {
  const title = catalogSearch.titleVector;
  const whole = sql`${title} @@ ${searchTsquery(search.terms!, search.prefixStems)}`;
  if (isOneWordSearch(search.terms!))
    return [
      { rank: 2, condition: whole },
      { rank: 0, condition: sql`not ${whole}` },
    ];
  const some = sql`${title} @@ ${anyWordTsquery(search.terms!, search.prefixStems)}`;
  return [
    { rank: 2, condition: whole },
    { rank: 1, condition: sql`(${some} and not ${whole})` },
    { rank: 0, condition: sql`not ${some}` },
  ];
}

/**
 * How a relevance page finds its untitled matches: `walk` reads the top of popular's index keeping matches (cheap for
 * a broad search's first pages); `sorted` finds every match and sorts them. A walk that comes back short is redone sorted.
 */
export type UntitledStrategy = 'walk' | 'sorted';

/** An object so that a test can shrink `rows` below the seeded catalogue and exercise the sorted fallback. */
export const untitledWalk = { rows: 2_000, upTo: 240 };

function relevancePageIds(db: Executor, params: ListingParams, search: ListingSearch, untitled: UntitledStrategy) {
  const enough = params.page * params.pageSize;
  const filters = listingConditions(params, null);
  const everyMatch = listingConditions(params, search);
  // `+ 0` hides the sort key from popular's index, so rare matches are found by the text indexes, not a full walk.
  const sortedMatches = [sql`${catalogSearch.subscribersCount} + 0 desc`, sql`${catalogSearch.queryVolume} desc`, asc(catalogSearch.kbId)];
  const tiers = relevanceTiers(search).map(({ rank, condition }) => {
    const columns = {
      pageId: sql<string>`${catalogSearch.kbId}`.as('page_id'),
      rank: sql<number>`${sql.raw(String(rank))}`.as('rank'),
      subscribers: sql<number>`${catalogSearch.subscribersCount}`.as('subscribers'),
      volume: sql<number>`${catalogSearch.queryVolume}`.as('volume'),
    };
    if (rank === 0 && untitled === 'walk') {
      const walked = db
        .select({
          kbId: catalogSearch.kbId,
          category: catalogSearch.category,
          tags: catalogSearch.tags,
          subscribersCount: catalogSearch.subscribersCount,
          queryVolume: catalogSearch.queryVolume,
          searchVector: catalogSearch.searchVector,
          titleVector: catalogSearch.titleVector,
        })
        .from(catalogSearch)
        .where(filters)
        .orderBy(...orderBy('popular', catalogSearch, catalogSearch.kbId))
        .limit(untitledWalk.rows)
        .as('catalog_search');
      return db
        .select(columns)
        .from(walked)
        .where(and(everyMatch, condition))
        .orderBy(...orderBy('popular', catalogSearch, catalogSearch.kbId))
        .limit(enough);
    }
    // A title matching the whole search is part of the searched text: the top tier needs only the filters.
    return db
      .select(columns)
      .from(catalogSearch)
      .where(and(rank === 2 ? filters : everyMatch, condition))
      .orderBy(...sortedMatches)
      .limit(enough);
  });
  const [first, second, ...rest] = tiers;
  return unionAll(first!, second!, ...rest)
    .orderBy(sql`rank desc`, sql`subscribers desc`, sql`volume desc`, sql`page_id`)
    .limit(params.pageSize)
    .offset((params.page - 1) * params.pageSize)
    .as('page_ids');
}

/** The walk is tried first only where it can pay: an unfiltered search's first pages. */
const firstStrategy = (params: ListingParams): UntitledStrategy =>
  !params.category && !params.language && params.tags.length === 0 && params.page * params.pageSize <= untitledWalk.upTo ? 'walk' : 'sorted';

function effectiveSort(sort: ListingParams['sort'], search: ListingSearch | null): ListingParams['sort'] {
  return sort === 'relevance' && !search?.terms ? 'popular' : sort;
}

export const listingOrder = (sort: ListingParams['sort']) => orderBy(sort, knowledgeBases, knowledgeBases.id);

export function buildListingQueries(db: Executor, params: ListingParams, search: ListingSearch | null, untitled: UntitledStrategy = firstStrategy(params)) {
  const where = listingConditions(params, search);
  const sort = effectiveSort(params.sort, search);
  const ranked = sort === 'relevance' && search !== null;
  const pageIds = ranked
    ? relevancePageIds(db, params, search, untitled)
    : db
        .select({ pageId: sql<string>`${catalogSearch.kbId}`.as('page_id') })
        .from(catalogSearch)
        .where(where)
        .orderBy(...orderBy(sort, catalogSearch, catalogSearch.kbId))
        .limit(params.pageSize)
        .offset((params.page - 1) * params.pageSize)
        .as('page_ids');
  const page = db
    .select(listColumns)
    .from(pageIds)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, pageIds.pageId))
    .innerJoin(publishers, eq(publishers.id, knowledgeBases.publisherId))
    // The trigger copies the sort keys in the same transaction, so both tables give the page the same order.
    .orderBy(...(ranked ? [sql`page_ids.rank desc`] : []), ...listingOrder(sort));
  const count = db
    .select({ total: sql<number>`count(*)::int` })
    .from(catalogSearch)
    .where(where);
  return { page, count };
}

/**
 * Planner settings for a search, SET LOCAL to its transaction: PostgreSQL prices a scan of every row's vector below
 * the GIN bitmap for a common word, and bench/listing never found the bitmap slower.
 */
export const SEARCH_PLANNER_SETTING = "select set_config('random_page_cost', '1.1', true), set_config('enable_seqscan', 'off', true)";

export function withSearchPlanner<T>(executor: Executor, search: ListingSearch | null, work: (tx: Executor) => Promise<T>): Promise<T> {
  if (!search?.terms) return work(executor);
  return executor.transaction(async (tx) => {
    await tx.execute(sql.raw(SEARCH_PLANNER_SETTING));
    return work(tx);
  });
}

export function queryPage(executor: Executor, params: ListingParams, search: ListingSearch | null, untitled?: UntitledStrategy): Promise<ListRow[]> {
  const ranked = effectiveSort(params.sort, search) === 'relevance';
  return withSearchPlanner(executor, ranked ? search : null, async (tx) => (await buildListingQueries(tx, params, search, untitled).page) as ListRow[]);
}

/** A walked page is complete exactly when it holds as many rows as the total leaves for it; a short one is read again sorted. */
export async function completeRelevancePage(
  executor: Executor,
  params: ListingParams,
  search: ListingSearch | null,
  rows: ListRow[],
  total: number,
): Promise<ListRow[]> {
  const expected = Math.max(0, Math.min(params.pageSize, total - (params.page - 1) * params.pageSize));
  const walked = effectiveSort(params.sort, search) === 'relevance' && firstStrategy(params) === 'walk';
  return walked && rows.length < expected ? queryPage(executor, params, search, 'sorted') : rows;
}

async function queryListing(params: ListingParams, db?: Executor): Promise<{ rows: ListRow[]; total: number }> {
  const executor = db ?? (await getDb());
  const search = await resolveListingSearch(executor, params.query);
  const [rows, counted] = await Promise.all([
    queryPage(executor, params, search),
    withSearchPlanner(executor, search, (tx) => buildListingQueries(tx, params, search).count),
  ]);
  const total = Number(counted[0]?.total ?? 0);
  return { rows: await completeRelevancePage(executor, params, search, rows, total), total };
}

export function envelope<T>(items: T[], total: number, params: ListingParams): Listing<T> {
  return { items, total, page: params.page, pageSize: params.pageSize, totalPages: Math.ceil(total / params.pageSize) };
}

export async function listKnowledgeBases(params: ListingParams, db?: Executor): Promise<Listing<KnowledgeBaseListItem>> {
  const { rows, total } = await queryListing(params, db);
  return envelope(rows.map(toListItem), total, params);
}

export async function listKnowledgeBaseCards(params: ListingParams, db?: Executor): Promise<Listing<KnowledgeBaseCard>> {
  const { rows, total } = await queryListing(params, db);
  return envelope(await withCardFacts(db ?? (await getDb()), rows.map(toCard)), total, params);
}

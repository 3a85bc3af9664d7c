import { and, arrayContains, asc, eq, inArray, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Executor } from '@/db/client';
import { catalogSearch, catalogWords, knowledgeBases, plans, publishers } from '@/db/schema';
import { itemAt } from '@/lib/platform/arrays';
import { CATEGORIES, type Category, type ListingParams } from './params';
import { getDb } from '@/lib/platform/db';
import { isCleanId } from '@/lib/platform/text-input';
import { anyWordTsquery, isOneWordSearch, matchSearchVector, parseSearchTerms, searchTsquery, startsWithPattern, type SearchTerms } from './search-query';
import { toPlanView } from '@/lib/subscriptions';
import type { KnowledgeBaseDetail, KnowledgeBaseListItem } from './schemas';

export type { KnowledgeBaseDetail, KnowledgeBaseListItem };

export { parseListingParams, type ListingParams } from './params';

/**
 * The public catalogue (docs/api.md §2): the listing with its filters, total and stable orders; the detail of one
 * knowledge base; and small reads for the marketplace pages (publisher page, filter chips). Only `published`
 * knowledge bases are ever visible here. Every object leaving this module passes an explicit mapper.
 */

// ── views ────────────────────────────────────────────────────────────────────────────────────────────

interface PublisherRef {
  name: string;
  slug: string;
}

/** A listing item for the marketplace pages: the same fields, with the publisher's slug for its page link. */
export interface KnowledgeBaseCard extends Omit<KnowledgeBaseListItem, 'publisher'> {
  publisher: PublisherRef;
  /** Price, language and size (withCardFacts); absent in the listing editor's preview. */
  facts?: CardFacts;
}

export interface Listing<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

/** The detail plus what a page needs beyond the API (publisher link, creation date, the most chosen plan). */
export interface KnowledgeBaseView extends KnowledgeBaseDetail {
  publisherRef: PublisherRef;
  createdAt: string;
  /** The plan with strictly the most active subscribers, or null (no subscriber yet, or a tie): "Most chosen" is earned. */
  mostChosenPlanId: string | null;
}

export interface PublisherView {
  id: string;
  slug: string;
  name: string;
  description: string;
  websiteUrl: string | null;
  /** Published knowledge bases only. */
  knowledgeBasesCount: number;
}

// ── mappers ──────────────────────────────────────────────────────────────────────────────────────────

const listColumns = {
  id: knowledgeBases.id,
  title: knowledgeBases.title,
  publisherName: publishers.name,
  publisherSlug: publishers.slug,
  summary: knowledgeBases.summary,
  category: knowledgeBases.category,
  tags: knowledgeBases.tags,
  subscribersCount: knowledgeBases.subscribersCount,
  queryVolume: knowledgeBases.queryVolume,
  updatedAt: knowledgeBases.updatedAt,
};

export type ListRow = {
  id: string;
  title: string;
  publisherName: string;
  publisherSlug: string;
  summary: string;
  category: Category;
  tags: string[];
  subscribersCount: number;
  queryVolume: number;
  updatedAt: Date;
};

function toListItem(row: ListRow): KnowledgeBaseListItem {
  return {
    id: row.id,
    title: row.title,
    publisher: row.publisherName,
    summary: row.summary,
    category: row.category,
    tags: [...row.tags],
    subscribersCount: Number(row.subscribersCount),
    queryVolume: Number(row.queryVolume),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

export function toCard(row: ListRow): KnowledgeBaseCard {
  const { publisher: _name, ...rest } = toListItem(row);
  return { ...rest, publisher: { name: row.publisherName, slug: row.publisherSlug } };
}

// ── the listing ──────────────────────────────────────────────────────────────────────────────────────

/**
 * A parsed search: its words, plus the stems of catalogue words that begin with the last word but whose stem does
 * not ("constitutio" → "constitut"; see catalogWords in db/schema.ts). `null` terms: the text has no word at all.
 */
export interface ListingSearch {
  terms: SearchTerms | null;
  prefixStems: string[];
}

/**
 * The stems of catalogue words that begin with `word` but whose stem does not (one indexed range read). The word's
 * own stem is left out: the search has it already, and a repeated lexeme doubles the planner's estimate of matches.
 */
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

/** Parses the search text and looks up its prefix stems; null when no search was asked for. */
export async function resolveListingSearch(executor: Executor, query: string | null | undefined): Promise<ListingSearch | null> {
  if (!query) return null;
  const terms = parseSearchTerms(query);
  if (!terms) return { terms: null, prefixStems: [] };
  // parseSearchTerms returns null rather than terms without a word.
  const rows = await prefixStemsQuery(executor, itemAt(terms.words, terms.words.length - 1));
  return { terms, prefixStems: rows.map((r) => r.lexeme) };
}

/**
 * Filters of the listing, on the catalog_search projection (published knowledge bases only). Every one is
 * index-backed: a category b-tree, GIN on tags and on the search vector.
 */
export function listingConditions(params: Pick<ListingParams, 'category' | 'tags' | 'language'>, search: ListingSearch | null): SQL | undefined {
  const conditions: SQL[] = [];
  if (params.category) conditions.push(eq(catalogSearch.category, params.category));
  if (params.language) conditions.push(eq(catalogSearch.language, params.language));
  // Tags are stored lower-case (the vocabulary) and parsed lower-case, so `@>` gives case-insensitive AND.
  if (params.tags.length > 0) conditions.push(arrayContains(catalogSearch.tags, params.tags));
  if (search) {
    // Search text without any searchable word (only punctuation, or runs too long to be words) matches nothing:
    // a search was asked for and nothing can satisfy it.
    conditions.push(search.terms ? matchSearchVector(catalogSearch.searchVector, search.terms, search.prefixStems) : sql`false`);
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

// `DESC NULLS LAST` exactly as the indexes in db/schema.ts are declared: a bare `DESC` means NULLS FIRST, and that
// mismatch alone stops PostgreSQL from reading the index in order (the columns are NOT NULL, so results are equal).
const descNullsLast = (column: AnyColumn) => sql`${column} desc nulls last`;

type SortColumns = Record<'subscribersCount' | 'queryVolume' | 'createdAt' | 'updatedAt', AnyColumn>;

/** Total orders (the id breaks every tie) so that paging never repeats or skips a row. */
function orderBy(sort: ListingParams['sort'], table: SortColumns, id: AnyColumn): SQL[] {
  switch (sort) {
    // `relevance` is popular's order behind the title tiers (relevancePageIds), which only the projection has.
    case 'new':
      return [descNullsLast(table.createdAt), asc(id)];
    case 'updated':
      return [descNullsLast(table.updatedAt), asc(id)];
    default:
      return [descNullsLast(table.subscribersCount), descNullsLast(table.queryVolume), asc(id)];
  }
}

/**
 * The text tiers of the `relevance` sort (docs/api.md §2.2): 2 when the title matches the whole search (every word,
 * the last as a prefix), 1 when it matches some of its words, 0 when only the rest of the text does (publisher,
 * tags, summary, description). Within a tier, popular's total order. Coarse on purpose: the vectors are stripped (no
 * positions, no weights, so no frequency-based score), and a title match is what a buyer typing a title or its words
 * expects first.
 */
function relevanceTiers(search: ListingSearch): { rank: 2 | 1 | 0; condition: SQL }[] {
  const title = catalogSearch.titleVector;
  const whole = sql`${title} @@ ${searchTsquery(search.terms!, search.prefixStems)}`;
  // One word: a title holds all of it or none of it, so there is no middle tier to read.
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
 * How a relevance page finds its untitled matches (the tier most of a broad search's matches are in): `walk` reads
 * popular's index from the top, at most `untitledWalk.rows` rows, keeping those that match (a broad search fills its
 * first pages within a few hundred); `sorted` finds every match through the search index and sorts them (what a
 * rare word, a filter or a deep page needs). A walk that ends before the page is full is detected by the page
 * coming back short of the total and is redone `sorted` (completeRelevancePage).
 */
export type UntitledStrategy = 'walk' | 'sorted';

/**
 * The walk reads at most `rows` rows of popular's order (a few milliseconds at 100,000 knowledge bases), and is tried
 * for pages that end within the first `upTo` matches. An object so that a test can shrink `rows` below the seeded
 * catalogue and exercise the sorted fallback.
 */
export const untitledWalk = { rows: 2_000, upTo: 240 };

/**
 * The ids of a `relevance` page: each tier's first page × pageSize matches in popular's order, merged. Ranking every
 * match in one statement read all of a broad search's matches (about 16,000 for "climate" at 100,000 knowledge
 * bases); here the title tiers are read through the title vector's index (a few hundred rows) and the untitled rest
 * as UntitledStrategy says.
 */
function relevancePageIds(db: Executor, params: ListingParams, search: ListingSearch, untitled: UntitledStrategy) {
  const enough = params.page * params.pageSize;
  const filters = listingConditions(params, null);
  const everyMatch = listingConditions(params, search);
  // `+ 0` hides the sort key from popular's index, so PostgreSQL finds the rows through the text indexes and sorts
  // them instead of walking that index (which reads every row when matches are rare).
  const sortedMatches = [sql`${catalogSearch.subscribersCount} + 0 desc`, sql`${catalogSearch.queryVolume} desc`, asc(catalogSearch.kbId)];
  const tiers = relevanceTiers(search).map(({ rank, condition }) => {
    const columns = {
      pageId: sql<string>`${catalogSearch.kbId}`.as('page_id'),
      rank: sql<number>`${sql.raw(String(rank))}`.as('rank'),
      subscribers: sql<number>`${catalogSearch.subscribersCount}`.as('subscribers'),
      volume: sql<number>`${catalogSearch.queryVolume}`.as('volume'),
    };
    if (rank === 0 && untitled === 'walk') {
      // The first rows of popular's order, under the projection's own name, so that the same conditions and order
      // (which name `catalog_search`'s columns) apply to them unchanged.
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
    // A title that matches the whole search is part of the searched text, so the top tier needs only the filters
    // (the other tiers must still match the search).
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

/** The sort actually applied: `relevance` without search words is `popular` (docs/api.md §2.2). */
function effectiveSort(sort: ListingParams['sort'], search: ListingSearch | null): ListingParams['sort'] {
  return sort === 'relevance' && !search?.terms ? 'popular' : sort;
}

/** The listing's order on knowledge_bases itself (publisher pages). */
const listingOrder = (sort: ListingParams['sort']) => orderBy(sort, knowledgeBases, knowledgeBases.id);

/**
 * The two statements of one listing request (exported so bench/listing can run the very same SQL through pg).
 * Both read catalog_search: the page's ids come from its sort indexes (an index-only scan even at a deep offset)
 * and only the rows of the page are then read in full from knowledge_bases; the total counts its narrow rows.
 */
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
 * Planner settings for counting search matches, scoped to the count's own transaction (`set_config(…, true)` is SET
 * LOCAL). PostgreSQL prices `@@` as a flat cheap operator and the OR of a prefix's lexemes as independent matches, so
 * for a common word it often prefers evaluating the vector of every row (a sequential scan, 50–60 ms at 100,000
 * knowledge bases) to the GIN bitmap (10–15 ms); measured in bench/listing, the bitmap is never slower, even when
 * every row matches. random_page_cost 1.1 is the usual value for SSD storage.
 */
export const SEARCH_PLANNER_SETTING = "select set_config('random_page_cost', '1.1', true), set_config('enable_seqscan', 'off', true)";

/** Runs `work` in its own transaction with SEARCH_PLANNER_SETTING when the listing searches, else directly. */
export function withSearchPlanner<T>(executor: Executor, search: ListingSearch | null, work: (tx: Executor) => Promise<T>): Promise<T> {
  if (!search?.terms) return work(executor);
  return executor.transaction(async (tx) => {
    await tx.execute(sql.raw(SEARCH_PLANNER_SETTING));
    return work(tx);
  });
}

/**
 * The page's rows. A popular/new/updated page walks a sort index and stops early; a relevance page reads its title
 * tiers through the title index and its other matches as UntitledStrategy says, with the count's planner setting,
 * which keeps PostgreSQL on those indexes.
 */
export function queryPage(executor: Executor, params: ListingParams, search: ListingSearch | null, untitled?: UntitledStrategy): Promise<ListRow[]> {
  const ranked = effectiveSort(params.sort, search) === 'relevance';
  return withSearchPlanner(executor, ranked ? search : null, async (tx) => (await buildListingQueries(tx, params, search, untitled).page) as ListRow[]);
}

/**
 * A relevance page read by a bounded walk is complete exactly when it holds as many rows as the total leaves for it
 * (the walk keeps the first matches of popular's order, so what it found is right, only possibly too little); a
 * short one is read again the sorted way. Called with the total the page's concurrent count or facets found.
 */
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
  // Page and count run concurrently; a search's count with the planner setting.
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

/** The public listing: `{items, total, page, pageSize, totalPages}` with nine-field items. */
export async function listKnowledgeBases(params: ListingParams, db?: Executor): Promise<Listing<KnowledgeBaseListItem>> {
  const { rows, total } = await queryListing(params, db);
  return envelope(rows.map(toListItem), total, params);
}

/** The same listing for the marketplace pages, with publisher slugs for links. */
export async function listKnowledgeBaseCards(params: ListingParams, db?: Executor): Promise<Listing<KnowledgeBaseCard>> {
  const { rows, total } = await queryListing(params, db);
  return envelope(await withCardFacts(db ?? (await getDb()), rows.map(toCard)), total, params);
}

// ── one knowledge base ───────────────────────────────────────────────────────────────────────────────

/** The published knowledge base with its active plans, or null (unknown, draft, suspended, archived). */
export async function getKnowledgeBaseView(id: string, db?: Executor): Promise<KnowledgeBaseView | null> {
  if (!isCleanId(id)) return null; // no knowledge base has it, and PostgreSQL would refuse a NUL (docs/api.md §7.2)
  const executor = db ?? (await getDb());
  const [row] = await executor
    .select({
      ...listColumns,
      description: knowledgeBases.description,
      documentsCount: knowledgeBases.documentsCount,
      language: knowledgeBases.language,
      licence: knowledgeBases.licence,
      sampleQuestions: knowledgeBases.sampleQuestions,
      createdAt: knowledgeBases.createdAt,
    })
    .from(knowledgeBases)
    .innerJoin(publishers, eq(publishers.id, knowledgeBases.publisherId))
    .where(and(eq(knowledgeBases.id, id), eq(knowledgeBases.status, 'published')))
    .limit(1);
  if (!row) return null;
  const planRows = await executor
    .select()
    .from(plans)
    .where(and(eq(plans.kbId, id), eq(plans.active, true)))
    .orderBy(asc(plans.sortOrder), asc(plans.queriesPerPeriod), asc(plans.id));
  const chosen = (
    await executor.execute(sql`
      select plan_id, count(*)::int as n from subscriptions where kb_id = ${id} and status = 'active'
      group by plan_id order by n desc, plan_id limit 2`)
  ).rows as Array<{ plan_id: string; n: number }>;
  const [top, runnerUp] = chosen;
  const mostChosenPlanId =
    top && Number(top.n) > 0 && (!runnerUp || Number(top.n) > Number(runnerUp.n)) && planRows.some((p) => p.id === top.plan_id) ? top.plan_id : null;
  return {
    ...toListItem(row as ListRow),
    description: row.description,
    plans: planRows.map(toPlanView),
    documentsCount: row.documentsCount,
    language: row.language,
    licence: row.licence,
    sampleQuestions: Array.isArray(row.sampleQuestions) ? row.sampleQuestions.filter((q) => typeof q === 'string') : [],
    publisherRef: { name: row.publisherName, slug: row.publisherSlug },
    createdAt: row.createdAt.toISOString(),
    mostChosenPlanId,
  };
}

/** The public detail (docs/api.md §2.9): the nine list fields plus description, plans, documentsCount, language, licence, sampleQuestions. */
export async function getKnowledgeBaseDetail(id: string, db?: Executor): Promise<KnowledgeBaseDetail | null> {
  const view = await getKnowledgeBaseView(id, db);
  if (!view) return null;
  return toDetail(view);
}

export function toDetail(view: KnowledgeBaseView): KnowledgeBaseDetail {
  return {
    id: view.id,
    title: view.title,
    publisher: view.publisher,
    summary: view.summary,
    category: view.category,
    tags: view.tags,
    subscribersCount: view.subscribersCount,
    queryVolume: view.queryVolume,
    updatedAt: view.updatedAt,
    description: view.description,
    plans: view.plans,
    documentsCount: view.documentsCount,
    language: view.language,
    licence: view.licence,
    sampleQuestions: view.sampleQuestions,
  };
}

// ── publisher page and filter chips ──────────────────────────────────────────────────────────────────

export async function getPublisher(slug: string, db?: Executor): Promise<PublisherView | null> {
  if (!isCleanId(slug)) return null; // docs/api.md §7.2
  const executor = db ?? (await getDb());
  const [row] = await executor
    .select({
      id: publishers.id,
      slug: publishers.slug,
      name: publishers.name,
      description: publishers.description,
      websiteUrl: publishers.websiteUrl,
      // Written out: Drizzle leaves single-table columns unqualified, which the subquery would resolve to kb.id.
      knowledgeBasesCount: sql<number>`(select count(*)::int from knowledge_bases kb where kb.publisher_id = publishers.id and kb.status = 'published')`,
    })
    .from(publishers)
    // A publisher the operator suspended has no public page (docs/api.md §9.1).
    .where(and(eq(publishers.slug, slug), isNull(publishers.suspendedAt)))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    websiteUrl: row.websiteUrl,
    knowledgeBasesCount: Number(row.knowledgeBasesCount),
  };
}

/** A publisher's published knowledge bases, most popular first (the listing's popular order). */
export async function listPublisherKnowledgeBases(publisherSlug: string, db?: Executor): Promise<KnowledgeBaseCard[]> {
  if (!isCleanId(publisherSlug)) return []; // docs/api.md §7.2
  const executor = db ?? (await getDb());
  const rows = await executor
    .select(listColumns)
    .from(knowledgeBases)
    .innerJoin(publishers, eq(publishers.id, knowledgeBases.publisherId))
    .where(and(eq(publishers.slug, publisherSlug), eq(knowledgeBases.status, 'published')))
    .orderBy(...listingOrder('popular'));
  return withCardFacts(executor, (rows as ListRow[]).map(toCard));
}

/** Tags in use by published knowledge bases (catalog_search) with how many carry each; most used first, then alphabetical. */
export async function listTagVocabulary(db?: Executor): Promise<{ tag: string; count: number }[]> {
  const executor = db ?? (await getDb());
  const result = await executor.execute(sql`
    select tag, count(*)::int as count
    from catalog_search, unnest(tags) as tag
    group by tag
    order by count desc, tag asc`);
  return (result.rows as { tag: string; count: number }[]).map((r) => ({ tag: r.tag, count: Number(r.count) }));
}

/** Published knowledge bases per category, every category present (0 when empty), in the enum's order. */
export async function categoryCounts(db?: Executor): Promise<{ category: Category; count: number }[]> {
  const executor = db ?? (await getDb());
  const rows = await executor
    .select({ category: catalogSearch.category, count: sql<number>`count(*)::int` })
    .from(catalogSearch)
    .groupBy(catalogSearch.category);
  const counts = new Map(rows.map((r) => [r.category, Number(r.count)]));
  return CATEGORIES.map((category) => ({ category, count: counts.get(category) ?? 0 }));
}

/** The page rows of the given published knowledge bases, in no particular order (the caller orders them). */
export async function rowsByIds(executor: Executor, ids: string[]): Promise<ListRow[]> {
  if (ids.length === 0) return [];
  return (await executor
    .select(listColumns)
    .from(knowledgeBases)
    .innerJoin(publishers, eq(publishers.id, knowledgeBases.publisherId))
    .where(and(inArray(knowledgeBases.id, ids), eq(knowledgeBases.status, 'published')))) as ListRow[];
}

/** What a catalogue card shows beyond the listing's nine fields: what is sold and in which language. */
export interface CardFacts {
  language: string;
  documentsCount: number;
  /** The cheapest active paid plan, or null when none is on sale. */
  lowestPrice: { cents: number; currency: string } | null;
  /** An active free plan is on sale. */
  freePlan: boolean;
}

/**
 * The cards with their facts, in one statement for the page's rows (at most a page: 50). The public API's items keep
 * exactly their nine fields (docs/api.md §2.3); only the pages' cards carry these.
 */
export async function withCardFacts(executor: Executor, cards: KnowledgeBaseCard[]): Promise<KnowledgeBaseCard[]> {
  if (cards.length === 0) return cards;
  const ids = cards.map((c) => c.id);
  const result = await executor.execute(sql`
    select kb.id, kb.language, kb.documents_count,
           cheapest.price_cents, cheapest.currency,
           exists (select 1 from plans f where f.kb_id = kb.id and f.active and f.price_cents = 0) as free_plan
    from knowledge_bases kb
    left join lateral (
      select p.price_cents, p.currency from plans p where p.kb_id = kb.id and p.active and p.price_cents > 0
      order by p.price_cents, p.id limit 1
    ) cheapest on true
    where kb.id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`);
  const rows = result.rows as Array<{
    id: string;
    language: string;
    documents_count: number;
    price_cents: number | null;
    currency: string | null;
    free_plan: boolean;
  }>;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return cards.map((card) => {
    const r = byId.get(card.id);
    if (!r) return card;
    const lowestPrice = r.price_cents === null || r.currency === null ? null : { cents: Number(r.price_cents), currency: r.currency };
    return { ...card, facts: { language: r.language, documentsCount: Number(r.documents_count), lowestPrice, freePlan: Boolean(r.free_plan) } };
  });
}

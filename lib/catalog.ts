import { and, arrayContains, asc, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { knowledgeBases, plans, publishers } from '@/db/schema';
import { CATEGORIES, type Category, type ListingParams } from './catalog-params';
import { getDb } from './db';
import { matchSearchVector, parseSearchTerms } from './search-query';

export { parseListingParams, type ListingParams, type ListingParamsResult } from './catalog-params';

/**
 * The public catalogue (contract.md §1): the listing with its filters, total and stable orders; the detail of one
 * knowledge base; and small reads for the marketplace pages (publisher page, filter chips). Only `published`
 * knowledge bases are ever visible here. Every object leaving this module passes an explicit mapper.
 */

// ── views ────────────────────────────────────────────────────────────────────────────────────────────

/** Exactly the nine fields of a listing item (contract §1). `publisher` is the publisher's display name. */
export interface KnowledgeBaseListItem {
  id: string;
  title: string;
  publisher: string;
  summary: string;
  category: Category;
  tags: string[];
  subscribersCount: number;
  queryVolume: number;
  /** ISO 8601 UTC with milliseconds. */
  updatedAt: string;
}

export interface PublisherRef {
  name: string;
  slug: string;
}

/** A listing item for the marketplace pages: the same fields, with the publisher's slug for its page link. */
export interface KnowledgeBaseCard extends Omit<KnowledgeBaseListItem, 'publisher'> {
  publisher: PublisherRef;
}

export interface Listing<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

export interface PlanView {
  id: string;
  name: string;
  priceCents: number;
  currency: string;
  queriesPerPeriod: number;
  requestsPerMinute: number;
}

export interface KnowledgeBaseDetail extends KnowledgeBaseListItem {
  description: string;
  plans: PlanView[];
  documentsCount: number;
  language: string;
  licence: string;
  sampleQuestions: string[];
}

/** The detail plus what a page needs beyond the API (publisher link, creation date). */
export interface KnowledgeBaseView extends KnowledgeBaseDetail {
  publisherRef: PublisherRef;
  createdAt: string;
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

type ListRow = {
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

export function toListItem(row: ListRow): KnowledgeBaseListItem {
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

export function toPlanView(row: typeof plans.$inferSelect): PlanView {
  return {
    id: row.id,
    name: row.name,
    priceCents: row.priceCents,
    currency: row.currency,
    queriesPerPeriod: row.queriesPerPeriod,
    requestsPerMinute: row.requestsPerMinute,
  };
}

// ── the listing ──────────────────────────────────────────────────────────────────────────────────────

/** Filters of the listing. Every one is index-backed: status/category b-trees, GIN on tags and search_vector. */
export function listingConditions(params: Pick<ListingParams, 'query' | 'category' | 'tags'>): SQL {
  const conditions: SQL[] = [eq(knowledgeBases.status, 'published')];
  if (params.category) conditions.push(eq(knowledgeBases.category, params.category));
  // Tags are stored lower-case (the vocabulary) and parsed lower-case, so `@>` gives case-insensitive AND.
  if (params.tags.length > 0) conditions.push(arrayContains(knowledgeBases.tags, params.tags));
  if (params.query) {
    // Search text without any searchable word (only punctuation, or runs too long to be words) matches nothing:
    // a search was asked for and nothing can satisfy it.
    const terms = parseSearchTerms(params.query);
    conditions.push(terms ? matchSearchVector(knowledgeBases.searchVector, terms) : sql`false`);
  }
  return and(...conditions)!;
}

// `DESC NULLS LAST` exactly as the indexes in db/schema.ts are declared: a bare `DESC` means NULLS FIRST, and that
// mismatch alone stops PostgreSQL from reading the index in order (the columns are NOT NULL, so results are equal).
const descNullsLast = (column: AnyColumn) => sql`${column} desc nulls last`;

/** Total orders (the id breaks every tie) so that paging never repeats or skips a row. */
export function listingOrder(sort: ListingParams['sort']): SQL[] {
  switch (sort) {
    case 'new':
      return [descNullsLast(knowledgeBases.createdAt), asc(knowledgeBases.id)];
    case 'updated':
      return [descNullsLast(knowledgeBases.updatedAt), asc(knowledgeBases.id)];
    default:
      return [descNullsLast(knowledgeBases.subscribersCount), descNullsLast(knowledgeBases.queryVolume), asc(knowledgeBases.id)];
  }
}

/** The two statements of one listing request (exported so bench/listing can run the very same SQL through pg). */
export function buildListingQueries(db: Executor, params: ListingParams) {
  const where = listingConditions(params);
  const order = listingOrder(params.sort);
  // Deferred join: the page's ids are found first, which the sort indexes (status, sort keys…, id) answer with an
  // index-only scan even at a deep offset; only the rows of the page are then read in full and joined.
  const pageIds = db
    .select({ pageId: sql<string>`${knowledgeBases.id}`.as('page_id') })
    .from(knowledgeBases)
    .where(where)
    .orderBy(...order)
    .limit(params.pageSize)
    .offset((params.page - 1) * params.pageSize)
    .as('page_ids');
  const page = db
    .select(listColumns)
    .from(pageIds)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, pageIds.pageId))
    .innerJoin(publishers, eq(publishers.id, knowledgeBases.publisherId))
    .orderBy(...order);
  const count = db.select({ total: sql<number>`count(*)::int` }).from(knowledgeBases).where(where);
  return { page, count };
}

/**
 * Planner setting for counting search matches, scoped with SET LOCAL to the count's own transaction. PostgreSQL's default
 * random_page_cost (4, tuned for spinning disks) together with its flat cost for `@@` makes it count the matches of a
 * common word with a sequential scan of every (wide, ~2 KB) row instead of the GIN bitmap: at 100,000 knowledge bases
 * 135–250 ms instead of 16–50 ms (bench/listing/README.md). 1.1 is the usual value for SSD storage.
 */
export const SEARCH_PLANNER_SETTING = 'set local random_page_cost = 1.1';

async function queryListing(params: ListingParams, db?: Executor): Promise<{ rows: ListRow[]; total: number }> {
  const executor = db ?? (await getDb());
  const { page, count } = buildListingQueries(executor, params);
  // Only the count needs the setting (the page walks a sort index and stops early); the two run concurrently.
  const total = params.query
    ? executor.transaction(async (tx) => {
        await tx.execute(sql.raw(SEARCH_PLANNER_SETTING));
        return tx.select({ total: sql<number>`count(*)::int` }).from(knowledgeBases).where(listingConditions(params));
      })
    : count;
  const [rows, counted] = await Promise.all([page, total]);
  return { rows: rows as ListRow[], total: Number(counted[0]?.total ?? 0) };
}

function envelope<T>(items: T[], total: number, params: ListingParams): Listing<T> {
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
  return envelope(rows.map(toCard), total, params);
}

// ── one knowledge base ───────────────────────────────────────────────────────────────────────────────

/** The published knowledge base with its active plans, or null (unknown, draft, suspended, archived). */
export async function getKnowledgeBaseView(id: string, db?: Executor): Promise<KnowledgeBaseView | null> {
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
  };
}

/** The public detail (contract §1): the nine list fields plus description, plans, documentsCount, language, licence, sampleQuestions. */
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
    .where(eq(publishers.slug, slug))
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
  const executor = db ?? (await getDb());
  const rows = await executor
    .select(listColumns)
    .from(knowledgeBases)
    .innerJoin(publishers, eq(publishers.id, knowledgeBases.publisherId))
    .where(and(eq(publishers.slug, publisherSlug), eq(knowledgeBases.status, 'published')))
    .orderBy(...listingOrder('popular'));
  return (rows as ListRow[]).map(toCard);
}

/** Tags in use by published knowledge bases with how many carry each; most used first, then alphabetical. */
export async function listTagVocabulary(db?: Executor): Promise<{ tag: string; count: number }[]> {
  const executor = db ?? (await getDb());
  const result = await executor.execute(sql`
    select tag, count(*)::int as count
    from knowledge_bases, unnest(tags) as tag
    where status = 'published'
    group by tag
    order by count desc, tag asc`);
  return (result.rows as { tag: string; count: number }[]).map((r) => ({ tag: r.tag, count: Number(r.count) }));
}

/** Published knowledge bases per category, every category present (0 when empty), in the contract's order. */
export async function categoryCounts(db?: Executor): Promise<{ category: Category; count: number }[]> {
  const executor = db ?? (await getDb());
  const rows = await executor
    .select({ category: knowledgeBases.category, count: sql<number>`count(*)::int` })
    .from(knowledgeBases)
    .where(eq(knowledgeBases.status, 'published'))
    .groupBy(knowledgeBases.category);
  const counts = new Map(rows.map((r) => [r.category, Number(r.count)]));
  return CATEGORIES.map((category) => ({ category, count: counts.get(category) ?? 0 }));
}

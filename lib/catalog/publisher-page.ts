import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { catalogSearch, knowledgeBases, publishers } from '@/db/schema';
import { getDb } from '@/lib/platform/db';
import { isCleanId } from '@/lib/platform/text-input';
import { listColumns, toCard, withCardFacts, type KnowledgeBaseCard, type ListRow } from './cards';
import { listingOrder } from './listing';
import { CATEGORIES, type Category } from './params';

/** Small reads of the marketplace pages: a publisher's page and the catalog page's tag and category chips. */

export interface PublisherView {
  id: string;
  slug: string;
  name: string;
  description: string;
  websiteUrl: string | null;
  knowledgeBasesCount: number;
}

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

export async function listTagVocabulary(db?: Executor): Promise<{ tag: string; count: number }[]> {
  const executor = db ?? (await getDb());
  const result = await executor.execute(sql`
    select tag, count(*)::int as count
    from catalog_search, unnest(tags) as tag
    group by tag
    order by count desc, tag asc`);
  return (result.rows as { tag: string; count: number }[]).map((r) => ({ tag: r.tag, count: Number(r.count) }));
}

export async function categoryCounts(db?: Executor): Promise<{ category: Category; count: number }[]> {
  const executor = db ?? (await getDb());
  const rows = await executor
    .select({ category: catalogSearch.category, count: sql<number>`count(*)::int` })
    .from(catalogSearch)
    .groupBy(catalogSearch.category);
  const counts = new Map(rows.map((r) => [r.category, Number(r.count)]));
  return CATEGORIES.map((category) => ({ category, count: counts.get(category) ?? 0 }));
}

import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { knowledgeBases, publishers } from '@/db/schema';
import type { Category } from './params';
import type { KnowledgeBaseListItem } from './schemas';

/** Row and card mappers of the catalog: every object leaving it passes one, and only `published` rows are read. */

export interface PublisherRef {
  name: string;
  slug: string;
}

export interface KnowledgeBaseCard extends Omit<KnowledgeBaseListItem, 'publisher'> {
  publisher: PublisherRef;
  facts?: CardFacts;
}

export const listColumns = {
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

/** The page rows of the given published knowledge bases, in no particular order (the caller orders them). */
export async function rowsByIds(executor: Executor, ids: string[]): Promise<ListRow[]> {
  if (ids.length === 0) return [];
  return (await executor
    .select(listColumns)
    .from(knowledgeBases)
    .innerJoin(publishers, eq(publishers.id, knowledgeBases.publisherId))
    .where(and(inArray(knowledgeBases.id, ids), eq(knowledgeBases.status, 'published')))) as ListRow[];
}

export interface CardFacts {
  language: string;
  documentsCount: number;
  lowestPrice: { cents: number; currency: string } | null;
  freePlan: boolean;
}

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

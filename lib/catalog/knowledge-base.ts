import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { knowledgeBases, plans, publishers } from '@/db/schema';
import { getDb } from '@/lib/platform/db';
import { isCleanId } from '@/lib/platform/text-input';
import { toPlanView } from '@/lib/subscriptions';
import { listColumns, toListItem, type ListRow, type PublisherRef } from './cards';
import type { KnowledgeBaseDetail } from './schemas';

/** One published knowledge base: the public detail (docs/api.md §2.9) and the page's view of it. */

export interface KnowledgeBaseView extends KnowledgeBaseDetail {
  publisherRef: PublisherRef;
  createdAt: string;
  /** The plan with strictly the most active subscribers, or null (no subscriber yet, or a tie): "Most chosen" is earned. */
  mostChosenPlanId: string | null;
}

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

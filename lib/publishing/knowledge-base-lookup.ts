import { and, asc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { knowledgeBases, plans, publishers, type KnowledgeBase } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { toPlanView, type PlanView } from '@/lib/subscriptions';

/**
 * Knowledge bases in every state, found by id, slug or `publisher/slug` for the operator CLI. Nothing here checks
 * ownership: the operator owns the installation.
 */

export interface OperatorPlan extends PlanView {
  active: boolean;
}

export interface OperatorKnowledgeBase {
  id: string;
  slug: string;
  publisherSlug: string;
  publisherName: string;
  title: string;
  status: KnowledgeBase['status'];
  backendKind: 'hosted' | 'http';
  sampleQuestions: string[];
  plans: OperatorPlan[];
}

async function withPlans(db: Executor, rows: Omit<OperatorKnowledgeBase, 'plans'>[]): Promise<OperatorKnowledgeBase[]> {
  if (rows.length === 0) return [];
  const planRows = await db
    .select()
    .from(plans)
    .where(
      inArray(
        plans.kbId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(plans.sortOrder), asc(plans.priceCents));
  return rows.map((r) => ({
    ...r,
    plans: planRows.filter((p) => p.kbId === r.id).map((p) => ({ ...toPlanView(p), active: p.active })),
  }));
}

const kbColumns = {
  id: knowledgeBases.id,
  slug: knowledgeBases.slug,
  publisherSlug: publishers.slug,
  publisherName: publishers.name,
  title: knowledgeBases.title,
  status: knowledgeBases.status,
  backendKind: knowledgeBases.backendKind,
  sampleQuestions: knowledgeBases.sampleQuestions,
};

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function listKnowledgeBasesForOperator(db: Executor, search?: string): Promise<OperatorKnowledgeBase[]> {
  const term = search?.trim();
  let where: SQL | undefined;
  if (term) {
    const pattern = `%${escapeLike(term)}%`;
    where = or(ilike(knowledgeBases.title, pattern), ilike(knowledgeBases.slug, pattern), ilike(publishers.name, pattern), eq(knowledgeBases.id, term));
  }
  const rows = await db
    .select(kbColumns)
    .from(knowledgeBases)
    .innerJoin(publishers, eq(publishers.id, knowledgeBases.publisherId))
    .where(where)
    .orderBy(asc(knowledgeBases.status), asc(knowledgeBases.title), asc(knowledgeBases.id));
  return withPlans(db, rows);
}

export type ResolveKbResult =
  { ok: true; kb: OperatorKnowledgeBase } | { ok: false; code: 'not_found' } | { ok: false; code: 'ambiguous'; candidates: OperatorKnowledgeBase[] };

/** Slugs are unique per publisher only, so a bare slug used by two publishers is ambiguous. */
export async function resolveKnowledgeBase(db: Executor, ref: string): Promise<ResolveKbResult> {
  const value = ref.trim();
  let where: SQL | undefined;
  if (value.includes('/')) {
    const [publisherSlug, slug] = value.split('/', 2) as [string, string];
    where = and(eq(publishers.slug, publisherSlug), eq(knowledgeBases.slug, slug));
  } else {
    where = or(eq(knowledgeBases.id, value), eq(knowledgeBases.slug, value));
  }
  const rows = await withPlans(
    db,
    await db.select(kbColumns).from(knowledgeBases).innerJoin(publishers, eq(publishers.id, knowledgeBases.publisherId)).where(where),
  );
  const exact = rows.find((r) => r.id === value);
  if (exact) return { ok: true, kb: exact };
  if (rows.length === 0) return { ok: false, code: 'not_found' };
  if (rows.length > 1) return { ok: false, code: 'ambiguous', candidates: rows };
  return { ok: true, kb: rows[0]! };
}

export function describeResolveFailure(ref: string, failure: Exclude<ResolveKbResult, { ok: true }>): string {
  if (failure.code === 'not_found') return `No knowledge base "${ref}". Run \`npm run almanac -- list-kbs\` to see them.`;
  return [
    `"${ref}" matches several knowledge bases; use the id or publisher/slug:`,
    ...failure.candidates.map((kb) => `  ${kb.id}  ${kb.publisherSlug}/${kb.slug}  ${kb.title}`),
  ].join('\n');
}

/** A plan of the KB by id or (case-insensitive) name; without a reference, the cheapest active plan. */
export function choosePlan(kb: OperatorKnowledgeBase, ref?: string): OperatorPlan | null {
  const active = kb.plans.filter((p) => p.active);
  if (!ref) return [...active].sort((a, b) => a.priceCents - b.priceCents)[0] ?? null;
  const wanted = ref.trim().toLowerCase();
  return kb.plans.find((p) => p.id === ref.trim()) ?? active.find((p) => p.name.toLowerCase() === wanted) ?? null;
}

import { and, asc, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { knowledgeBases, plans, publishers, subscriptions, users } from '@/db/schema';
import type { Executor } from '@/db/client';
import { newId } from '@/lib/platform/ids';
import { HOLDING_STATUSES } from './lifecycle';
import { emailSchema } from '@/lib/accounts/users';

/**
 * Reads and writes the operator CLI needs beyond the buyer-facing functions in lib/subscriptions/lifecycle.ts: finding a
 * knowledge base by id or slug, creating a buyer without a password, finding a buyer's subscription to a KB.
 * The operator owns the installation, so nothing here checks ownership.
 */

export interface OperatorPlan {
  id: string;
  name: string;
  priceCents: number;
  currency: string;
  queriesPerPeriod: number;
  requestsPerMinute: number;
  active: boolean;
}

export interface OperatorKnowledgeBase {
  id: string;
  slug: string;
  publisherSlug: string;
  publisherName: string;
  title: string;
  status: 'draft' | 'published' | 'suspended' | 'archived';
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
    plans: planRows
      .filter((p) => p.kbId === r.id)
      .map((p) => ({
        id: p.id,
        name: p.name,
        priceCents: p.priceCents,
        currency: p.currency,
        queriesPerPeriod: p.queriesPerPeriod,
        requestsPerMinute: p.requestsPerMinute,
        active: p.active,
      })),
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

/** Every knowledge base (published first, then by title), optionally filtered by a substring of title, slug or publisher. */
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
  | { ok: true; kb: OperatorKnowledgeBase }
  | { ok: false; code: 'not_found' }
  | { ok: false; code: 'ambiguous'; candidates: OperatorKnowledgeBase[] };

/**
 * The one way every CLI command finds a knowledge base: `kb_…` id, `slug`, or `publisher-slug/slug` (slugs are
 * unique per publisher only, so a bare slug used by two publishers is ambiguous).
 */
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

/** What to tell the operator when `resolveKnowledgeBase` found nothing or several. */
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

export type BuyerResult = { ok: true; user: { id: string; email: string }; created: boolean } | { ok: false; code: 'invalid_email'; message: string };

/** The user with this email, created without a password when missing (they can set one by signing up/resetting). */
export async function findOrCreateBuyer(db: Executor, email: string): Promise<BuyerResult> {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) return { ok: false, code: 'invalid_email', message: parsed.error.issues[0]?.message ?? 'Invalid email.' };
  const normalised = parsed.data;
  const inserted = await db
    .insert(users)
    .values({ id: newId('usr'), email: normalised })
    .onConflictDoNothing()
    .returning({ id: users.id, email: users.email });
  if (inserted[0]) return { ok: true, user: inserted[0], created: true };
  const [existing] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, normalised));
  if (!existing) throw new Error('User vanished between insert and select.');
  return { ok: true, user: existing, created: false };
}

export async function findUserByEmail(db: Executor, email: string): Promise<{ id: string; email: string } | null> {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) return null;
  const [row] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, parsed.data));
  return row ?? null;
}

/** The buyer's live subscription to the KB if there is one, else their most recent one. */
export async function findSubscriptionOfBuyer(db: Executor, userId: string, kbId: string): Promise<string | null> {
  const rows = await db
    .select({ id: subscriptions.id, status: subscriptions.status })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.kbId, kbId)))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
  const live = rows.find((r) => HOLDING_STATUSES.includes(r.status));
  return (live ?? rows[0])?.id ?? null;
}

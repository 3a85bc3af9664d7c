import { and, eq } from 'drizzle-orm';
import { knowledgeBases, plans, publishers, type KnowledgeBase, type Plan, type Publisher } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import { isCleanId } from '@/lib/platform/text-input';
import type { Refusal } from '@/lib/platform/transactions';

/**
 * The console's one ownership rule (docs/api.md §9): every page and action starts from the session's user id, never a
 * form's, and what the account does not own is `not_found` like what does not exist, so strangers learn nothing.
 */

const NOT_FOUND: Refusal<'not_found'> = { ok: false, code: 'not_found', message: 'Not found.' };
const NO_PUBLISHER: Refusal<'not_found'> = { ok: false, code: 'not_found', message: 'This account has no publisher profile yet.' };

const usableId = (id: unknown): id is string => typeof id === 'string' && id.length > 0 && id.length <= 64 && isCleanId(id);

export async function findPublisherForUser(db: Executor, userId: string): Promise<Publisher | null> {
  if (!usableId(userId)) return null;
  const [row] = await db.select().from(publishers).where(eq(publishers.ownerUserId, userId)).limit(1);
  return row ?? null;
}

export async function requirePublisherForUser(db: Executor, userId: string): Promise<{ ok: true; publisher: Publisher } | Refusal<'not_found'>> {
  const publisher = await findPublisherForUser(db, userId);
  return publisher ? { ok: true, publisher } : NO_PUBLISHER;
}

export type OwnedKnowledgeBase = { ok: true; publisher: Publisher; kb: KnowledgeBase };

/** Any state; `lock: true` in a transaction holds the row (`FOR UPDATE`) for a state change. */
export async function requireOwnedKnowledgeBase(
  db: Executor,
  userId: string,
  kbId: unknown,
  options: { lock?: boolean } = {},
): Promise<OwnedKnowledgeBase | Refusal<'not_found'>> {
  if (!usableId(kbId)) return NOT_FOUND;
  const publisher = await findPublisherForUser(db, userId);
  if (!publisher) return NOT_FOUND;
  const query = db
    .select()
    .from(knowledgeBases)
    .where(and(eq(knowledgeBases.id, kbId), eq(knowledgeBases.publisherId, publisher.id)));
  const [kb] = options.lock ? await query.for('update') : await query;
  return kb ? { ok: true, publisher, kb } : NOT_FOUND;
}

export async function requireOwnedPlan(db: Executor, userId: string, planId: unknown): Promise<(OwnedKnowledgeBase & { plan: Plan }) | Refusal<'not_found'>> {
  if (!usableId(planId)) return NOT_FOUND;
  const [plan] = await db.select().from(plans).where(eq(plans.id, planId));
  if (!plan) return NOT_FOUND;
  const owned = await requireOwnedKnowledgeBase(db, userId, plan.kbId);
  return owned.ok ? { ...owned, plan } : NOT_FOUND;
}

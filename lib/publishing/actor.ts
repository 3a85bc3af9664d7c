import type { KnowledgeBase, Publisher } from '@/db/schema';
import { knowledgeBases, publishers } from '@/db/schema';
import { eq } from 'drizzle-orm';
import type { AuditActorKind } from '@/lib/platform/audit';
import type { Executor } from '@/lib/platform/db';
import { isCleanId } from '@/lib/platform/text-input';
import { requireOwnedKnowledgeBase } from './ownership';
import type { Refusal } from '@/lib/platform/transactions';

/**
 * Who makes a console change: a publisher may touch only what it owns; the operator (CLI, or an ADMIN_EMAILS account)
 * owns the installation. Both use the same functions, so the CLI can do everything the console does.
 */
export type Actor = { kind: 'publisher'; userId: string } | { kind: 'operator'; userId: string | null; via: 'cli' | 'web' };

export const auditActor = (actor: Actor): { actorUserId: string | null; actorKind: AuditActorKind } =>
  actor.kind === 'publisher' ? { actorUserId: actor.userId, actorKind: 'web' } : { actorUserId: actor.userId, actorKind: actor.via };

/** The knowledge base the actor may change (locked when `lock`), or `not_found`. */
export async function knowledgeBaseFor(
  db: Executor,
  actor: Actor,
  kbId: unknown,
  lock = false,
): Promise<{ ok: true; kb: KnowledgeBase; publisher: Publisher } | Refusal<'not_found'>> {
  if (actor.kind === 'publisher') return requireOwnedKnowledgeBase(db, actor.userId, kbId, { lock });
  if (typeof kbId !== 'string' || !isCleanId(kbId) || kbId.length > 64) return { ok: false, code: 'not_found', message: 'Not found.' };
  const query = db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
  const [kb] = lock ? await query.for('update') : await query;
  if (!kb) return { ok: false, code: 'not_found', message: 'Not found.' };
  const [publisher] = await db.select().from(publishers).where(eq(publishers.id, kb.publisherId));
  return { ok: true, kb, publisher: publisher! };
}

import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { knowledgeBases, publishers, users } from '@/db/schema';
import { recordAudit } from '@/lib/platform/audit';
import type { Executor } from '@/lib/platform/db';
import { inTransaction } from '@/lib/platform/transactions';
import { auditActor, type Actor } from './actor';
import type { ListingRefusal } from './listings';
import type { ListingStatus } from './rules';

/**
 * The operator's suspensions (docs/api.md §9.1): a suspended listing answers its keys 403 and leaves the catalogue;
 * restoring returns it to its former state. A publisher's suspension marks its listings as its own, and restoring it
 * restores exactly those. Every change is audited with its reason.
 */

export type OperatorActor = Extract<Actor, { kind: 'operator' }>;
export type ModerationResult = { ok: true; changed: number } | ListingRefusal;

const REASON_MAX = 500;
const cleanReason = (reason: string) =>
  reason
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, REASON_MAX);

export async function suspendListing(db: Executor, actor: OperatorActor, kbId: string, reason: string): Promise<ModerationResult> {
  return inTransaction(db, async (tx) => {
    const [kb] = await tx.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId)).for('update');
    if (!kb) return { ok: false as const, code: 'not_found' as const, message: 'No such knowledge base.' };
    if (kb.status === 'suspended') return { ok: true as const, changed: 0 };
    const why = cleanReason(reason);
    await tx
      .update(knowledgeBases)
      .set({ status: 'suspended', statusBeforeSuspension: kb.status, suspendedWithPublisher: false, suspensionReason: why || null, updatedAt: new Date() })
      .where(eq(knowledgeBases.id, kb.id));
    await recordAudit(tx, {
      ...auditActor(actor),
      action: 'kb.suspend',
      targetType: 'knowledge_base',
      targetId: kb.id,
      metadata: { from: kb.status, reason: why },
    });
    return { ok: true as const, changed: 1 };
  });
}

export async function restoreListing(db: Executor, actor: OperatorActor, kbId: string, reason = ''): Promise<ModerationResult> {
  return inTransaction(db, async (tx) => {
    const [kb] = await tx.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId)).for('update');
    if (!kb) return { ok: false as const, code: 'not_found' as const, message: 'No such knowledge base.' };
    if (kb.status !== 'suspended') return { ok: true as const, changed: 0 };
    const [publisher] = await tx.select({ suspendedAt: publishers.suspendedAt }).from(publishers).where(eq(publishers.id, kb.publisherId));
    if (publisher?.suspendedAt) return { ok: false as const, code: 'conflict' as const, message: 'Its publisher is suspended: restore the publisher.' };
    const to: ListingStatus = kb.statusBeforeSuspension && kb.statusBeforeSuspension !== 'suspended' ? kb.statusBeforeSuspension : 'draft';
    await tx
      .update(knowledgeBases)
      .set({ status: to, statusBeforeSuspension: null, suspendedWithPublisher: false, suspensionReason: null, updatedAt: new Date() })
      .where(eq(knowledgeBases.id, kb.id));
    await recordAudit(tx, {
      ...auditActor(actor),
      action: 'kb.restore',
      targetType: 'knowledge_base',
      targetId: kb.id,
      metadata: { to, reason: cleanReason(reason) },
    });
    return { ok: true as const, changed: 1 };
  });
}

export async function suspendPublisher(db: Executor, actor: OperatorActor, publisherId: string, reason: string): Promise<ModerationResult> {
  return inTransaction(db, async (tx) => {
    const [publisher] = await tx.select().from(publishers).where(eq(publishers.id, publisherId)).for('update');
    if (!publisher) return { ok: false as const, code: 'not_found' as const, message: 'No such publisher.' };
    if (publisher.suspendedAt) return { ok: true as const, changed: 0 };
    const why = cleanReason(reason);
    const now = new Date();
    await tx
      .update(publishers)
      .set({ suspendedAt: now, suspensionReason: why || null, updatedAt: now })
      .where(eq(publishers.id, publisher.id));
    const listings = await tx
      .update(knowledgeBases)
      .set({
        status: 'suspended',
        statusBeforeSuspension: sql`${knowledgeBases.status}`,
        suspendedWithPublisher: true,
        suspensionReason: why || null,
        updatedAt: now,
      })
      .where(and(eq(knowledgeBases.publisherId, publisher.id), ne(knowledgeBases.status, 'suspended')))
      .returning({ id: knowledgeBases.id });
    await recordAudit(tx, {
      ...auditActor(actor),
      action: 'publisher.suspend',
      targetType: 'publisher',
      targetId: publisher.id,
      metadata: { reason: why, listings: listings.map((l) => l.id) },
    });
    return { ok: true as const, changed: 1 + listings.length };
  });
}

export async function restorePublisher(db: Executor, actor: OperatorActor, publisherId: string, reason = ''): Promise<ModerationResult> {
  return inTransaction(db, async (tx) => {
    const [publisher] = await tx.select().from(publishers).where(eq(publishers.id, publisherId)).for('update');
    if (!publisher) return { ok: false as const, code: 'not_found' as const, message: 'No such publisher.' };
    if (!publisher.suspendedAt) return { ok: true as const, changed: 0 };
    // A publisher closed with its owner's account (docs/api.md §11.3) is held suspended; nobody could run it again.
    // (A publisher without an owner, as the seed and the operator CLI make them, is the operator's own.)
    const [owner] = publisher.ownerUserId ? await tx.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, publisher.ownerUserId)) : [];
    if (owner?.deletedAt)
      return { ok: false as const, code: 'conflict' as const, message: 'Its owner deleted their account: the publisher is closed and cannot be restored.' };
    const now = new Date();
    await tx.update(publishers).set({ suspendedAt: null, suspensionReason: null, updatedAt: now }).where(eq(publishers.id, publisher.id));
    const listings = await tx
      .update(knowledgeBases)
      .set({
        status: sql`coalesce(nullif(${knowledgeBases.statusBeforeSuspension}, 'suspended'), 'draft')`,
        statusBeforeSuspension: null,
        suspendedWithPublisher: false,
        suspensionReason: null,
        updatedAt: now,
      })
      .where(and(eq(knowledgeBases.publisherId, publisher.id), eq(knowledgeBases.status, 'suspended'), eq(knowledgeBases.suspendedWithPublisher, true)))
      .returning({ id: knowledgeBases.id });
    await recordAudit(tx, {
      ...auditActor(actor),
      action: 'publisher.restore',
      targetType: 'publisher',
      targetId: publisher.id,
      metadata: { reason: cleanReason(reason), listings: listings.map((l) => l.id) },
    });
    return { ok: true as const, changed: 1 + listings.length };
  });
}

export interface ModerationPublisher {
  id: string;
  name: string;
  slug: string;
  contactEmail: string | null;
  ownerEmail: string | null;
  suspended: boolean;
  suspensionReason: string | null;
  listings: { id: string; title: string; status: ListingStatus; subscribersCount: number; suspensionReason: string | null; suspendedWithPublisher: boolean }[];
}

export async function listPublishersForModeration(db: Executor): Promise<ModerationPublisher[]> {
  const rows = await db
    .select({ p: publishers, ownerEmail: users.email })
    .from(publishers)
    .leftJoin(users, eq(users.id, publishers.ownerUserId))
    .orderBy(sql`${publishers.suspendedAt} is null`, asc(publishers.name));
  const kbs = await db
    .select({
      id: knowledgeBases.id,
      publisherId: knowledgeBases.publisherId,
      title: knowledgeBases.title,
      status: knowledgeBases.status,
      subscribersCount: knowledgeBases.subscribersCount,
      suspensionReason: knowledgeBases.suspensionReason,
      suspendedWithPublisher: knowledgeBases.suspendedWithPublisher,
    })
    .from(knowledgeBases)
    .orderBy(asc(knowledgeBases.title));
  return rows.map(({ p, ownerEmail }) => ({
    id: p.id,
    name: p.name,
    slug: p.slug,
    contactEmail: p.contactEmail,
    ownerEmail,
    suspended: p.suspendedAt !== null,
    suspensionReason: p.suspensionReason,
    listings: kbs.filter((k) => k.publisherId === p.id).map(({ publisherId: _p, ...k }) => k),
  }));
}

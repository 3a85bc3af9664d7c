import { eq, sql } from 'drizzle-orm';
import { knowledgeBases, subscriptions, type Subscription } from '@/db/schema';
import type { Executor, Transaction } from '@/lib/platform/db';
import { recordAudit, type AuditEntry } from '@/lib/platform/audit';
import { Denied, deniable, type Refusal } from '@/lib/platform/transactions';
import { isCounted, type SubscriptionStatus } from './status';

/** The one way a subscription changes after purchase, so subscribers_count and the audit log stay exact. */

export type SubscriptionResult = { ok: true; subscription: Subscription } | Refusal;

export async function adjustSubscribers(tx: Executor, kbId: string, before: SubscriptionStatus | null, after: SubscriptionStatus): Promise<void> {
  const delta = (isCounted(after) ? 1 : 0) - (before && isCounted(before) ? 1 : 0);
  if (delta === 0) return;
  await tx
    .update(knowledgeBases)
    .set({ subscribersCount: sql`${knowledgeBases.subscribersCount} + ${delta}` })
    .where(eq(knowledgeBases.id, kbId));
}

/** Locks the row for the rest of the transaction so concurrent status changes serialise (exact counters). */
export async function lockSubscription(tx: Transaction, subscriptionId: string, userId?: string): Promise<Subscription> {
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for('update');
  // Someone else's subscription is indistinguishable from a missing one.
  if (!row || (userId !== undefined && row.userId !== userId)) throw new Denied('not_found', 'No such subscription.');
  return row;
}

export type SubscriptionChanges = Partial<
  Pick<
    Subscription,
    'status' | 'planId' | 'pendingPlanId' | 'cancelAtPeriodEnd' | 'cancelledAt' | 'cancelledByUnpublish' | 'endedAt' | 'currentPeriodStart' | 'currentPeriodEnd'
  >
>;

export interface LifecycleChange {
  subscriptionId: string;
  userId?: string;
  at: Date;
  /** Throws `Denied` to refuse; `'unchanged'` when already in effect (every change is idempotent); else the columns to set. */
  decide(row: Subscription, tx: Transaction): SubscriptionChanges | 'unchanged' | Promise<SubscriptionChanges | 'unchanged'>;
  alsoWrite?(tx: Transaction, row: Subscription): Promise<void>;
  audit(row: Subscription): Omit<AuditEntry, 'targetType' | 'targetId'>;
}

/** Lock, decide, update (subscribers_count exact when the status moves), audit; `updated` is null when already in effect. */
export async function applyChange(tx: Transaction, change: LifecycleChange): Promise<{ row: Subscription; updated: Subscription | null }> {
  const row = await lockSubscription(tx, change.subscriptionId, change.userId);
  const set = await change.decide(row, tx);
  if (set === 'unchanged') return { row, updated: null };
  const [updated] = await tx
    .update(subscriptions)
    .set({ ...set, updatedAt: change.at })
    .where(eq(subscriptions.id, row.id))
    .returning();
  if (set.status) await adjustSubscribers(tx, row.kbId, row.status, set.status);
  await change.alsoWrite?.(tx, row);
  await recordAudit(tx, { ...change.audit(row), targetType: 'subscription', targetId: row.id });
  return { row, updated: updated! };
}

/** `applyChange` in its own transaction (a savepoint inside the caller's), with refusals as values. */
export function changeSubscription(db: Executor, change: LifecycleChange): Promise<SubscriptionResult> {
  return deniable(db, async (tx) => {
    const { row, updated } = await applyChange(tx, change);
    return { ok: true as const, subscription: updated ?? row };
  });
}

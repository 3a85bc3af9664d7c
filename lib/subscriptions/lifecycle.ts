import { and, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { apiKeys, knowledgeBases, plans, subscriptions, usageDaily, usagePeriods, users, type Subscription } from '@/db/schema';
import type { Database, Executor, Transaction } from '@/db/client';
import { recordAudit, type AuditActorKind } from '@/lib/platform/audit';
import { periodBounds, periodContaining } from './billing-period';
import { newId } from '@/lib/platform/ids';
import { generateApiKey, toKeyView, type KeyMode, type KeyView } from '@/lib/keys/format';

/**
 * Subscriptions, their billing periods and their keys. Every function takes the executor first so a caller can
 * run it inside its own transaction (the Stripe webhook records its event id in the same one); multi-row writes
 * open a transaction, or a savepoint when `db` already is one. Expected denials are values, never exceptions.
 *
 * `knowledge_bases.subscribers_count` ("subscriptions active now", contract §1) counts subscriptions whose status
 * is `active` — including ones cancelled at period end, which keep access until then — in both modes (live and
 * test: the offline test checkout is the whole product without Stripe keys). `past_due` (access suspended),
 * `incomplete`, `cancelled` and `expired` do not count. Every status change adjusts it in the same transaction.
 */

export type SubscriptionStatus = Subscription['status'];
export const COUNTED_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['active'];
/** Statuses that still grant access (past_due is suspended, not ended: paying restores it). */
const LIVE_STATUSES: readonly SubscriptionStatus[] = ['active', 'past_due'];
/**
 * Statuses that hold the buyer's one subscription per knowledge base (contract §3): the partial unique index
 * `subscriptions_one_active_key` covers exactly these, so a buyer holding one cannot buy the same knowledge base again.
 */
export const HOLDING_STATUSES: readonly SubscriptionStatus[] = ['active', 'past_due', 'incomplete'];
const ENDED_STATUSES: readonly SubscriptionStatus[] = ['cancelled', 'expired'];

export type DenialCode = 'not_found' | 'forbidden' | 'conflict' | 'invalid_plan';
export interface Denial {
  ok: false;
  code: DenialCode;
  message: string;
}

class Denied extends Error {
  constructor(
    readonly code: DenialCode,
    message: string,
  ) {
    super(message);
  }
}

function isCounted(status: SubscriptionStatus): boolean {
  return COUNTED_SUBSCRIPTION_STATUSES.includes(status);
}

/**
 * Runs `fn` in a transaction; when `db` is already a transaction Drizzle opens a savepoint, so a denial or failure
 * rolls back only this work and leaves the caller's transaction usable.
 */
export function inTransaction<T>(db: Executor, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  return (db as Database).transaction(fn);
}

/** Like inTransaction, but a `Denied` thrown inside rolls back and comes out as a `{ ok: false }` value. */
async function deniable<T>(db: Executor, fn: (tx: Transaction) => Promise<T>): Promise<T | Denial> {
  try {
    return await inTransaction(db, fn);
  } catch (error) {
    if (error instanceof Denied) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

async function adjustSubscribers(tx: Executor, kbId: string, before: SubscriptionStatus | null, after: SubscriptionStatus): Promise<void> {
  const delta = (isCounted(after) ? 1 : 0) - (before && isCounted(before) ? 1 : 0);
  if (delta === 0) return;
  await tx
    .update(knowledgeBases)
    .set({ subscribersCount: sql`${knowledgeBases.subscribersCount} + ${delta}` })
    .where(eq(knowledgeBases.id, kbId));
}

/** Locks the row for the rest of the transaction so concurrent status changes serialise (exact counters). */
async function lockSubscription(tx: Transaction, subscriptionId: string, userId?: string): Promise<Subscription> {
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for('update');
  // Someone else's subscription is indistinguishable from a missing one.
  if (!row || (userId !== undefined && row.userId !== userId)) throw new Denied('not_found', 'No such subscription.');
  return row;
}

export interface IssuedKey {
  id: string;
  /** The whole key: show it once, never store or log it. */
  plaintext: string;
  displayPrefix: string;
  last4: string;
  mode: KeyMode;
}

async function insertKey(tx: Executor, subscription: Pick<Subscription, 'id' | 'userId' | 'kbId' | 'mode'>): Promise<IssuedKey> {
  const generated = generateApiKey(subscription.mode);
  const id = newId('key');
  await tx.insert(apiKeys).values({
    id,
    subscriptionId: subscription.id,
    userId: subscription.userId,
    kbId: subscription.kbId,
    keyHash: generated.keyHash,
    displayPrefix: generated.displayPrefix,
    last4: generated.last4,
    mode: subscription.mode,
  });
  return { id, plaintext: generated.key, displayPrefix: generated.displayPrefix, last4: generated.last4, mode: subscription.mode };
}

// ── Purchase ───────────────────────────────────────────────────────────────────────────────────────

export interface PurchaseInput {
  userId: string;
  planId: string;
  mode: KeyMode;
  now?: Date;
  actorKind?: AuditActorKind;
  /** Stripe purchases: the period is Stripe's, not computed from the purchase instant. */
  stripe?: { subscriptionId: string; customerId: string; checkoutSessionId: string; periodStart: Date; periodEnd: Date };
}

export type PurchaseResult = { ok: true; subscription: Subscription; key: IssuedKey } | Denial;

/**
 * Subscription + first key + usage row for the first period + subscribers_count + audit, all in one transaction.
 * A second live subscription of the same buyer to the same knowledge base is `conflict` (the partial unique index
 * decides, so concurrent purchases cannot both win).
 */
export async function purchaseSubscription(db: Executor, input: PurchaseInput): Promise<PurchaseResult> {
  const now = input.now ?? new Date();
  return deniable(db, async (tx) => {
    const [plan] = await tx
      .select({ id: plans.id, kbId: plans.kbId, name: plans.name, active: plans.active, kbStatus: knowledgeBases.status })
      .from(plans)
      .innerJoin(knowledgeBases, eq(knowledgeBases.id, plans.kbId))
      .where(eq(plans.id, input.planId));
    if (!plan || !plan.active) throw new Denied('invalid_plan', 'This plan does not exist or is no longer offered.');
    if (plan.kbStatus !== 'published') throw new Denied('invalid_plan', 'This knowledge base is not available for purchase.');
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId));
    if (!user) throw new Denied('not_found', 'No such user.');
    // A subscription cancelled at period end whose period is over still reads `active` until something expires it
    // (the gateway does on its next call); expire it here so that buying again works at once.
    for (const { id } of await tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, input.userId), eq(subscriptions.kbId, plan.kbId), lapsedCondition(now)))) {
      await expireInTransaction(tx, id, now);
    }

    const anchor = input.stripe ? input.stripe.periodStart : now;
    const period = input.stripe ? { start: input.stripe.periodStart, end: input.stripe.periodEnd } : periodBounds(anchor, 0);
    const [subscription] = await tx
      .insert(subscriptions)
      .values({
        id: newId('sub'),
        userId: input.userId,
        kbId: plan.kbId,
        planId: plan.id,
        status: 'active',
        mode: input.mode,
        periodAnchorAt: anchor,
        currentPeriodStart: period.start,
        currentPeriodEnd: period.end,
        stripeSubscriptionId: input.stripe?.subscriptionId ?? null,
        stripeCheckoutSessionId: input.stripe?.checkoutSessionId ?? null,
        createdAt: now,
        updatedAt: now,
      })
      // No target: the one-live-subscription index (or a replayed Stripe id) answers "nothing inserted" instead of
      // aborting the transaction; a concurrent purchase waits for the first to commit, then inserts nothing.
      .onConflictDoNothing()
      .returning();
    if (!subscription) throw new Denied('conflict', 'You already have an active subscription to this knowledge base.');

    if (input.stripe) {
      // Remember the buyer's Stripe customer (portal links); never overwrite one already set.
      await tx
        .update(users)
        .set({ stripeCustomerId: input.stripe.customerId })
        .where(and(eq(users.id, input.userId), sql`${users.stripeCustomerId} is null`));
    }
    const key = await insertKey(tx, subscription);
    await tx.insert(usagePeriods).values({ subscriptionId: subscription.id, periodStart: period.start, periodEnd: period.end, used: 0 });
    await adjustSubscribers(tx, plan.kbId, null, 'active');
    await recordAudit(tx, {
      actorUserId: input.userId,
      actorKind: input.actorKind ?? (input.stripe ? 'stripe' : 'web'),
      action: 'subscription.purchase',
      targetType: 'subscription',
      targetId: subscription.id,
      metadata: { kbId: plan.kbId, planId: plan.id, plan: plan.name, mode: input.mode, keyId: key.id, keyPrefix: key.displayPrefix },
    });
    return { ok: true as const, subscription, key };
  });
}

// ── Periods ────────────────────────────────────────────────────────────────────────────────────────

/** The fields period logic needs; a subscriptions row or the gateway's cached key record both fit. */
export interface SubscriptionPeriodState {
  id: string;
  kbId: string;
  status: SubscriptionStatus;
  periodAnchorAt: Date;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  stripeSubscriptionId: string | null;
}

/**
 * The period `now` falls in. Stripe-managed subscriptions keep the stored period (the invoice.paid webhook
 * advances it); others roll forward from the anchor while active and not cancelling. Pure.
 */
export function resolveCurrentPeriod(subscription: SubscriptionPeriodState, now: Date): { start: Date; end: Date } {
  const stored = { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd };
  if (now.getTime() < subscription.currentPeriodEnd.getTime()) return stored;
  if (subscription.stripeSubscriptionId || subscription.status !== 'active' || subscription.cancelAtPeriodEnd) return stored;
  const period = periodContaining(subscription.periodAnchorAt, now);
  return { start: period.start, end: period.end };
}

/** The gateway's cheap test: only when this is true does it need ensureCurrentPeriod. */
export function isPeriodOver(subscription: Pick<SubscriptionPeriodState, 'currentPeriodEnd'>, now: Date): boolean {
  return now.getTime() >= subscription.currentPeriodEnd.getTime();
}

async function expireInTransaction(tx: Transaction, subscriptionId: string, now: Date): Promise<Subscription | null> {
  const row = await lockSubscription(tx, subscriptionId);
  if (!row.cancelAtPeriodEnd || !LIVE_STATUSES.includes(row.status) || now.getTime() < row.currentPeriodEnd.getTime()) return null;
  const [updated] = await tx
    .update(subscriptions)
    .set({ status: 'expired', endedAt: row.currentPeriodEnd, updatedAt: now })
    .where(eq(subscriptions.id, row.id))
    .returning();
  await adjustSubscribers(tx, row.kbId, row.status, 'expired');
  await recordAudit(tx, {
    actorKind: 'system',
    action: 'subscription.expire',
    targetType: 'subscription',
    targetId: row.id,
    metadata: { kbId: row.kbId, endedAt: row.currentPeriodEnd.toISOString() },
  });
  return updated ?? null;
}

/**
 * Brings the stored period up to `now`: rolls a non-Stripe subscription forward (new usage row with used 0,
 * idempotent) or expires one cancelled at period end whose period is over. Cheap when nothing is due.
 * Returns the state to use from now on.
 */
export async function ensureCurrentPeriod<S extends SubscriptionPeriodState>(db: Executor, subscription: S, now: Date = new Date()): Promise<S> {
  if (!isPeriodOver(subscription, now)) return subscription;
  if (subscription.cancelAtPeriodEnd && LIVE_STATUSES.includes(subscription.status)) {
    const expired = await inTransaction(db, (tx) => expireInTransaction(tx, subscription.id, now));
    if (expired) return { ...subscription, status: expired.status, currentPeriodStart: expired.currentPeriodStart, currentPeriodEnd: expired.currentPeriodEnd };
    return subscription;
  }
  const period = resolveCurrentPeriod(subscription, now);
  if (period.end.getTime() === subscription.currentPeriodEnd.getTime()) return subscription;
  await inTransaction(db, async (tx) => {
    // Only ever forward, and only while still active and not cancelling: two instances rolling at once agree.
    await tx
      .update(subscriptions)
      .set({ currentPeriodStart: period.start, currentPeriodEnd: period.end, updatedAt: now })
      .where(
        and(
          eq(subscriptions.id, subscription.id),
          eq(subscriptions.status, 'active'),
          eq(subscriptions.cancelAtPeriodEnd, false),
          sql`${subscriptions.currentPeriodEnd} < ${period.end.toISOString()}::timestamptz`,
        ),
      );
    await tx
      .insert(usagePeriods)
      .values({ subscriptionId: subscription.id, periodStart: period.start, periodEnd: period.end, used: 0 })
      .onConflictDoNothing();
  });
  return { ...subscription, currentPeriodStart: period.start, currentPeriodEnd: period.end };
}

/** Cancelled at period end, period over, not yet marked expired: no access, and no longer holding the one live slot. */
export function lapsedCondition(now: Date): SQL {
  return and(
    eq(subscriptions.cancelAtPeriodEnd, true),
    inArray(subscriptions.status, [...LIVE_STATUSES]),
    lte(subscriptions.currentPeriodEnd, now),
  )!;
}

/** Sweep for subscriptions cancelled at period end whose period is over; returns how many expired. */
export async function expireEndedSubscriptions(db: Executor, now: Date = new Date()): Promise<number> {
  const due = await db.select({ id: subscriptions.id }).from(subscriptions).where(lapsedCondition(now));
  let count = 0;
  for (const { id } of due) {
    const expired = await inTransaction(db, (tx) => expireInTransaction(tx, id, now));
    if (expired) count++;
  }
  return count;
}

// ── Stripe-driven changes ──────────────────────────────────────────────────────────────────────────

export type SubscriptionResult = { ok: true; subscription: Subscription } | Denial;

/**
 * invoice.paid: the period Stripe billed becomes current (a new usage row, so the cap resets) and a past_due
 * subscription becomes active again. An older period than the stored one never moves it back.
 */
export async function applyStripePeriod(
  db: Executor,
  input: { subscriptionId: string; periodStart: Date; periodEnd: Date; now?: Date },
): Promise<SubscriptionResult> {
  const now = input.now ?? new Date();
  return deniable(db, async (tx) => {
    const row = await lockSubscription(tx, input.subscriptionId);
    if (ENDED_STATUSES.includes(row.status)) throw new Denied('conflict', 'This subscription has ended.');
    const advance = input.periodStart.getTime() >= row.currentPeriodStart.getTime();
    const [updated] = await tx
      .update(subscriptions)
      .set({
        status: 'active',
        ...(advance ? { currentPeriodStart: input.periodStart, currentPeriodEnd: input.periodEnd } : {}),
        updatedAt: now,
      })
      .where(eq(subscriptions.id, row.id))
      .returning();
    await tx
      .insert(usagePeriods)
      .values({ subscriptionId: row.id, periodStart: input.periodStart, periodEnd: input.periodEnd, used: 0 })
      .onConflictDoNothing();
    await adjustSubscribers(tx, row.kbId, row.status, 'active');
    await recordAudit(tx, {
      actorKind: 'stripe',
      action: 'subscription.period_paid',
      targetType: 'subscription',
      targetId: row.id,
      metadata: { from: row.status, periodStart: input.periodStart.toISOString(), periodEnd: input.periodEnd.toISOString() },
    });
    return { ok: true as const, subscription: updated! };
  });
}

/** invoice.payment_failed: access is suspended (403 forbidden) until a payment succeeds. */
export async function markPastDue(db: Executor, subscriptionId: string, now: Date = new Date()): Promise<SubscriptionResult> {
  return deniable(db, async (tx) => {
    const row = await lockSubscription(tx, subscriptionId);
    if (row.status === 'past_due') return { ok: true as const, subscription: row };
    if (row.status !== 'active') throw new Denied('conflict', `A ${row.status} subscription cannot become past due.`);
    const [updated] = await tx.update(subscriptions).set({ status: 'past_due', updatedAt: now }).where(eq(subscriptions.id, row.id)).returning();
    await adjustSubscribers(tx, row.kbId, row.status, 'past_due');
    await recordAudit(tx, { actorKind: 'stripe', action: 'subscription.past_due', targetType: 'subscription', targetId: row.id, metadata: {} });
    return { ok: true as const, subscription: updated! };
  });
}

/** customer.subscription.deleted (or an operator ending it now): access ends at `at`. Idempotent. */
export async function endSubscription(
  db: Executor,
  input: { subscriptionId: string; at: Date; actorKind?: AuditActorKind },
): Promise<SubscriptionResult> {
  return deniable(db, async (tx) => {
    const row = await lockSubscription(tx, input.subscriptionId);
    if (ENDED_STATUSES.includes(row.status)) return { ok: true as const, subscription: row };
    const [updated] = await tx
      .update(subscriptions)
      .set({ status: 'cancelled', endedAt: input.at, cancelledAt: row.cancelledAt ?? input.at, updatedAt: input.at })
      .where(eq(subscriptions.id, row.id))
      .returning();
    await adjustSubscribers(tx, row.kbId, row.status, 'cancelled');
    await recordAudit(tx, {
      actorKind: input.actorKind ?? 'stripe',
      action: 'subscription.end',
      targetType: 'subscription',
      targetId: row.id,
      metadata: { from: row.status, at: input.at.toISOString() },
    });
    return { ok: true as const, subscription: updated! };
  });
}

// ── Buyer-driven changes ───────────────────────────────────────────────────────────────────────────

/**
 * Another plan of the same knowledge base, effective now: the gateway reads the cap from the plan, and the usage
 * row belongs to the period (not the plan), so queries already used carry over. For Stripe-managed subscriptions
 * the caller changes the Stripe subscription item too.
 */
export async function upgradeSubscription(
  db: Executor,
  input: { userId: string; subscriptionId: string; planId: string; now?: Date; actorKind?: AuditActorKind },
): Promise<SubscriptionResult> {
  const now = input.now ?? new Date();
  return deniable(db, async (tx) => {
    const row = await lockSubscription(tx, input.subscriptionId, input.userId);
    if (row.status !== 'active') throw new Denied('conflict', `A ${row.status} subscription cannot change plan.`);
    if (row.planId === input.planId) throw new Denied('conflict', 'The subscription is already on this plan.');
    const [plan] = await tx.select().from(plans).where(eq(plans.id, input.planId));
    if (!plan || !plan.active || plan.kbId !== row.kbId) throw new Denied('invalid_plan', 'This plan is not offered for this knowledge base.');
    const [updated] = await tx.update(subscriptions).set({ planId: plan.id, updatedAt: now }).where(eq(subscriptions.id, row.id)).returning();
    await recordAudit(tx, {
      actorUserId: input.userId,
      actorKind: input.actorKind ?? 'web',
      action: 'subscription.change_plan',
      targetType: 'subscription',
      targetId: row.id,
      metadata: { fromPlanId: row.planId, toPlanId: plan.id, plan: plan.name },
    });
    return { ok: true as const, subscription: updated! };
  });
}

/** Cancel at period end: access continues until then. Idempotent. */
export async function cancelSubscription(
  db: Executor,
  input: { userId: string; subscriptionId: string; now?: Date; actorKind?: AuditActorKind },
): Promise<SubscriptionResult> {
  const now = input.now ?? new Date();
  return deniable(db, async (tx) => {
    const row = await lockSubscription(tx, input.subscriptionId, input.userId);
    if (!LIVE_STATUSES.includes(row.status)) throw new Denied('conflict', `A ${row.status} subscription cannot be cancelled.`);
    if (row.cancelAtPeriodEnd) return { ok: true as const, subscription: row };
    const [updated] = await tx
      .update(subscriptions)
      .set({ cancelAtPeriodEnd: true, cancelledAt: now, updatedAt: now })
      .where(eq(subscriptions.id, row.id))
      .returning();
    await recordAudit(tx, {
      actorUserId: input.userId,
      actorKind: input.actorKind ?? 'web',
      action: 'subscription.cancel',
      targetType: 'subscription',
      targetId: row.id,
      metadata: { effectiveAt: row.currentPeriodEnd.toISOString() },
    });
    return { ok: true as const, subscription: updated! };
  });
}

/** Undo a cancellation before the period ends. Idempotent; after the end it is too late (`conflict`). */
export async function resumeSubscription(
  db: Executor,
  input: { userId: string; subscriptionId: string; now?: Date; actorKind?: AuditActorKind },
): Promise<SubscriptionResult> {
  const now = input.now ?? new Date();
  return deniable(db, async (tx) => {
    const row = await lockSubscription(tx, input.subscriptionId, input.userId);
    if (!LIVE_STATUSES.includes(row.status)) throw new Denied('conflict', `A ${row.status} subscription cannot be resumed.`);
    if (!row.cancelAtPeriodEnd) return { ok: true as const, subscription: row };
    if (now.getTime() >= row.currentPeriodEnd.getTime()) throw new Denied('conflict', 'The billing period has already ended.');
    const [updated] = await tx
      .update(subscriptions)
      .set({ cancelAtPeriodEnd: false, cancelledAt: null, updatedAt: now })
      .where(eq(subscriptions.id, row.id))
      .returning();
    await recordAudit(tx, {
      actorUserId: input.userId,
      actorKind: input.actorKind ?? 'web',
      action: 'subscription.resume',
      targetType: 'subscription',
      targetId: row.id,
      metadata: {},
    });
    return { ok: true as const, subscription: updated! };
  });
}

// ── Keys ───────────────────────────────────────────────────────────────────────────────────────────

export type IssueKeyResult = { ok: true; key: IssuedKey } | Denial;

/** A new key for the subscription; the old one stays valid until revoked. */
export async function issueReplacementKey(
  db: Executor,
  input: { userId: string; subscriptionId: string; actorKind?: AuditActorKind },
): Promise<IssueKeyResult> {
  return deniable(db, async (tx) => {
    const row = await lockSubscription(tx, input.subscriptionId, input.userId);
    if (ENDED_STATUSES.includes(row.status) || row.status === 'incomplete') {
      throw new Denied('conflict', `A ${row.status} subscription cannot get new keys.`);
    }
    const key = await insertKey(tx, row);
    await recordAudit(tx, {
      actorUserId: input.userId,
      actorKind: input.actorKind ?? 'web',
      action: 'key.issue',
      targetType: 'api_key',
      targetId: key.id,
      metadata: { subscriptionId: row.id, keyPrefix: key.displayPrefix },
    });
    return { ok: true as const, key };
  });
}

export type RevokeKeyResult = { ok: true; key: KeyView } | Denial;

async function revokeKeyInternal(
  db: Executor,
  keyId: string,
  actor: { userId?: string; actorKind: AuditActorKind },
  now: Date,
): Promise<RevokeKeyResult> {
  return deniable(db, async (tx) => {
    const [row] = await tx.select().from(apiKeys).where(eq(apiKeys.id, keyId)).for('update');
    if (!row || (actor.userId !== undefined && row.userId !== actor.userId)) throw new Denied('not_found', 'No such key.');
    if (row.revokedAt) return { ok: true as const, key: toKeyView(row) };
    const [updated] = await tx.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, row.id)).returning();
    await recordAudit(tx, {
      actorUserId: actor.userId ?? null,
      actorKind: actor.actorKind,
      action: 'key.revoke',
      targetType: 'api_key',
      targetId: row.id,
      metadata: { subscriptionId: row.subscriptionId, keyPrefix: row.displayPrefix },
    });
    return { ok: true as const, key: toKeyView(updated!) };
  });
}

/** Idempotent: revoking a revoked key answers ok with the original revocation time. */
export function revokeKey(db: Executor, input: { userId: string; keyId: string; now?: Date; actorKind?: AuditActorKind }): Promise<RevokeKeyResult> {
  return revokeKeyInternal(db, input.keyId, { userId: input.userId, actorKind: input.actorKind ?? 'web' }, input.now ?? new Date());
}

/** The operator CLI: no ownership check (the operator owns the installation). */
export function revokeKeyAsOperator(db: Executor, keyId: string, now: Date = new Date()): Promise<RevokeKeyResult> {
  return revokeKeyInternal(db, keyId, { actorKind: 'cli' }, now);
}

const keyViewColumns = {
  id: apiKeys.id,
  kbId: apiKeys.kbId,
  kbTitle: knowledgeBases.title,
  subscriptionId: apiKeys.subscriptionId,
  mode: apiKeys.mode,
  displayPrefix: apiKeys.displayPrefix,
  last4: apiKeys.last4,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
  createdAt: apiKeys.createdAt,
};

/** Every key of the user, newest first, with its knowledge base's title. */
export async function listKeysForUser(db: Executor, userId: string): Promise<KeyView[]> {
  const rows = await db
    .select(keyViewColumns)
    .from(apiKeys)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, apiKeys.kbId))
    .where(eq(apiKeys.userId, userId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(toKeyView);
}

/** Everything the gateway needs about a presented key, in one query. Never leaves the server. */
export interface GatewayKeyRecord {
  keyId: string;
  keyRevokedAt: Date | null;
  keyLastUsedAt: Date | null;
  kbId: string;
  kbStatus: 'draft' | 'published' | 'suspended' | 'archived';
  subscription: SubscriptionPeriodState & { userId: string; planId: string; mode: KeyMode };
  plan: { id: string; queriesPerPeriod: number; requestsPerMinute: number };
}

export async function findKeyByHash(db: Executor, keyHash: string): Promise<GatewayKeyRecord | null> {
  const [row] = await db
    .select({
      keyId: apiKeys.id,
      keyRevokedAt: apiKeys.revokedAt,
      keyLastUsedAt: apiKeys.lastUsedAt,
      kbId: apiKeys.kbId,
      kbStatus: knowledgeBases.status,
      subscriptionId: subscriptions.id,
      userId: subscriptions.userId,
      planId: subscriptions.planId,
      mode: subscriptions.mode,
      status: subscriptions.status,
      periodAnchorAt: subscriptions.periodAnchorAt,
      currentPeriodStart: subscriptions.currentPeriodStart,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      stripeSubscriptionId: subscriptions.stripeSubscriptionId,
      queriesPerPeriod: plans.queriesPerPeriod,
      requestsPerMinute: plans.requestsPerMinute,
    })
    .from(apiKeys)
    .innerJoin(subscriptions, eq(subscriptions.id, apiKeys.subscriptionId))
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, apiKeys.kbId))
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  if (!row) return null;
  return {
    keyId: row.keyId,
    keyRevokedAt: row.keyRevokedAt,
    keyLastUsedAt: row.keyLastUsedAt,
    kbId: row.kbId,
    kbStatus: row.kbStatus,
    subscription: {
      id: row.subscriptionId,
      kbId: row.kbId,
      userId: row.userId,
      planId: row.planId,
      mode: row.mode,
      status: row.status,
      periodAnchorAt: row.periodAnchorAt,
      currentPeriodStart: row.currentPeriodStart,
      currentPeriodEnd: row.currentPeriodEnd,
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      stripeSubscriptionId: row.stripeSubscriptionId,
    },
    plan: { id: row.planId, queriesPerPeriod: row.queriesPerPeriod, requestsPerMinute: row.requestsPerMinute },
  };
}

// ── Dashboard reads ────────────────────────────────────────────────────────────────────────────────

export interface UsageView {
  used: number;
  cap: number;
  remaining: number;
  /** ISO instant the cap resets (the current period's end). */
  resetsAt: string;
}

export interface SubscriptionView {
  id: string;
  kbId: string;
  kbTitle: string;
  kbSlug: string;
  plan: { id: string; name: string; priceCents: number; currency: string; queriesPerPeriod: number; requestsPerMinute: number };
  /** Effective now: a subscription cancelled at period end whose period is over shows `expired` before the sweep runs. */
  status: SubscriptionStatus;
  mode: KeyMode;
  cancelAtPeriodEnd: boolean;
  /** Paid through Stripe (the Customer Portal manages payment details). */
  stripeManaged: boolean;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  createdAt: string;
  cancelledAt: string | null;
  endedAt: string | null;
  usage: UsageView;
}

const subscriptionViewColumns = {
  sub: subscriptions,
  kbTitle: knowledgeBases.title,
  kbSlug: knowledgeBases.slug,
  plan: {
    id: plans.id,
    name: plans.name,
    priceCents: plans.priceCents,
    currency: plans.currency,
    queriesPerPeriod: plans.queriesPerPeriod,
    requestsPerMinute: plans.requestsPerMinute,
  },
};

type SubscriptionViewRow = { sub: Subscription; kbTitle: string; kbSlug: string; plan: SubscriptionView['plan'] };

/** One row as a view; `usedIn` answers how many queries the usage row of a period start holds (0 without a row). */
function toSubscriptionView(r: SubscriptionViewRow, usedIn: (periodStart: Date) => number, now: Date): SubscriptionView {
  const period = resolveCurrentPeriod(r.sub, now);
  const used = usedIn(period.start);
  const cap = r.plan.queriesPerPeriod;
  const lapsed = r.sub.cancelAtPeriodEnd && LIVE_STATUSES.includes(r.sub.status) && now.getTime() >= r.sub.currentPeriodEnd.getTime();
  return {
    id: r.sub.id,
    kbId: r.sub.kbId,
    kbTitle: r.kbTitle,
    kbSlug: r.kbSlug,
    plan: { ...r.plan },
    status: lapsed ? 'expired' : r.sub.status,
    mode: r.sub.mode,
    cancelAtPeriodEnd: r.sub.cancelAtPeriodEnd,
    stripeManaged: r.sub.stripeSubscriptionId !== null,
    currentPeriodStart: period.start.toISOString(),
    currentPeriodEnd: period.end.toISOString(),
    createdAt: r.sub.createdAt.toISOString(),
    cancelledAt: r.sub.cancelledAt ? r.sub.cancelledAt.toISOString() : null,
    endedAt: r.sub.endedAt ? r.sub.endedAt.toISOString() : lapsed ? r.sub.currentPeriodEnd.toISOString() : null,
    usage: { used, cap, remaining: Math.max(0, cap - used), resetsAt: period.end.toISOString() },
  };
}

async function toSubscriptionViews(db: Executor, rows: SubscriptionViewRow[], now: Date): Promise<SubscriptionView[]> {
  if (rows.length === 0) return [];
  const usageRows = await db
    .select({ subscriptionId: usagePeriods.subscriptionId, periodStart: usagePeriods.periodStart, used: usagePeriods.used })
    .from(usagePeriods)
    .where(
      inArray(
        usagePeriods.subscriptionId,
        rows.map((r) => r.sub.id),
      ),
    );
  const usedBy = new Map(usageRows.map((u) => [`${u.subscriptionId}@${u.periodStart.getTime()}`, u.used]));
  return rows.map((r) => toSubscriptionView(r, (start) => usedBy.get(`${r.sub.id}@${start.getTime()}`) ?? 0, now));
}

/** The user's subscriptions, newest first, with their current period's usage. */
export async function listSubscriptionsForUser(db: Executor, userId: string, now: Date = new Date()): Promise<SubscriptionView[]> {
  const rows = await db
    .select(subscriptionViewColumns)
    .from(subscriptions)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, subscriptions.kbId))
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
  return toSubscriptionViews(db, rows, now);
}

export type SubscriptionViewResult = { ok: true; subscription: SubscriptionView } | Denial;

/** One subscription of the user; someone else's is `not_found`. Pass no userId only from operator tools. */
export async function getSubscriptionForUser(
  db: Executor,
  userId: string | null,
  subscriptionId: string,
  now: Date = new Date(),
): Promise<SubscriptionViewResult> {
  const rows = await db
    .select(subscriptionViewColumns)
    .from(subscriptions)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, subscriptions.kbId))
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(userId === null ? eq(subscriptions.id, subscriptionId) : and(eq(subscriptions.id, subscriptionId), eq(subscriptions.userId, userId)));
  const [view] = await toSubscriptionViews(db, rows, now);
  if (!view) return { ok: false, code: 'not_found', message: 'No such subscription.' };
  return { ok: true, subscription: view };
}

/**
 * The buyer's live subscription to one knowledge base (active, past_due or incomplete: at most one), or null.
 * ONE round trip, because the knowledge-base page asks it for every signed-in visitor: the usage rows from the
 * stored period on come along in the same query. Later rows than the stored period are included on purpose: the
 * gateway may already count into a period it rolled to in memory before the subscription row caught up.
 */
export async function findLiveSubscriptionView(db: Executor, userId: string, kbId: string, now: Date = new Date()): Promise<SubscriptionView | null> {
  const rows = await db
    .select({ ...subscriptionViewColumns, usage: { periodStart: usagePeriods.periodStart, used: usagePeriods.used } })
    .from(subscriptions)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, subscriptions.kbId))
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .leftJoin(usagePeriods, and(eq(usagePeriods.subscriptionId, subscriptions.id), gte(usagePeriods.periodStart, subscriptions.currentPeriodStart)))
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.kbId, kbId), inArray(subscriptions.status, [...HOLDING_STATUSES])));
  const [first] = rows;
  if (!first) return null;
  const usage = rows.flatMap((r) => (r.usage ? [r.usage] : []));
  return toSubscriptionView(first, (start) => usage.find((u) => u.periodStart.getTime() === start.getTime())?.used ?? 0, now);
}

export interface DailyUsage {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  queries: number;
  tokens: number;
}

/** The last `days` UTC days ending today, oldest first, days without queries filled with zeros. */
export async function getDailyUsage(
  db: Executor,
  userId: string | null,
  subscriptionId: string,
  days: number,
  now: Date = new Date(),
): Promise<{ ok: true; days: DailyUsage[] } | Denial> {
  const count = Math.max(1, Math.min(366, Math.floor(days)));
  const [owner] = await db
    .select({ userId: subscriptions.userId })
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  if (!owner || (userId !== null && owner.userId !== userId)) return { ok: false, code: 'not_found', message: 'No such subscription.' };
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const dayList = Array.from({ length: count }, (_, i) => new Date(today - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10));
  const rows = await db
    .select({ day: usageDaily.day, queries: usageDaily.queries, tokens: usageDaily.tokens })
    .from(usageDaily)
    .where(and(eq(usageDaily.subscriptionId, subscriptionId), gte(usageDaily.day, dayList[0]!), lte(usageDaily.day, dayList[count - 1]!)));
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return {
    ok: true,
    days: dayList.map((day) => ({ day, queries: byDay.get(day)?.queries ?? 0, tokens: Number(byDay.get(day)?.tokens ?? 0) })),
  };
}

import { and, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import { knowledgeBases, plans, subscriptions, usageDaily, usagePeriods, type Subscription } from '@/db/schema';
import type { Executor } from '@/lib/platform/db';
import type { Refusal } from '@/lib/platform/transactions';
import { isCleanId } from '@/lib/platform/text-input';
import type { KeyMode } from '@/lib/keys';
import { isLapsed, resolveCurrentPeriod } from './period';
import { planViewColumns, toPlanView, type PlanView } from './plan-view';
import { HOLDING_STATUSES, type SubscriptionStatus } from './status';

/** What the buyer's dashboard and the knowledge-base page show of subscriptions: read-only views, never raw rows. */

export interface UsageView {
  used: number;
  cap: number;
  remaining: number;
  resetsAt: string;
}

export interface SubscriptionView {
  id: string;
  kbId: string;
  kbTitle: string;
  kbSlug: string;
  plan: PlanView;
  /** Effective now: a subscription cancelled at period end whose period is over shows `expired` before the sweep runs. */
  status: SubscriptionStatus;
  mode: KeyMode;
  cancelAtPeriodEnd: boolean;
  /** Next period's plan: a downgrade the buyer scheduled, or the publisher's replacement of changed terms. */
  pendingPlanId: string | null;
  /** Once retired or replaced the plan cannot be chosen again, so a scheduled replacement cannot be withdrawn. */
  planOnSale: boolean;
  /** Whether the knowledge base is for sale: an unpublished or suspended one cannot renew, so there is nothing to resume. */
  listingOnSale: boolean;
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
  plan: planViewColumns,
  planOnSale: plans.active,
  kbStatus: knowledgeBases.status,
};

type SubscriptionViewRow = { sub: Subscription; kbTitle: string; kbSlug: string; plan: SubscriptionView['plan']; planOnSale: boolean; kbStatus: string };

function toSubscriptionView(r: SubscriptionViewRow, usedIn: (periodStart: Date) => number, now: Date): SubscriptionView {
  const period = resolveCurrentPeriod(r.sub, now);
  const used = usedIn(period.start);
  const cap = r.plan.queriesPerPeriod;
  const lapsed = isLapsed(r.sub, now);
  return {
    id: r.sub.id,
    kbId: r.sub.kbId,
    kbTitle: r.kbTitle,
    kbSlug: r.kbSlug,
    plan: toPlanView(r.plan),
    status: lapsed ? 'expired' : r.sub.status,
    mode: r.sub.mode,
    cancelAtPeriodEnd: r.sub.cancelAtPeriodEnd,
    pendingPlanId: r.sub.pendingPlanId,
    planOnSale: r.planOnSale,
    listingOnSale: r.kbStatus === 'published',
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

export type SubscriptionViewResult = { ok: true; subscription: SubscriptionView } | Refusal;

/** One subscription of the user; someone else's is `not_found`. Pass no userId only from operator tools. */
export async function getSubscriptionForUser(
  db: Executor,
  userId: string | null,
  subscriptionId: string,
  now: Date = new Date(),
): Promise<SubscriptionViewResult> {
  if (!isCleanId(subscriptionId)) return { ok: false, code: 'not_found', message: 'No such subscription.' }; // docs/api.md §7.2
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
 * ONE round trip, since the knowledge-base page asks it for every signed-in visitor. Usage rows after the stored period
 * are included on purpose: the gateway may count into a period it rolled to in memory before the row caught up.
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
  day: string;
  queries: number;
  tokens: number;
}

export async function getDailyUsage(
  db: Executor,
  userId: string | null,
  subscriptionId: string,
  days: number,
  now: Date = new Date(),
): Promise<{ ok: true; days: DailyUsage[] } | Refusal> {
  const count = Math.max(1, Math.min(366, Math.floor(days)));
  const [owner] = await db.select({ userId: subscriptions.userId }).from(subscriptions).where(eq(subscriptions.id, subscriptionId));
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

/** The live subscription (one per buyer and knowledge base) when there is one, else the most recent; a lapsed one is not live. */
export async function findBuyerSubscription(db: Executor, userId: string, kbId: string, now: Date = new Date()): Promise<{ id: string; live: boolean } | null> {
  const rows = await db
    .select({
      id: subscriptions.id,
      status: subscriptions.status,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
    })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.kbId, kbId)))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
  const isLive = (r: (typeof rows)[number]) => HOLDING_STATUSES.includes(r.status) && !isLapsed(r, now);
  const chosen = rows.find(isLive) ?? rows[0];
  return chosen ? { id: chosen.id, live: isLive(chosen) } : null;
}

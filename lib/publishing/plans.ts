import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import { plans, subscriptions, type KnowledgeBase, type Plan } from '@/db/schema';
import { enqueueStripePlanMoves, getStripe, type Stripe } from '@/lib/billing';
import { recordAudit } from '@/lib/platform/audit';
import type { Executor } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { newId } from '@/lib/platform/ids';
import { log } from '@/lib/platform/log';
import { inTransaction } from '@/lib/platform/transactions';
import { LIVE_STATUSES, noticePlanTermsChanged, type PlanView } from '@/lib/subscriptions';
import { auditActor, knowledgeBaseFor, type Actor } from './actor';
import { requireOwnedPlan } from './ownership';
import type { FormRefusal } from './profiles';
import { changesTerms, fieldErrors, planSchema, type PlanFields } from './rules';
import type { ListingRefusal } from './listings';

/**
 * Plans in the publisher console (docs/api.md §9.2). New terms never reach a subscriber mid-period: a plan with
 * subscribers is immutable, so an edit becomes a new row, the old one is retired (`replaced_by_plan_id`) and its live
 * subscriptions get the new plan as `pending_plan_id`, applied at their next renewal (Stripe's through a job enqueued
 * in the same transaction). A plan with subscribers is retired, never deleted.
 */

export type PlanResult = { ok: true; plan: Plan; replaced?: { oldPlanId: string; movingSubscriptions: number } } | FormRefusal | ListingRefusal;

export interface ConsolePlan extends PlanView {
  active: boolean;
  replacedByPlanId: string | null;
  subscribers: number;
  /** Live subscriptions moving to this plan at their next renewal. */
  arriving: number;
  hasStripePrice: boolean;
}

export async function listPlansForConsole(db: Executor, kbId: string): Promise<ConsolePlan[]> {
  const rows = await db
    .select()
    .from(plans)
    .where(eq(plans.kbId, kbId))
    .orderBy(sql`${plans.active} desc`, asc(plans.sortOrder), asc(plans.priceCents), asc(plans.createdAt));
  const live = await db
    .select({ planId: subscriptions.planId, pendingPlanId: subscriptions.pendingPlanId })
    .from(subscriptions)
    .where(and(eq(subscriptions.kbId, kbId), inArray(subscriptions.status, [...LIVE_STATUSES])));
  return rows.map((p) => ({
    id: p.id,
    name: p.name,
    priceCents: p.priceCents,
    currency: p.currency,
    queriesPerPeriod: p.queriesPerPeriod,
    requestsPerMinute: p.requestsPerMinute,
    active: p.active,
    replacedByPlanId: p.replacedByPlanId,
    subscribers: live.filter((s) => s.planId === p.id).length,
    arriving: live.filter((s) => s.pendingPlanId === p.id && s.planId !== p.id).length,
    hasStripePrice: p.stripePriceId !== null,
  }));
}

function parsePlan(input: Record<string, unknown>): { ok: true; value: PlanFields } | FormRefusal {
  const parsed = planSchema(getEnv().FREE_PLAN_MAX_QUERIES).safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, code: 'invalid_input', fieldErrors: fieldErrors(parsed.error) };
}

/** Created before the row that names it, with the plan id as the idempotency key, so a retried form makes one price. */
async function createStripePrice(stripe: Stripe | null, kb: KnowledgeBase, planId: string, value: PlanFields): Promise<string | null> {
  if (!stripe || value.priceCents === 0) return null;
  const price = await stripe.prices.create(
    {
      currency: value.currency,
      unit_amount: value.priceCents,
      recurring: { interval: 'month' },
      product_data: { name: `${kb.title} — ${value.name}`, metadata: { kbId: kb.id, planId } },
      metadata: { kbId: kb.id, planId },
    },
    { idempotencyKey: `almanac-price-${planId}` },
  );
  return price.id;
}

async function nextSortOrder(tx: Executor, kbId: string): Promise<number> {
  const [row] = await tx
    .select({ max: sql<number>`coalesce(max(${plans.sortOrder}), -1)::int` })
    .from(plans)
    .where(eq(plans.kbId, kbId));
  return Number(row?.max ?? -1) + 1;
}

/** Those moving to the plan hold its terms too, and Stripe already bills them at its price. */
async function liveSubscribers(tx: Executor, planId: string): Promise<{ n: number; billedByStripe: number; live: number }> {
  const [row] = await tx
    .select({
      n: count(),
      billedByStripe: count(subscriptions.stripeSubscriptionId),
      live: sql<number>`count(*) filter (where ${subscriptions.mode} = 'live')`,
    })
    .from(subscriptions)
    .where(and(sql`(${subscriptions.planId} = ${planId} or ${subscriptions.pendingPlanId} = ${planId})`, inArray(subscriptions.status, [...LIVE_STATUSES])));
  return { n: Number(row?.n ?? 0), billedByStripe: Number(row?.billedByStripe ?? 0), live: Number(row?.live ?? 0) };
}

/**
 * New terms the subscribers could not be billed for: Stripe cannot change a subscription's currency, and a free plan's
 * subscribers gave no card, so moving them onto a paid plan would give them its terms unpaid.
 */
function unbillableChange(before: Plan, after: PlanFields, live: { billedByStripe: number; live: number }): ListingRefusal | null {
  if (live.billedByStripe > 0 && after.currency !== before.currency) return STRIPE_CURRENCY_REFUSAL;
  if (live.live > 0 && before.priceCents === 0 && after.priceCents > 0) return FREE_TO_PAID_REFUSAL;
  return null;
}

const STRIPE_UNAVAILABLE: ListingRefusal = {
  ok: false,
  code: 'conflict',
  reason: 'stripe_unavailable',
  message: 'Stripe could not be reached to create the price; nothing was changed. Please try again.',
};

type PlanWrite = (db: Executor, actor: Actor, id: string, input: Record<string, unknown>, stripe?: Stripe | null) => Promise<PlanResult>;

export const createPlan: PlanWrite = async (db, actor, kbId, input, stripe = getStripe()) => {
  const parsed = parsePlan(input);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  const owned = await knowledgeBaseFor(db, actor, kbId);
  if (!owned.ok) return { ok: false, code: 'not_found', message: 'Not found.' };
  const id = newId('plan');
  let stripePriceId: string | null;
  try {
    stripePriceId = await createStripePrice(stripe, owned.kb, id, value);
  } catch (error) {
    log.error({ err: error, kbId: owned.kb.id }, 'could not create a Stripe price for a new plan');
    return STRIPE_UNAVAILABLE;
  }
  return inTransaction(db, async (tx) => {
    const [plan] = await tx
      .insert(plans)
      .values({ id, kbId: owned.kb.id, ...value, stripePriceId, sortOrder: await nextSortOrder(tx, owned.kb.id) })
      .returning();
    await recordAudit(tx, {
      ...auditActor(actor),
      action: 'plan.create',
      targetType: 'plan',
      targetId: id,
      metadata: { kbId: owned.kb.id, priceCents: value.priceCents, currency: value.currency, queriesPerPeriod: value.queriesPerPeriod },
    });
    return { ok: true, plan: plan! };
  });
};

export async function planFor(db: Executor, actor: Actor, planId: string): Promise<{ ok: true; plan: Plan; kb: KnowledgeBase } | ListingRefusal> {
  if (actor.kind === 'publisher') {
    const owned = await requireOwnedPlan(db, actor.userId, planId);
    return owned.ok ? { ok: true, plan: owned.plan, kb: owned.kb } : { ok: false, code: 'not_found', message: 'Not found.' };
  }
  const [plan] = typeof planId === 'string' && planId.length <= 64 ? await db.select().from(plans).where(eq(plans.id, planId)) : [];
  if (!plan) return { ok: false, code: 'not_found', message: 'Not found.' };
  const owned = await knowledgeBaseFor(db, actor, plan.kbId);
  return owned.ok ? { ok: true, plan, kb: owned.kb } : { ok: false, code: 'not_found', message: 'Not found.' };
}

const STRIPE_CURRENCY_REFUSAL: ListingRefusal = {
  ok: false,
  code: 'conflict',
  message:
    'Subscribers pay for this plan through Stripe, which cannot change the currency of a subscription: create a plan in the new currency and retire this one instead.',
};
const FREE_TO_PAID_REFUSAL: ListingRefusal = {
  ok: false,
  code: 'conflict',
  message:
    'This free plan has subscribers who gave no card, so nobody could charge them a price: create a paid plan and retire this one instead (its subscribers keep it).',
};

/** A rename, or a plan without live subscribers, changes in place; new terms for subscribers make a replacement row. */
export const editPlan: PlanWrite = async (db, actor, planId, input, stripe = getStripe()) => {
  const parsed = parsePlan(input);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  const found = await planFor(db, actor, planId);
  if (!found.ok) return found;
  if (!found.plan.active) return { ok: false, code: 'conflict', message: 'A retired plan cannot be edited.' };
  const termsChange = changesTerms(found.plan, value);
  // Checked again under the lock below; here so that no Stripe price is created for an edit that will be refused.
  const refusal = termsChange ? unbillableChange(found.plan, value, await liveSubscribers(db, found.plan.id)) : null;
  if (refusal) return refusal;
  const replacementId = newId('plan');
  // A new price is needed when the amount or currency changes (Stripe prices are immutable).
  const needsPrice =
    value.priceCents > 0 && (found.plan.stripePriceId === null || found.plan.priceCents !== value.priceCents || found.plan.currency !== value.currency);
  let stripePriceId = value.priceCents === 0 ? null : found.plan.stripePriceId;
  if (needsPrice) {
    try {
      stripePriceId = (await createStripePrice(stripe, found.kb, replacementId, value)) ?? null;
    } catch (error) {
      log.error({ err: error, planId: found.plan.id }, 'could not create a Stripe price for an edited plan');
      return STRIPE_UNAVAILABLE;
    }
  }
  return inTransaction(db, async (tx) => {
    const [locked] = await tx.select().from(plans).where(eq(plans.id, found.plan.id)).for('update');
    if (!locked?.active) return { ok: false as const, code: 'conflict' as const, message: 'A retired plan cannot be edited.' };
    const now = new Date();
    const live = termsChange ? await liveSubscribers(tx, locked.id) : { n: 0, billedByStripe: 0, live: 0 };
    const lockedRefusal = unbillableChange(locked, value, live);
    if (lockedRefusal) return lockedRefusal;
    if (live.n === 0) {
      const [plan] = await tx
        .update(plans)
        .set({ ...value, stripePriceId, updatedAt: now })
        .where(eq(plans.id, locked.id))
        .returning();
      await recordAudit(tx, {
        ...auditActor(actor),
        action: 'plan.update',
        targetType: 'plan',
        targetId: locked.id,
        metadata: { kbId: locked.kbId, ...value },
      });
      return { ok: true as const, plan: plan! };
    }
    const [plan] = await tx
      .insert(plans)
      .values({ id: replacementId, kbId: locked.kbId, ...value, stripePriceId, sortOrder: locked.sortOrder })
      .returning();
    await tx.update(plans).set({ active: false, retiredAt: now, replacedByPlanId: replacementId, updatedAt: now }).where(eq(plans.id, locked.id));
    const moving = await tx
      .update(subscriptions)
      .set({ pendingPlanId: replacementId, updatedAt: now })
      .where(
        and(
          inArray(subscriptions.status, [...LIVE_STATUSES]),
          sql`(${subscriptions.planId} = ${locked.id} and ${subscriptions.pendingPlanId} is null) or ${subscriptions.pendingPlanId} = ${locked.id}`,
        ),
      )
      .returning({ id: subscriptions.id, stripeSubscriptionId: subscriptions.stripeSubscriptionId });
    await enqueueStripePlanMoves(tx, { planId: replacementId, subscriptions: moving });
    await noticePlanTermsChanged(
      tx,
      moving.map((s) => s.id),
      { before: locked, after: plan! },
    );
    await recordAudit(tx, {
      ...auditActor(actor),
      action: 'plan.replace',
      targetType: 'plan',
      targetId: locked.id,
      metadata: { kbId: locked.kbId, replacementId, movingSubscriptions: moving.length, ...value },
    });
    return { ok: true as const, plan: plan!, replaced: { oldPlanId: locked.id, movingSubscriptions: moving.length } };
  });
};

const LAST_PLAN_REFUSAL: ListingRefusal = {
  ok: false,
  code: 'conflict',
  reason: 'last_plan',
  message: 'This is the last plan of a published listing: add another plan or unpublish the listing first.',
};

async function isLastActivePlan(tx: Executor, plan: Pick<Plan, 'id' | 'kbId'>): Promise<boolean> {
  const [others] = await tx
    .select({ n: count() })
    .from(plans)
    .where(and(eq(plans.kbId, plan.kbId), eq(plans.active, true), ne(plans.id, plan.id)));
  return Number(others?.n ?? 0) === 0;
}

/** The last active plan of a published listing cannot be retired: it would be for sale with nothing to buy. */
export async function retirePlan(db: Executor, actor: Actor, planId: string): Promise<PlanResult> {
  const found = await planFor(db, actor, planId);
  if (!found.ok) return found;
  return inTransaction(db, async (tx) => {
    const [locked] = await tx.select().from(plans).where(eq(plans.id, found.plan.id)).for('update');
    if (!locked) return { ok: false as const, code: 'not_found' as const, message: 'Not found.' };
    if (!locked.active) return { ok: true as const, plan: locked };
    if (found.kb.status === 'published' && (await isLastActivePlan(tx, locked))) return LAST_PLAN_REFUSAL;
    const now = new Date();
    const [plan] = await tx.update(plans).set({ active: false, retiredAt: now, updatedAt: now }).where(eq(plans.id, locked.id)).returning();
    await recordAudit(tx, { ...auditActor(actor), action: 'plan.retire', targetType: 'plan', targetId: locked.id, metadata: { kbId: locked.kbId } });
    return { ok: true as const, plan: plan! };
  });
}

export async function deletePlan(db: Executor, actor: Actor, planId: string): Promise<{ ok: true } | ListingRefusal> {
  const found = await planFor(db, actor, planId);
  if (!found.ok) return found;
  return inTransaction(db, async (tx) => {
    const [used] = await tx
      .select({ n: count() })
      .from(subscriptions)
      .where(sql`${subscriptions.planId} = ${found.plan.id} or ${subscriptions.pendingPlanId} = ${found.plan.id}`);
    if (Number(used?.n ?? 0) > 0)
      return {
        ok: false as const,
        code: 'conflict' as const,
        reason: 'has_subscribers' as const,
        message: 'This plan has subscribers: retire it instead (no new purchases; its subscribers keep it).',
      };
    if (found.kb.status === 'published' && found.plan.active && (await isLastActivePlan(tx, found.plan))) return LAST_PLAN_REFUSAL;
    await tx.update(plans).set({ replacedByPlanId: null }).where(eq(plans.replacedByPlanId, found.plan.id));
    await tx.delete(plans).where(eq(plans.id, found.plan.id));
    await recordAudit(tx, {
      ...auditActor(actor),
      action: 'plan.delete',
      targetType: 'plan',
      targetId: found.plan.id,
      metadata: { kbId: found.plan.kbId, name: found.plan.name },
    });
    return { ok: true as const };
  });
}

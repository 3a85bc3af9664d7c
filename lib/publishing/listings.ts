import { and, asc, count, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { knowledgeBases, plans, publishers, subscriptions, type KnowledgeBase } from '@/db/schema';
import { getStripe } from '@/lib/billing';
import { recordAudit } from '@/lib/platform/audit';
import type { Executor } from '@/lib/platform/db';
import { newId } from '@/lib/platform/ids';
import { log } from '@/lib/platform/log';
import { inTransaction, type Refusal } from '@/lib/platform/transactions';
import { LIVE_STATUSES, noticeListingWithdrawn } from '@/lib/subscriptions';
import { auditActor, knowledgeBaseFor, type Actor } from './actor';
import { slugify } from './knowledge-bases';
import { findPublisherForUser } from './ownership';
import type { FormRefusal } from './profiles';
import { fieldErrors, listingSchema, newListingSchema, publisherTransition, type ListingStatus } from './rules';

/**
 * Listings in the publisher console (docs/api.md §9.1): create a draft, edit its text, publish (needs an active
 * plan), unpublish (no new purchases; subscribers keep access to the end of their period, which then ends).
 */

export type ListingRefusal = Refusal<'not_found' | 'conflict'> & {
  reason?: 'needs_plan' | 'needs_backend' | 'stripe_unavailable' | 'last_plan' | 'has_subscribers';
};
export type ListingResult = { ok: true; kb: KnowledgeBase } | FormRefusal | ListingRefusal;

const NOT_FOUND: ListingRefusal = { ok: false, code: 'not_found', message: 'Not found.' };

export interface ConsoleListing {
  id: string;
  title: string;
  summary: string;
  status: ListingStatus;
  backendKind: 'hosted' | 'http';
  subscribersCount: number;
  activePlans: number;
  documentsCount: number;
  updatedAt: string;
}

export async function listPublisherListings(db: Executor, publisherId: string): Promise<ConsoleListing[]> {
  const rows = await db
    .select({
      id: knowledgeBases.id,
      title: knowledgeBases.title,
      summary: knowledgeBases.summary,
      status: knowledgeBases.status,
      backendKind: knowledgeBases.backendKind,
      subscribersCount: knowledgeBases.subscribersCount,
      documentsCount: knowledgeBases.documentsCount,
      updatedAt: knowledgeBases.updatedAt,
      activePlans: sql<number>`(select count(*)::int from plans p where p.kb_id = knowledge_bases.id and p.active)`,
    })
    .from(knowledgeBases)
    .where(eq(knowledgeBases.publisherId, publisherId))
    .orderBy(desc(knowledgeBases.updatedAt), asc(knowledgeBases.id));
  return rows.map((r) => ({ ...r, activePlans: Number(r.activePlans), updatedAt: r.updatedAt.toISOString() }));
}

async function freeKbSlug(tx: Executor, publisherId: string, base: string): Promise<string> {
  const taken = new Set(
    (
      await tx
        .select({ slug: knowledgeBases.slug })
        .from(knowledgeBases)
        .where(and(eq(knowledgeBases.publisherId, publisherId), sql`${knowledgeBases.slug} like ${`${base}%`}`))
    ).map((r) => r.slug),
  );
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** A new draft; the operator (CLI) names the publisher by id. The backend kind is chosen here, once. */
export async function createListing(db: Executor, actor: Actor, input: Record<string, unknown> & { publisherId?: string }): Promise<ListingResult> {
  const parsed = newListingSchema.safeParse(input);
  if (!parsed.success) return { ok: false, code: 'invalid_input', fieldErrors: fieldErrors(parsed.error) };
  const value = parsed.data;
  return inTransaction(db, async (tx) => {
    const publisher =
      actor.kind === 'publisher'
        ? await findPublisherForUser(tx, actor.userId)
        : input.publisherId
          ? ((await tx.select().from(publishers).where(eq(publishers.id, input.publisherId)))[0] ?? null)
          : null;
    if (!publisher) return { ok: false, code: 'not_found', message: 'Create your publisher profile first.' };
    if (publisher.suspendedAt) return { ok: false, code: 'conflict', message: 'This publisher is suspended by the operator.' };
    const id = newId('kb');
    const [kb] = await tx
      .insert(knowledgeBases)
      .values({
        id,
        publisherId: publisher.id,
        slug: await freeKbSlug(tx, publisher.id, slugify(value.title)),
        title: value.title,
        summary: value.summary,
        description: value.description,
        category: value.category,
        tags: value.tags,
        language: value.language,
        licence: value.licence,
        sampleQuestions: value.sampleQuestions,
        previewsEnabled: value.previewsEnabled ?? true,
        status: 'draft',
        backendKind: value.backendKind,
      })
      .returning();
    if (value.backendKind === 'hosted') await tx.execute(sql`insert into kb_index_stats (kb_id) values (${id}) on conflict do nothing`);
    await recordAudit(tx, {
      ...auditActor(actor),
      action: 'kb.create',
      targetType: 'knowledge_base',
      targetId: id,
      metadata: { publisherId: publisher.id, backendKind: value.backendKind },
    });
    return { ok: true, kb: kb! };
  });
}

export async function updateListing(db: Executor, actor: Actor, kbId: string, input: Record<string, unknown>): Promise<ListingResult> {
  const parsed = listingSchema.safeParse(input);
  if (!parsed.success) return { ok: false, code: 'invalid_input', fieldErrors: fieldErrors(parsed.error) };
  const value = parsed.data;
  return inTransaction(db, async (tx) => {
    const owned = await knowledgeBaseFor(tx, actor, kbId, true);
    if (!owned.ok) return NOT_FOUND;
    const [kb] = await tx
      .update(knowledgeBases)
      .set({ ...value, updatedAt: new Date() })
      .where(eq(knowledgeBases.id, owned.kb.id))
      .returning();
    await recordAudit(tx, {
      ...auditActor(actor),
      action: 'kb.update',
      targetType: 'knowledge_base',
      targetId: owned.kb.id,
      metadata: { fields: Object.keys(value) },
    });
    return { ok: true, kb: kb! };
  });
}

/**
 * Needs an active plan, a connected endpoint for an http backend and a publisher in good standing. Republishing resumes
 * the renewals unpublishing stopped (`cancelledByUnpublish`); a renewal the buyer cancelled stays cancelled.
 */
export async function publishListing(
  db: Executor,
  actor: Actor,
  kbId: string,
  now: Date = new Date(),
): Promise<ListingResult & { resumedSubscriptions?: number }> {
  const result = await inTransaction(db, async (tx) => {
    const owned = await knowledgeBaseFor(tx, actor, kbId, true);
    if (!owned.ok) return NOT_FOUND;
    const step = publisherTransition(owned.kb.status, 'publish');
    if (!step.ok) return { ok: false as const, code: 'conflict' as const, message: step.message };
    if (owned.publisher.suspendedAt) return { ok: false as const, code: 'conflict' as const, message: 'This publisher is suspended by the operator.' };
    const [{ value: activePlans }] = (await tx
      .select({ value: count() })
      .from(plans)
      .where(and(eq(plans.kbId, owned.kb.id), eq(plans.active, true)))) as [{ value: number }];
    if (activePlans === 0)
      return {
        ok: false as const,
        code: 'conflict' as const,
        reason: 'needs_plan' as const,
        message: 'Add at least one plan before publishing: buyers need something to buy.',
      };
    // Every query would be a 502: an own-endpoint listing is sold only once its endpoint and secrets are set.
    if (owned.kb.backendKind === 'http' && (!owned.kb.endpointUrl || !owned.kb.infraKeyEncrypted || !owned.kb.signingSecretEncrypted)) {
      return {
        ok: false as const,
        code: 'conflict' as const,
        reason: 'needs_backend' as const,
        message: 'Connect your endpoint (Content tab) before publishing: without it every query would fail.',
      };
    }
    const [kb] = await tx.update(knowledgeBases).set({ status: 'published', updatedAt: now }).where(eq(knowledgeBases.id, owned.kb.id)).returning();
    const resumed = await tx
      .update(subscriptions)
      .set({ cancelAtPeriodEnd: false, cancelledAt: null, cancelledByUnpublish: false, updatedAt: now })
      .where(
        and(
          eq(subscriptions.kbId, owned.kb.id),
          eq(subscriptions.cancelledByUnpublish, true),
          eq(subscriptions.cancelAtPeriodEnd, true),
          inArray(subscriptions.status, [...LIVE_STATUSES]),
          gt(subscriptions.currentPeriodEnd, now),
        ),
      )
      .returning({ id: subscriptions.id, stripeSubscriptionId: subscriptions.stripeSubscriptionId });
    await recordAudit(tx, {
      ...auditActor(actor),
      action: 'kb.publish',
      targetType: 'knowledge_base',
      targetId: owned.kb.id,
      metadata: { from: owned.kb.status, resumedSubscriptions: resumed.length },
    });
    return { ok: true as const, kb: kb!, resumed };
  });
  if (!result.ok) return result;
  await setRenewalAtStripe(result.resumed, true, now);
  return { ok: true, kb: result.kb, resumedSubscriptions: result.resumed.length };
}

/** Existing subscriptions keep answering until their period ends and are set to end then, here and at Stripe. */
export async function unpublishListing(
  db: Executor,
  actor: Actor,
  kbId: string,
  now: Date = new Date(),
): Promise<ListingResult & { endingSubscriptions?: number }> {
  const result = await inTransaction(db, async (tx) => {
    const owned = await knowledgeBaseFor(tx, actor, kbId, true);
    if (!owned.ok) return NOT_FOUND;
    const step = publisherTransition(owned.kb.status, 'unpublish');
    if (!step.ok) return { ok: false as const, code: 'conflict' as const, message: step.message };
    const [kb] = await tx.update(knowledgeBases).set({ status: 'unpublished', updatedAt: now }).where(eq(knowledgeBases.id, owned.kb.id)).returning();
    const ending = await tx
      .update(subscriptions)
      .set({
        cancelAtPeriodEnd: true,
        cancelledAt: sql`coalesce(${subscriptions.cancelledAt}, ${now.toISOString()}::timestamptz)`,
        cancelledByUnpublish: true,
        updatedAt: now,
      })
      .where(and(eq(subscriptions.kbId, owned.kb.id), inArray(subscriptions.status, [...LIVE_STATUSES]), eq(subscriptions.cancelAtPeriodEnd, false)))
      .returning({ id: subscriptions.id, stripeSubscriptionId: subscriptions.stripeSubscriptionId });
    await noticeListingWithdrawn(
      tx,
      ending.map((s) => s.id),
    );
    await recordAudit(tx, {
      ...auditActor(actor),
      action: 'kb.unpublish',
      targetType: 'knowledge_base',
      targetId: owned.kb.id,
      metadata: { endingSubscriptions: ending.length },
    });
    return { ok: true as const, kb: kb!, ending };
  });
  if (!result.ok) return result;
  await setRenewalAtStripe(result.ending, false, now);
  return { ok: true, kb: result.kb, endingSubscriptions: result.ending.length };
}

/** Only a draft, which was never for sale, so nothing buyer-facing refers to it; a listing ever published is unpublished. */
export async function deleteDraftListing(db: Executor, actor: Actor, kbId: string): Promise<{ ok: true; title: string } | ListingRefusal> {
  return inTransaction(db, async (tx) => {
    const owned = await knowledgeBaseFor(tx, actor, kbId, true);
    if (!owned.ok) return NOT_FOUND;
    if (owned.kb.status !== 'draft')
      return { ok: false as const, code: 'conflict' as const, message: 'Only a draft can be deleted; unpublish a listing that was for sale.' };
    // Rows keyed by the knowledge base without a foreign key (the console's "Try it" statistics) go with it.
    await tx.execute(sql`delete from kb_stats_daily where kb_id = ${owned.kb.id}`);
    await tx.delete(knowledgeBases).where(eq(knowledgeBases.id, owned.kb.id));
    await recordAudit(tx, {
      ...auditActor(actor),
      action: 'kb.delete',
      targetType: 'knowledge_base',
      targetId: owned.kb.id,
      metadata: { title: owned.kb.title },
    });
    return { ok: true as const, title: owned.kb.title };
  });
}

/** Best effort, logged. The idempotency key names the change by its instant: a later unpublish is a new request. */
async function setRenewalAtStripe(changed: { id: string; stripeSubscriptionId: string | null }[], renew: boolean, at: Date): Promise<void> {
  const stripe = getStripe();
  if (!stripe) return;
  for (const { id, stripeSubscriptionId } of changed) {
    if (!stripeSubscriptionId) continue;
    try {
      await stripe.subscriptions.update(
        stripeSubscriptionId,
        { cancel_at_period_end: !renew },
        { idempotencyKey: `almanac-${renew ? 'republish' : 'unpublish'}-${id}-${at.getTime()}` },
      );
    } catch (error) {
      log.error({ err: error, stripeSubscriptionId }, `could not set cancel_at_period_end at Stripe for ${renew ? 'a republished' : 'an unpublished'} listing`);
    }
  }
}

import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, catalogSearch, knowledgeBases, mailOutbox, plans, subscriptions, users } from '@/db/schema';
import type { Database } from '@/db/client';
import { getPublisher } from '@/lib/catalog';
import { findPurchasablePlan, getCheckoutOutcome, startCheckout, type Stripe } from '@/lib/billing';
import {
  createListing,
  createPlan,
  createPublisherProfile,
  deleteDraftListing,
  deletePlan,
  editPlan,
  listPlansForConsole,
  publishListing,
  restoreListing,
  restorePublisher,
  retirePlan,
  suspendListing,
  suspendPublisher,
  unpublishListing,
  updateListing,
  updatePublisherProfile,
  type Actor,
} from '@/lib/publishing';
import { cancelSubscription, ensureCurrentPeriod, getSubscriptionForUser, purchaseSubscription, resumeSubscription } from '@/lib/subscriptions';
import { createTestDatabase, firstRow } from '../support/db';
import { createUser } from './subscriptions-fixtures';

/**
 * The publisher console's rules against a real database (docs/api.md §9): one profile per account, listing states,
 * plan edits that reach subscribers only at renewal, free-plan caps, and the operator's suspensions.
 */

let db: Database;
beforeAll(async () => {
  db = (await createTestDatabase()).db;
});

const listing = {
  title: 'Wetland field guide',
  summary: 'Field methods for surveying wetland plants and birds.',
  description: '# Methods\n\nTransects, *quadrats* and <script>alert(1)</script> point counts.',
  category: 'research',
  tags: ' Ecology, field  methods, ecology ',
  language: 'en',
  licence: 'CC BY 4.0',
  sampleQuestions: 'How long is a transect?\n\nHow long is a transect?\nWhen do counts start?',
  backendKind: 'hosted',
};
const plan = (overrides: Record<string, unknown> = {}) => ({
  name: 'Starter',
  price: '19',
  currency: 'usd',
  queriesPerPeriod: '100',
  requestsPerMinute: '60',
  ...overrides,
});
const operator: Actor = { kind: 'operator', userId: null, via: 'cli' };

let n = 0;
async function newPublisher(): Promise<{ userId: string; actor: Actor & { kind: 'publisher' }; publisherId: string }> {
  const userId = await createUser(db);
  const result = await createPublisherProfile(db, userId, {
    name: 'Marsh Press',
    slug: `marsh-press-${++n}-${userId.slice(-5).toLowerCase()}`,
    websiteUrl: '',
    bio: 'Wetland people.',
    contactEmail: 'Ops@Marsh.example',
  });
  if (!result.ok) throw new Error(JSON.stringify(result));
  return { userId, actor: { kind: 'publisher', userId }, publisherId: result.publisher.id };
}

async function draft(actor: Actor) {
  const result = await createListing(db, actor, listing);
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.kb;
}

async function okPlan(actor: Actor, kbId: string, overrides: Record<string, unknown> = {}) {
  const result = await createPlan(db, actor, kbId, plan(overrides), null);
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.plan;
}

/** The subscription notices (lib/subscriptions/notices.ts) in the outbox for a user's address. */
async function noticesTo(userId: string) {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, user!.email), eq(mailOutbox.kind, 'subscription_notice')));
}

describe('publisher profile', () => {
  it('one per account, with a free slug; the contact email is stored lower-case', async () => {
    const { userId, publisherId } = await newPublisher();
    const again = await createPublisherProfile(db, userId, { name: 'Second', slug: 'second-profile', websiteUrl: '', bio: '', contactEmail: 'a@b.example' });
    expect(again).toMatchObject({ ok: false, code: 'conflict' });
    const other = await createUser(db);
    const [mine] = await db
      .execute(sql`select slug, contact_email from publishers where id = ${publisherId}`)
      .then((r) => r.rows as Array<{ slug: string; contact_email: string }>);
    expect(mine!.contact_email).toBe('ops@marsh.example');
    expect(await createPublisherProfile(db, other, { name: 'Copycat', slug: mine!.slug, websiteUrl: '', bio: '', contactEmail: 'c@d.example' })).toMatchObject({
      ok: false,
      code: 'invalid_input',
      fieldErrors: { slug: expect.stringContaining('Another publisher') },
    });
  });

  it.each([
    [{ name: 'A', slug: 'ok-slug', websiteUrl: '', bio: '', contactEmail: 'a@b.example' }, 'name', 'at least 2'],
    [{ name: 'Fine', slug: 'Bad Slug!', websiteUrl: '', bio: '', contactEmail: 'a@b.example' }, 'slug', 'lower-case'],
    [{ name: 'Fine', slug: 'fine', websiteUrl: 'javascript:alert(1)', bio: '', contactEmail: 'a@b.example' }, 'websiteUrl', 'https://'],
    [{ name: 'Fine', slug: 'fine', websiteUrl: '', bio: 'bell\u0007', contactEmail: 'a@b.example' }, 'bio', 'control characters'],
    [{ name: 'Fine', slug: 'fine', websiteUrl: '', bio: '', contactEmail: 'not-an-email' }, 'contactEmail', 'email address'],
    [{ name: 'Fi\u0000ne', slug: 'fine', websiteUrl: '', bio: '', contactEmail: 'a@b.example' }, 'name', 'control characters'],
  ])('refuses %o with a message on %s', async (input, field, words) => {
    const result = await createPublisherProfile(db, await createUser(db), input);
    expect(result).toMatchObject({ ok: false, code: 'invalid_input' });
    expect((result as { fieldErrors: Record<string, string> }).fieldErrors[field]).toContain(words);
  });

  it('edits the profile; an account without one gets not_found', async () => {
    const { userId } = await newPublisher();
    const edited = await updatePublisherProfile(db, userId, {
      name: 'Marsh Press Ltd',
      slug: `marsh-ltd-${userId.slice(-6).toLowerCase()}`,
      websiteUrl: 'https://marsh.example',
      bio: 'New bio',
      contactEmail: 'x@marsh.example',
    });
    expect(edited).toMatchObject({ ok: true, publisher: { name: 'Marsh Press Ltd', websiteUrl: 'https://marsh.example', description: 'New bio' } });
    expect(
      await updatePublisherProfile(db, await createUser(db), { name: 'X Y', slug: 'x-y', websiteUrl: '', bio: '', contactEmail: 'a@b.example' }),
    ).toMatchObject({ ok: false, code: 'not_found' });
  });
});

describe('listings', () => {
  it('a draft normalises tags and sample questions, keeps Markdown as written, and is not in the catalogue', async () => {
    const { actor } = await newPublisher();
    const kb = await draft(actor);
    expect(kb).toMatchObject({
      status: 'draft',
      backendKind: 'hosted',
      tags: ['ecology', 'field-methods'],
      sampleQuestions: ['How long is a transect?', 'When do counts start?'],
    });
    expect(kb.description).toContain('<script>'); // stored as written; rendered without raw HTML (components/publish/markdown.tsx)
    expect(await findPurchasablePlan(db, (await okPlan(actor, kb.id)).id)).toBeNull();
  });

  it.each([
    ['title', { title: 'ab' }, 'at least 3'],
    ['summary', { summary: 'short' }, 'at least 10'],
    ['category', { category: 'astrology' }, 'Choose a category'],
    ['tags', { tags: 'a,b,c,d,e,f,g,h,i' }, 'at most 8'],
    ['tags', { tags: 'x'.repeat(33) }, 'longer than 32'],
    ['tags', { tags: 'c++' }, 'letters, digits and hyphens'],
    ['language', { language: 'english' }, 'language code'],
    ['sampleQuestions', { sampleQuestions: 'one\u0001' }, 'control characters'],
    ['backendKind', { backendKind: 'ftp' }, 'where the answers come from'],
  ])('refuses a bad %s with a clear message', async (field, change, words) => {
    const { actor } = await newPublisher();
    const result = await createListing(db, actor, { ...listing, ...change });
    expect(result).toMatchObject({ ok: false, code: 'invalid_input' });
    expect((result as { fieldErrors: Record<string, string> }).fieldErrors[field]).toContain(words);
  });

  it('draft → published (needs an active plan) ⇄ unpublished; only published is listed and purchasable', async () => {
    const { actor } = await newPublisher();
    const kb = await draft(actor);
    expect(await publishListing(db, actor, kb.id)).toMatchObject({ ok: false, code: 'conflict', reason: 'needs_plan' });
    const starter = await okPlan(actor, kb.id);
    expect(await publishListing(db, actor, kb.id)).toMatchObject({ ok: true, kb: { status: 'published' } });
    expect(await publishListing(db, actor, kb.id)).toMatchObject({ ok: false, code: 'conflict' });
    const inCatalog = async () => (await db.select().from(catalogSearch).where(eq(catalogSearch.kbId, kb.id))).length === 1;
    expect(await inCatalog()).toBe(true);
    expect(await findPurchasablePlan(db, starter.id)).not.toBeNull();

    const buyer = await createUser(db);
    const bought = await purchaseSubscription(db, { userId: buyer, planId: starter.id, mode: 'test', now: new Date('2026-03-01T00:00:00Z') });
    expect(bought.ok).toBe(true);
    const unpublished = await unpublishListing(db, actor, kb.id);
    expect(unpublished).toMatchObject({ ok: true, kb: { status: 'unpublished' }, endingSubscriptions: 1 });
    expect(await inCatalog()).toBe(false);
    expect(await findPurchasablePlan(db, starter.id)).toBeNull();
    // The subscriber keeps access to the end of the period, then it ends (no renewal of an unpublished listing).
    const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.userId, buyer));
    expect(sub).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(await resumeSubscription(db, { userId: buyer, subscriptionId: sub!.id, now: new Date('2026-03-05T00:00:00Z') })).toMatchObject({
      ok: false,
      code: 'conflict',
    });
    const after = await ensureCurrentPeriod(db, sub!, new Date('2026-04-02T00:00:00Z'));
    expect(after.status).toBe('expired');

    // Published again after the period: the expired subscription stays expired.
    expect(await publishListing(db, actor, kb.id)).toMatchObject({ ok: true, kb: { status: 'published' }, resumedSubscriptions: 0 });
    expect(await updateListing(db, actor, kb.id, { ...listing, title: 'Wetland field guide, 2nd edition' })).toMatchObject({
      ok: true,
      kb: { title: 'Wetland field guide, 2nd edition' },
    });
  });

  it('an own-endpoint listing is published only once its endpoint is connected', async () => {
    const { actor } = await newPublisher();
    const created = await createListing(db, actor, { ...listing, backendKind: 'http' });
    if (!created.ok) throw new Error(created.code);
    await okPlan(actor, created.kb.id);
    expect(await publishListing(db, actor, created.kb.id)).toMatchObject({ ok: false, code: 'conflict', reason: 'needs_backend' });
  });

  it('a draft can be deleted with its plans; a listing that was ever published cannot', async () => {
    const { actor } = await newPublisher();
    const stranger = (await newPublisher()).actor;
    const kb = await draft(actor);
    const plan = await okPlan(actor, kb.id);
    expect(await deleteDraftListing(db, stranger, kb.id)).toMatchObject({ ok: false, code: 'not_found' });
    expect(await deleteDraftListing(db, actor, kb.id)).toMatchObject({ ok: true, title: kb.title });
    expect(await db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kb.id))).toEqual([]);
    expect(await db.select().from(plans).where(eq(plans.id, plan.id))).toEqual([]);
    expect(await deleteDraftListing(db, actor, kb.id)).toMatchObject({ ok: false, code: 'not_found' });

    const sold = await draft(actor);
    await okPlan(actor, sold.id);
    await publishListing(db, actor, sold.id);
    await unpublishListing(db, actor, sold.id);
    expect(await deleteDraftListing(db, actor, sold.id)).toMatchObject({ ok: false, code: 'conflict' });
  });

  it('publishing again within the period resumes the renewals unpublishing stopped, not those the buyer cancelled', async () => {
    const { actor } = await newPublisher();
    const kb = await draft(actor);
    const starter = await okPlan(actor, kb.id);
    await publishListing(db, actor, kb.id);
    const start = new Date();
    const [kept, left] = [await createUser(db), await createUser(db)];
    const subs: Record<string, string> = {};
    for (const buyer of [kept, left]) {
      const bought = await purchaseSubscription(db, { userId: buyer, planId: starter.id, mode: 'test', now: start });
      if (!bought.ok) throw new Error(bought.code);
      subs[buyer] = bought.subscription.id;
    }
    expect(await cancelSubscription(db, { userId: left, subscriptionId: subs[left]! })).toMatchObject({ ok: true });

    expect(await unpublishListing(db, actor, kb.id)).toMatchObject({ ok: true, endingSubscriptions: 1 });
    // Only the subscriber whose renewal it stopped is told; the one who had cancelled already knows it ends.
    expect((await noticesTo(kept)).map((m) => m.subject)).toEqual([expect.stringMatching(/is no longer offered/)]);
    expect(await noticesTo(left)).toEqual([]);
    const view = await getSubscriptionForUser(db, kept, subs[kept]!);
    expect(view).toMatchObject({ ok: true, subscription: { cancelAtPeriodEnd: true, listingOnSale: false } });

    expect(await publishListing(db, actor, kb.id)).toMatchObject({ ok: true, resumedSubscriptions: 1 });
    const rows = await db.select().from(subscriptions).where(eq(subscriptions.kbId, kb.id));
    expect(rows.find((r) => r.userId === kept)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, cancelledAt: null, cancelledByUnpublish: false });
    expect(rows.find((r) => r.userId === left)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, cancelledByUnpublish: false });
  });
});

describe('plans', () => {
  it('a free plan is price 0 with a cap of at most FREE_PLAN_MAX_QUERIES (100)', async () => {
    const { actor } = await newPublisher();
    const kb = await draft(actor);
    expect(await createPlan(db, actor, kb.id, plan({ name: 'Free', price: '0', queriesPerPeriod: '101' }), null)).toMatchObject({
      ok: false,
      fieldErrors: { queriesPerPeriod: 'A free plan allows at most 100 queries a month.' },
    });
    expect(await createPlan(db, actor, kb.id, plan({ name: 'Free', price: '0', queriesPerPeriod: '100' }), null)).toMatchObject({
      ok: true,
      plan: { priceCents: 0, queriesPerPeriod: 100 },
    });
    expect(await createPlan(db, actor, kb.id, plan({ price: '0.10' }), null)).toMatchObject({
      ok: false,
      fieldErrors: { price: expect.stringContaining('at least 0.50') },
    });
    expect(await createPlan(db, actor, kb.id, plan({ price: '12.345' }), null)).toMatchObject({
      ok: false,
      fieldErrors: { price: expect.stringContaining('19.50') },
    });
    expect(await createPlan(db, actor, kb.id, plan({ price: '19.5' }), null)).toMatchObject({ ok: true, plan: { priceCents: 1950 } });
  });

  it('with Stripe configured, a free plan is activated without Checkout or card: one live key, revealed once', async () => {
    const { actor } = await newPublisher();
    const kb = await draft(actor);
    const free = await okPlan(actor, kb.id, { name: 'Free', price: '0', queriesPerPeriod: '50' });
    await publishListing(db, actor, kb.id);
    const buyer = await createUser(db);
    // Any Stripe call would throw: a free plan must not reach Stripe at all.
    const stripe = new Proxy(
      {},
      {
        get: () => {
          throw new Error('Stripe must not be called for a free plan');
        },
      },
    ) as Stripe;
    const started = await startCheckout(db, { userId: buyer, email: 'free@example.com', planId: free.id }, stripe);
    expect(started).toMatchObject({ ok: true, kind: 'free', url: expect.stringMatching(/^\/checkout\/success\?handoff=/) });
    const handoffId = new URL((started as { url: string }).url, 'http://x').searchParams.get('handoff')!;
    const first = await getCheckoutOutcome(db, { userId: buyer, handoffId });
    expect(first).toMatchObject({ status: 'revealed', mode: 'live', plaintext: expect.stringMatching(/^alm_sk_live_/) });
    expect(await getCheckoutOutcome(db, { userId: buyer, handoffId })).toMatchObject({ status: 'pending' });
    expect(await startCheckout(db, { userId: buyer, email: 'free@example.com', planId: free.id }, stripe)).toMatchObject({
      ok: false,
      code: 'already_subscribed',
    });
  });

  it('with Stripe configured, a paid plan gets a monthly Stripe Price through the API (a new one when its amount changes); a free plan none', async () => {
    const { actor } = await newPublisher();
    const kb = await draft(actor);
    const calls: Array<{ params: Record<string, unknown>; idempotencyKey?: string }> = [];
    const stripe = {
      prices: {
        create: async (params: Record<string, unknown>, options: { idempotencyKey?: string }) => (
          calls.push({ params, idempotencyKey: options.idempotencyKey }),
          { id: `price_${calls.length}` }
        ),
      },
    } as unknown as Stripe;
    const paid = await createPlan(db, actor, kb.id, plan({ price: '19.50', currency: 'eur' }), stripe);
    expect(paid).toMatchObject({ ok: true, plan: { stripePriceId: 'price_1', priceCents: 1950, currency: 'eur' } });
    expect(calls[0]).toMatchObject({
      params: { currency: 'eur', unit_amount: 1950, recurring: { interval: 'month' }, metadata: { kbId: kb.id } },
      idempotencyKey: `almanac-price-${(paid as { plan: { id: string } }).plan.id}`,
    });
    expect(await createPlan(db, actor, kb.id, plan({ name: 'Free', price: '0', queriesPerPeriod: '10' }), stripe)).toMatchObject({
      ok: true,
      plan: { stripePriceId: null },
    });
    expect(calls).toHaveLength(1);
    const planId = (paid as { plan: { id: string } }).plan.id;
    expect(await editPlan(db, actor, planId, plan({ name: 'Renamed', price: '19.50', currency: 'eur' }), stripe)).toMatchObject({
      ok: true,
      plan: { stripePriceId: 'price_1' },
    });
    expect(await editPlan(db, actor, planId, plan({ price: '25', currency: 'eur' }), stripe)).toMatchObject({
      ok: true,
      plan: { stripePriceId: 'price_2', priceCents: 2500 },
    });
    const failing = {
      prices: {
        create: async () => {
          throw new Error('down');
        },
      },
    } as unknown as Stripe;
    expect(await createPlan(db, actor, kb.id, plan(), failing)).toMatchObject({ ok: false, reason: 'stripe_unavailable' });
  });

  it('an edit without subscribers changes the plan in place', async () => {
    const { actor } = await newPublisher();
    const kb = await draft(actor);
    const p = await okPlan(actor, kb.id);
    expect(await editPlan(db, actor, p.id, plan({ price: '29', queriesPerPeriod: '300' }), null)).toMatchObject({
      ok: true,
      plan: { id: p.id, priceCents: 2900, queriesPerPeriod: 300 },
    });
    expect(await deletePlan(db, actor, p.id)).toEqual({ ok: true });
  });

  it('an edit with subscribers makes a replacement for new purchases; subscribers move at their next renewal, never mid-period', async () => {
    const { actor } = await newPublisher();
    const kb = await draft(actor);
    const old = await okPlan(actor, kb.id, { queriesPerPeriod: '100' });
    await publishListing(db, actor, kb.id);
    const buyer = await createUser(db);
    const start = new Date('2026-01-15T12:00:00Z');
    const bought = await purchaseSubscription(db, { userId: buyer, planId: old.id, mode: 'test', now: start });
    if (!bought.ok) throw new Error(bought.code);

    // A rename alone is not a change of terms: in place.
    expect(await editPlan(db, actor, old.id, plan({ name: 'Starter (renamed)', queriesPerPeriod: '100' }), null)).toMatchObject({
      ok: true,
      plan: { id: old.id },
    });
    const edited = await editPlan(db, actor, old.id, plan({ name: 'Starter', price: '25', queriesPerPeriod: '250' }), null);
    expect(edited).toMatchObject({
      ok: true,
      replaced: { oldPlanId: old.id, movingSubscriptions: 1 },
      plan: { priceCents: 2500, queriesPerPeriod: 250, active: true },
    });
    const replacement = (edited as { plan: { id: string } }).plan.id;
    const [oldRow] = await db.select().from(plans).where(eq(plans.id, old.id));
    expect(oldRow).toMatchObject({ active: false, replacedByPlanId: replacement });
    expect(oldRow!.retiredAt).not.toBeNull();
    expect(await findPurchasablePlan(db, old.id)).toBeNull();
    expect(await findPurchasablePlan(db, replacement)).toMatchObject({ priceCents: 2500 });

    // Mid-period: still the old plan.
    let [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, bought.subscription.id));
    expect(sub).toMatchObject({ planId: old.id, pendingPlanId: replacement });
    // The subscriber is told by email, with both sets of terms and the date; the publisher learns no address.
    const notices = await noticesTo(buyer);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.textBody).toMatch(/From your renewal on Feb 15, 2026: Starter, \$25 a month, 250 queries a period, 60 requests a minute/);
    // The buyer's page: the old terms are off sale, so the change cannot be withdrawn, only avoided (another plan, cancel).
    const view = await getSubscriptionForUser(db, buyer, bought.subscription.id, new Date('2026-01-20T00:00:00Z'));
    expect(view).toMatchObject({ ok: true, subscription: { plan: { id: old.id }, pendingPlanId: replacement, planOnSale: false } });
    await ensureCurrentPeriod(db, sub!, new Date('2026-02-01T00:00:00Z'));
    [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, bought.subscription.id));
    expect(sub!.planId).toBe(old.id);
    // At the renewal (2026-02-15 12:00): the replacement.
    await ensureCurrentPeriod(db, sub!, new Date('2026-02-15T12:00:01Z'));
    [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, bought.subscription.id));
    expect(sub).toMatchObject({ planId: replacement, pendingPlanId: null });

    const console = await listPlansForConsole(db, kb.id);
    expect(console.find((p) => p.id === replacement)).toMatchObject({ subscribers: 1, active: true });
    expect(console.find((p) => p.id === old.id)).toMatchObject({ subscribers: 0, active: false });
    // A plan with subscriptions is never deleted; the last active plan of a published listing is not retired.
    expect(await deletePlan(db, actor, replacement)).toMatchObject({ ok: false, reason: 'has_subscribers' });
    expect(await retirePlan(db, actor, replacement)).toMatchObject({ ok: false, reason: 'last_plan' });
    const spare = await okPlan(actor, kb.id, { name: 'Pro', price: '49', queriesPerPeriod: '500' });
    expect(await retirePlan(db, actor, replacement)).toMatchObject({ ok: true, plan: { active: false } });
    expect(await findPurchasablePlan(db, spare.id)).not.toBeNull();
    const audit = await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, old.id));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['plan.create', 'plan.update', 'plan.replace']));
  });
});

describe('operator suspension', () => {
  it('a suspended listing leaves the catalogue and cannot be bought; restore returns the state it had', async () => {
    const { actor } = await newPublisher();
    const kb = await draft(actor);
    const p = await okPlan(actor, kb.id);
    await publishListing(db, actor, kb.id);
    expect(await suspendListing(db, operator, kb.id, 'Copyright complaint')).toEqual({ ok: true, changed: 1 });
    const [row] = await db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kb.id));
    expect(row).toMatchObject({ status: 'suspended', statusBeforeSuspension: 'published', suspensionReason: 'Copyright complaint' });
    expect(await findPurchasablePlan(db, p.id)).toBeNull();
    expect(await publishListing(db, actor, kb.id)).toMatchObject({ ok: false, code: 'conflict' });
    expect(await restoreListing(db, operator, kb.id)).toEqual({ ok: true, changed: 1 });
    expect((await db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kb.id)))[0]).toMatchObject({
      status: 'published',
      statusBeforeSuspension: null,
    });
  });

  it('suspending a publisher suspends its listings; restoring it restores exactly those to their own states', async () => {
    const { actor, publisherId } = await newPublisher();
    const published = await draft(actor);
    await okPlan(actor, published.id);
    await publishListing(db, actor, published.id);
    const stillDraft = await draft(actor);
    const alone = await draft(actor);
    await suspendListing(db, operator, alone.id, 'separate matter');
    const { slug } = firstRow((await db.execute(sql`select slug from publishers where id = ${publisherId}`)).rows as Array<{ slug: string }>);
    expect(await getPublisher(slug, db)).not.toBeNull();
    expect(await suspendPublisher(db, operator, publisherId, 'Fraud review')).toEqual({ ok: true, changed: 3 });
    expect(await getPublisher(slug, db)).toBeNull();
    expect(await createListing(db, actor, listing)).toMatchObject({ ok: false, code: 'conflict' });
    expect(await restoreListing(db, operator, published.id)).toMatchObject({ ok: false, code: 'conflict' });
    expect(await restorePublisher(db, operator, publisherId)).toEqual({ ok: true, changed: 3 });
    const states = Object.fromEntries((await db.select().from(knowledgeBases).where(eq(knowledgeBases.publisherId, publisherId))).map((k) => [k.id, k.status]));
    expect(states).toEqual({ [published.id]: 'published', [stillDraft.id]: 'draft', [alone.id]: 'suspended' });
    const audit = await db.select({ action: auditLog.action, metadata: auditLog.metadata }).from(auditLog).where(eq(auditLog.targetId, publisherId));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['publisher.suspend', 'publisher.restore']));
  });
});

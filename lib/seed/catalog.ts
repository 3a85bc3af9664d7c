import { sql } from 'drizzle-orm';
import { addMonthsClamped, periodContaining } from '@/lib/subscriptions';
import type { Database, Transaction } from '@/db/client';
import { knowledgeBases, plans, publishers, subscriptions, usageDaily, usagePeriods, users } from '@/db/schema';
import { KNOWLEDGE_BASE_SEEDS } from '@/db/seed/catalog/knowledge-bases';
import { PUBLISHER_SEEDS } from '@/db/seed/catalog/publishers';
import { FIRST_NAMES, LAST_NAMES, composeDescription, createPrng, hashText, readSampleQuestions } from './sample-data';
import { itemAt } from '@/lib/platform/arrays';

/**
 * The sample marketplace: fictional publishers, knowledge bases, plans, buyers who cannot sign in, subscriptions and
 * ~90 days of usage, deterministic from one seeded PRNG (only dates follow `now`). The catalogue's sort counters are
 * derived with SQL at the end. One transaction: a crash leaves an empty catalogue, which the next start seeds again.
 */

const CATALOG_PRNG_SEED = 20_260_122;
const SEEDED_BUYER_COUNT = 90;
const USAGE_WINDOW_DAYS = 90;
const DAY_MS = 86_400_000;
/** Brand-new knowledge bases with no subscriber yet: they tie on (0, 0) so the id tie-break is visible. */
const NEW_WITHOUT_SUBSCRIBERS = new Set(['eu-ai-act-briefing', 'online-course-design', 'rural-broadband-policy', 'citizen-science-projects']);
/** The twelve hosted knowledge bases of hosted-kbs.md: older and well used. */
const HOSTED_SLUGS = new Set([
  'us-constitution-companion',
  'gdpr-practitioner-guide',
  'employment-law-basics',
  'hypertension-care-guidelines',
  'childhood-immunization-handbook',
  'nutrition-science-digest',
  'algebra-foundations',
  'world-history-essentials',
  'climate-policy-briefings',
  'urban-housing-policy',
  'research-methods-primer',
  'research-data-management',
]);

const PLAN_TIERS = [
  { name: 'Starter', queriesPerPeriod: 100, requestsPerMinute: 60 },
  { name: 'Professional', queriesPerPeriod: 500, requestsPerMinute: 120 },
  { name: 'Enterprise', queriesPerPeriod: 2_000, requestsPerMinute: 300 },
] as const;

/** Each listing's free taster plan, listed first; price 0 keeps it within FREE_PLAN_MAX_QUERIES (docs/api.md §9.2). */
const TASTER_PLAN = { name: 'Taster', priceCents: 0, queriesPerPeriod: 20, requestsPerMinute: 10, sortOrder: -1 } as const;

export interface CatalogSeedSummary {
  skipped: boolean;
  publishers: number;
  knowledgeBases: number;
  subscriptions: number;
  usageDailyRows: number;
}

const utcDay = (d: Date) => d.toISOString().slice(0, 10);
const daysAgo = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

async function insertInBatches<T>(rows: T[], size: number, insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Idempotent: a database that already holds the sample publishers is left untouched. */
export async function seedCatalog(db: Database, options: { now?: Date } = {}): Promise<CatalogSeedSummary> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const present = await tx.execute(sql`select exists(select 1 from publishers where slug = ${itemAt(PUBLISHER_SEEDS, 0).slug}) as present`);
    if ((present.rows[0] as { present: boolean }).present) {
      return { skipped: true, publishers: 0, knowledgeBases: 0, subscriptions: 0, usageDailyRows: 0 };
    }
    return writeCatalog(tx, now);
  });
}

async function writeCatalog(tx: Transaction, now: Date): Promise<CatalogSeedSummary> {
  const prng = createPrng(CATALOG_PRNG_SEED);

  // Publishers (the trigger on knowledge_bases reads their names, so they go first).
  const publisherRows = PUBLISHER_SEEDS.map((p) => {
    const createdAt = daysAgo(now, prng.int(740, 800));
    return { id: prng.id('pub'), slug: p.slug, name: p.name, description: p.description, websiteUrl: p.websiteUrl, createdAt, updatedAt: createdAt };
  });
  await tx.insert(publishers).values(publisherRows);
  const publisherId = new Map(publisherRows.map((p) => [p.slug, p.id]));

  const kbRows: (typeof knowledgeBases.$inferInsert & { id: string; createdAt: Date })[] = [];
  const planRows: (typeof plans.$inferInsert & { id: string; queriesPerPeriod: number })[] = [];
  for (const kb of KNOWLEDGE_BASE_SEEDS) {
    const hosted = HOSTED_SLUGS.has(kb.slug);
    const ageDays = NEW_WITHOUT_SUBSCRIBERS.has(kb.slug) ? prng.int(3, 20) : hosted ? prng.int(300, 700) : prng.int(45, 720);
    const createdAt = new Date(daysAgo(now, ageDays).getTime() - prng.int(0, 86_399) * 1000);
    // About one in six was never edited after publication (updatedAt = createdAt); the rest at some later instant.
    const updatedAt = prng.next() < 0.16 ? createdAt : new Date(createdAt.getTime() + Math.floor(prng.next() * (now.getTime() - createdAt.getTime())));
    const id = prng.id('kb');
    kbRows.push({
      id,
      publisherId: publisherId.get(kb.publisher)!,
      slug: kb.slug,
      title: kb.title,
      summary: kb.summary,
      description: composeDescription(kb, prng),
      category: kb.category,
      tags: kb.tags,
      language: kb.language ?? 'en',
      licence: kb.licence ?? 'CC BY 4.0',
      sampleQuestions: readSampleQuestions(kb.slug, kb.questions),
      status: kb.status ?? 'published',
      backendKind: 'hosted',
      createdAt,
      updatedAt,
    });
    const starter = prng.pick([900, 1200, 1500, 1900, 2400, 2900, 3900]);
    const prices = [starter, Math.round((starter * prng.pick([3, 3.5, 4])) / 100) * 100, Math.round((starter * prng.pick([9, 10, 12])) / 100) * 100];
    PLAN_TIERS.forEach((tier, i) => {
      planRows.push({
        id: prng.id('plan'),
        kbId: id,
        name: tier.name,
        priceCents: itemAt(prices, i) - 1,
        currency: 'usd',
        queriesPerPeriod: tier.queriesPerPeriod,
        requestsPerMinute: tier.requestsPerMinute,
        sortOrder: i,
        createdAt,
        updatedAt: createdAt,
      });
    });
  }
  await tx.insert(knowledgeBases).values(kbRows);
  // The taster plans' ids come from streams of their own, so the ids and draws of everything else are unchanged.
  const tasterRows = kbRows.map((kb) => ({
    ...TASTER_PLAN,
    id: createPrng(CATALOG_PRNG_SEED ^ hashText(`taster:${kb.slug}`)).id('plan'),
    kbId: kb.id,
    currency: 'usd',
    createdAt: kb.createdAt,
    updatedAt: kb.createdAt,
  }));
  await tx.insert(plans).values([...planRows, ...tasterRows]);

  // Sample buyers: no password hash, so nobody can sign in as them.
  const buyerRows = Array.from({ length: SEEDED_BUYER_COUNT }, (_, i) => {
    const first = FIRST_NAMES[i % FIRST_NAMES.length];
    const last = LAST_NAMES[(i * 7) % LAST_NAMES.length];
    const createdAt = daysAgo(now, prng.int(730, 790));
    return {
      id: prng.id('usr'),
      email: `${first}.${last}.${i + 1}@example.com`.toLowerCase(),
      name: `${first} ${last}`,
      passwordHash: null,
      emailVerifiedAt: createdAt,
      createdAt,
      updatedAt: createdAt,
    };
  });
  await tx.insert(users).values(buyerRows);

  const subscriptionRows: (typeof subscriptions.$inferInsert)[] = [];
  const periodRows: { subscriptionId: string; periodStart: Date; periodEnd: Date }[] = [];
  const dailyRows: { subscriptionId: string; day: string; queries: number; tokens: number }[] = [];
  const windowStart = daysAgo(now, USAGE_WINDOW_DAYS);
  const today = utcDay(now);

  for (const kb of kbRows) {
    if (kb.status !== 'published' || NEW_WITHOUT_SUBSCRIBERS.has(kb.slug)) continue;
    // Streams of their own per knowledge base: who subscribed (and so subscribers_count) does not depend on how many
    // random draws the usage of other knowledge bases took, which varies with the seeding date.
    const kbPrng = createPrng(CATALOG_PRNG_SEED ^ hashText(kb.slug));
    const usagePrng = createPrng((CATALOG_PRNG_SEED ^ hashText(kb.slug)) + 1);
    const kbPlans = planRows.filter((p) => p.kbId === kb.id);
    const ageDays = Math.floor((now.getTime() - kb.createdAt.getTime()) / DAY_MS);
    // Skewed popularity: many knowledge bases with a handful of subscribers, a few with dozens (ties are common).
    const active = 1 + Math.floor(36 * kbPrng.next() ** 2.2);
    const expired = ageDays > 75 ? kbPrng.int(0, 4) : 0;
    const pastDue = ageDays > 75 && kbPrng.next() < 0.35 ? kbPrng.int(1, 2) : 0;
    const buyers = kbPrng.shuffle(buyerRows).slice(0, active + expired + pastDue);
    const intensity = 0.15 + 0.75 * kbPrng.next();

    buyers.forEach((buyer, i) => {
      const state = i < active ? 'active' : i < active + expired ? 'expired' : 'past_due';
      const roll = kbPrng.next();
      const plan = itemAt(kbPlans, roll < 0.55 ? 0 : roll < 0.88 ? 1 : 2);
      const id = kbPrng.id('sub');
      let anchor: Date;
      let periodStart: Date;
      let periodEnd: Date;
      let usageUntil: Date;
      let cancelAtPeriodEnd = false;
      let cancelledAt: Date | null = null;
      let endedAt: Date | null = null;
      if (state === 'active') {
        anchor = new Date(now.getTime() - kbPrng.int(1 * 3600, Math.min(ageDays - 1, 420) * 86_400) * 1000);
        ({ start: periodStart, end: periodEnd } = periodContaining(anchor, now));
        usageUntil = now;
        if (kbPrng.next() < 0.1) {
          cancelAtPeriodEnd = true; // still active until the period ends
          cancelledAt = new Date(periodStart.getTime() + Math.floor(kbPrng.next() * (now.getTime() - periodStart.getTime())));
        }
      } else if (state === 'expired') {
        const months = kbPrng.int(1, 5);
        const endDaysAgo = kbPrng.int(2, Math.max(2, Math.min(ageDays - 35 * months, 150)));
        periodEnd = daysAgo(now, endDaysAgo);
        anchor = addMonthsClamped(periodEnd, -months);
        if (anchor < kb.createdAt) anchor = new Date(kb.createdAt.getTime() + DAY_MS);
        ({ start: periodStart, end: periodEnd } = periodContaining(anchor, new Date(periodEnd.getTime() - 1)));
        cancelAtPeriodEnd = true;
        cancelledAt = new Date(periodStart.getTime() + Math.floor(kbPrng.next() * (periodEnd.getTime() - periodStart.getTime())));
        endedAt = periodEnd;
        usageUntil = periodEnd;
      } else {
        // The renewal at the start of the current period failed: access is suspended, nothing used since.
        const started = daysAgo(now, kbPrng.int(1, 9));
        anchor = addMonthsClamped(started, -kbPrng.int(1, 2));
        if (anchor < kb.createdAt) anchor = new Date(kb.createdAt.getTime() + DAY_MS);
        ({ start: periodStart, end: periodEnd } = periodContaining(anchor, now));
        usageUntil = periodStart;
      }
      const lastChange = [anchor, cancelledAt, endedAt, state === 'past_due' ? periodStart : null].filter((d): d is Date => d !== null);
      subscriptionRows.push({
        id,
        userId: buyer.id,
        kbId: kb.id,
        planId: plan.id,
        status: state,
        mode: 'live',
        periodAnchorAt: anchor,
        currentPeriodStart: periodStart,
        currentPeriodEnd: periodEnd,
        cancelAtPeriodEnd,
        cancelledAt,
        endedAt,
        createdAt: anchor,
        updatedAt: new Date(Math.max(...lastChange.map((d) => d.getTime()))),
      });

      const heavy = Math.min(0.97, intensity * (0.5 + kbPrng.next()));
      for (let index = 0; ; index++) {
        const start = addMonthsClamped(anchor, index);
        const end = addMonthsClamped(anchor, index + 1);
        if (start > periodStart) break; // periodStart is the current (or, once expired, the last) period
        if (end <= windowStart) continue;
        periodRows.push({ subscriptionId: id, periodStart: start, periodEnd: end });
        if (start >= usageUntil) continue;
        // A day belongs to the period whose UTC start date is <= day < the UTC end date (the same rule the SQL uses).
        const days: string[] = [];
        for (let t = Date.parse(`${utcDay(start)}T00:00:00Z`); t < Date.parse(`${utcDay(end)}T00:00:00Z`); t += DAY_MS) {
          const day = new Date(t);
          const dayKey = utcDay(day);
          if (day < windowStart || dayKey > today || day >= usageUntil) continue;
          if (usagePrng.next() < 0.4) days.push(dayKey);
        }
        if (days.length === 0) continue;
        const budget = Math.floor(plan.queriesPerPeriod * heavy * usagePrng.next());
        const weights = days.map(() => usagePrng.next());
        const total = weights.reduce((a, b) => a + b, 0);
        days.forEach((day, k) => {
          const queries = Math.floor((budget * itemAt(weights, k)) / total);
          if (queries > 0) dailyRows.push({ subscriptionId: id, day, queries, tokens: queries * usagePrng.int(250, 900) });
        });
      }
    });
  }

  await insertInBatches(subscriptionRows, 500, (batch) => tx.insert(subscriptions).values(batch));
  await insertInBatches(periodRows, 1_000, (batch) => tx.insert(usagePeriods).values(batch.map((p) => ({ ...p, used: 0, updatedAt: now }))));
  await insertInBatches(dailyRows, 2_000, (batch) => tx.insert(usageDaily).values(batch));

  await tx.execute(sql`
    update usage_periods p set used = coalesce((
      select sum(d.queries) from usage_daily d
      where d.subscription_id = p.subscription_id
        and d.day >= (p.period_start at time zone 'UTC')::date
        and d.day < (p.period_end at time zone 'UTC')::date
    ), 0)`);
  await recomputeCatalogCounters(tx);

  return {
    skipped: false,
    publishers: publisherRows.length,
    knowledgeBases: kbRows.length,
    subscriptions: subscriptionRows.length,
    usageDailyRows: dailyRows.length,
  };
}

/** Only the two counter columns change, so the search-vector trigger stays quiet and updated_at keeps meaning "content edited". */
export async function recomputeCatalogCounters(tx: Database | Transaction): Promise<void> {
  await tx.execute(sql`
    update knowledge_bases kb set
      subscribers_count = (select count(*)::int from subscriptions s where s.kb_id = kb.id and s.status = 'active'),
      query_volume = (select coalesce(sum(d.queries), 0)::bigint from usage_daily d join subscriptions s on s.id = d.subscription_id where s.kb_id = kb.id)`);
}

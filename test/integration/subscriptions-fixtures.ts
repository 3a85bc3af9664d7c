import { and, eq, sql } from 'drizzle-orm';
import { knowledgeBases, plans, publishers, subscriptions, usagePeriods, users } from '@/db/schema';
import type { Executor } from '@/db/client';
import { newId } from '@/lib/platform/ids';

/** A publisher with one knowledge base and Starter/Professional plans, plus buyers; real rows, no mocks. */
export async function createCatalogFixture(db: Executor, options: { kbStatus?: 'published' | 'draft' | 'suspended'; slug?: string } = {}) {
  const publisherId = newId('pub');
  await db.insert(publishers).values({ id: publisherId, slug: `pub-${publisherId.slice(-8).toLowerCase()}`, name: 'Fixture Press' });
  const kbId = newId('kb');
  await db.insert(knowledgeBases).values({
    id: kbId,
    publisherId,
    slug: options.slug ?? `kb-${kbId.slice(-8).toLowerCase()}`,
    title: `Fixture KB ${kbId.slice(-4)}`,
    summary: 'A knowledge base for tests.',
    category: 'research',
    status: options.kbStatus ?? 'published',
  });
  const starter = newId('plan');
  const pro = newId('plan');
  const retired = newId('plan');
  await db.insert(plans).values([
    { id: starter, kbId, name: 'Starter', priceCents: 900, queriesPerPeriod: 100, sortOrder: 0 },
    { id: pro, kbId, name: 'Professional', priceCents: 2900, queriesPerPeriod: 500, requestsPerMinute: 120, sortOrder: 1 },
    { id: retired, kbId, name: 'Legacy', priceCents: 100, queriesPerPeriod: 10, sortOrder: 2, active: false },
  ]);
  return { publisherId, kbId, plans: { starter, pro, retired } };
}

export async function createUser(db: Executor, email?: string): Promise<string> {
  const id = newId('usr');
  await db.insert(users).values({ id, email: email ?? `${id.toLowerCase()}@example.com` });
  return id;
}

export async function subscribersCount(db: Executor, kbId: string): Promise<number> {
  const [row] = await db.select({ n: knowledgeBases.subscribersCount }).from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
  return row!.n;
}

/** The truth the denormalised counter must match. */
export async function countActive(db: Executor, kbId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(subscriptions)
    .where(and(eq(subscriptions.kbId, kbId), eq(subscriptions.status, 'active')));
  return row!.n;
}

/** What the gateway does on each 200: used + n for the row of that period. */
export async function useQueries(db: Executor, subscriptionId: string, periodStart: Date, n: number): Promise<void> {
  await db
    .update(usagePeriods)
    .set({ used: sql`${usagePeriods.used} + ${n}` })
    .where(and(eq(usagePeriods.subscriptionId, subscriptionId), eq(usagePeriods.periodStart, periodStart)));
}

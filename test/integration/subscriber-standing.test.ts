import { beforeAll, describe, expect, it } from 'vitest';
import { usagePeriods } from '@/db/schema';
import type { Database } from '@/db/client';
import { getSubscriberStanding, offerFor } from '@/lib/subscriptions';
import { cancelSubscription, endSubscription, markPastDue, purchaseSubscription, upgradeSubscription } from '@/lib/subscriptions';
import { createTestDatabase } from '../support/db';
import { createCatalogFixture, createUser, useQueries } from './subscriptions-fixtures';

/** What the knowledge-base page learns about a signed-in buyer, from real rows (PGlite and Postgres). */
let db: Database;
beforeAll(async () => {
  db = (await createTestDatabase()).db;
});

const at = (iso: string) => new Date(iso);

async function buy(userId: string, planId: string, now: Date) {
  const result = await purchaseSubscription(db, { userId, planId, mode: 'test', now });
  if (!result.ok) throw new Error(`purchase failed: ${result.code}`);
  return result.subscription;
}

/** Counts the statements an executor is asked to build, to hold the page to its one query per signed-in visitor. */
function countingStatements(inner: Database): { db: Database; count: () => number } {
  let statements = 0;
  const builders = new Set(['select', 'selectDistinct', 'insert', 'update', 'delete', 'execute', 'transaction', 'query']);
  const db = new Proxy(inner, {
    get(target, property, receiver) {
      if (typeof property === 'string' && builders.has(property)) statements += 1;
      return Reflect.get(target, property, receiver);
    },
  });
  return { db, count: () => statements };
}

describe('getSubscriberStanding', () => {
  it('is null for a buyer without a live subscription to this knowledge base, whoever else subscribes', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const other = await createCatalogFixture(db);
    const buyer = await createUser(db);
    const stranger = await createUser(db);
    const now = at('2026-03-01T00:00:00.000Z');
    await buy(stranger, plans.starter, now);
    await buy(buyer, other.plans.pro, now);

    expect(await getSubscriberStanding(db, buyer, kbId, now)).toBeNull();
    expect(await getSubscriberStanding(db, stranger, other.kbId, now)).toBeNull();
  });

  it('names the plan and this period’s usage, in one statement', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const buyer = await createUser(db);
    const subscription = await buy(buyer, plans.starter, at('2026-01-31T10:00:00.000Z'));
    await useQueries(db, subscription.id, subscription.currentPeriodStart, 7);

    const counting = countingStatements(db);
    const standing = await getSubscriberStanding(counting.db, buyer, kbId, at('2026-02-10T00:00:00.000Z'));
    expect(counting.count()).toBe(1);
    expect(standing).toEqual({
      subscriptionId: subscription.id,
      planId: plans.starter,
      planName: 'Starter',
      state: 'active',
      endsAt: null,
      usage: { used: 7, cap: 100, remaining: 93, resetsAt: '2026-02-28T10:00:00.000Z' },
    });
  });

  it('counts the period the gateway is in, not the stored one, once a period has rolled over', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const buyer = await createUser(db);
    const subscription = await buy(buyer, plans.starter, at('2026-01-31T10:00:00.000Z'));
    await useQueries(db, subscription.id, subscription.currentPeriodStart, 42);
    const march = at('2026-03-05T00:00:00.000Z');

    // Nobody has queried since the period ended: the new period starts empty, whatever the old one used.
    expect((await getSubscriberStanding(db, buyer, kbId, march))?.usage).toEqual({
      used: 0,
      cap: 100,
      remaining: 100,
      resetsAt: '2026-03-31T10:00:00.000Z',
    });

    // The gateway opened the new period's row (lib/gateway/quota.ts) before the subscription row moved on.
    await db.insert(usagePeriods).values({
      subscriptionId: subscription.id,
      periodStart: at('2026-02-28T10:00:00.000Z'),
      periodEnd: at('2026-03-31T10:00:00.000Z'),
      used: 3,
    });
    expect((await getSubscriberStanding(db, buyer, kbId, march))?.usage.used).toBe(3);
  });

  it('follows the subscription through upgrade, cancellation, suspension and its end', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const buyer = await createUser(db);
    const subscription = await buy(buyer, plans.starter, at('2026-04-01T00:00:00.000Z'));
    const later = at('2026-04-10T00:00:00.000Z');
    const starter = { id: plans.starter, queriesPerPeriod: 100 };
    const pro = { id: plans.pro, queriesPerPeriod: 500 };

    let standing = await getSubscriberStanding(db, buyer, kbId, later);
    expect([offerFor(starter, standing), offerFor(pro, standing)]).toEqual([{ kind: 'current' }, { kind: 'upgrade', subscriptionId: subscription.id }]);

    expect(await upgradeSubscription(db, { userId: buyer, subscriptionId: subscription.id, planId: plans.pro, now: later })).toMatchObject({ ok: true });
    standing = await getSubscriberStanding(db, buyer, kbId, later);
    expect(standing).toMatchObject({ planId: plans.pro, planName: 'Professional', usage: { cap: 500 } });
    // A smaller plan is a downgrade, confirmed on the dashboard and applied at the next renewal (docs/api.md §5.4).
    expect([offerFor(starter, standing), offerFor(pro, standing)]).toEqual([{ kind: 'downgrade', subscriptionId: subscription.id }, { kind: 'current' }]);

    await cancelSubscription(db, { userId: buyer, subscriptionId: subscription.id, now: later });
    expect(await getSubscriberStanding(db, buyer, kbId, later)).toMatchObject({ state: 'active', endsAt: '2026-05-01T00:00:00.000Z' });
    // Cancelled and past its period end (before the sweep marks it expired): no longer a subscriber.
    expect(await getSubscriberStanding(db, buyer, kbId, at('2026-05-02T00:00:00.000Z'))).toBeNull();

    expect(await markPastDue(db, subscription.id, later)).toMatchObject({ ok: true });
    standing = await getSubscriberStanding(db, buyer, kbId, later);
    expect(standing).toMatchObject({ state: 'suspended', planId: plans.pro });
    expect(offerFor(starter, standing)).toEqual({ kind: 'unavailable', reason: 'inactive' });

    await endSubscription(db, { subscriptionId: subscription.id, at: later });
    expect(await getSubscriberStanding(db, buyer, kbId, later)).toBeNull();
  });
});

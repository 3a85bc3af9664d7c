import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { subscriptions } from '@/db/schema';
import type { Database } from '@/db/client';
import { SubscriptionSweeper } from '@/lib/subscriptions';
import { cancelSubscription, purchaseSubscription } from '@/lib/subscriptions';
import { createTestDatabase } from '../support/db';
import { countActive, createCatalogFixture, createUser, subscribersCount } from './subscriptions-fixtures';

let db: Database;
beforeAll(async () => {
  db = (await createTestDatabase()).db;
});

const DAY_MS = 86_400_000;

/** A subscription bought `daysAgo` days ago; cancelled at period end the day after when `cancelled`. */
async function subscriptionBought(planId: string, daysAgo: number, cancelled: boolean): Promise<string> {
  const userId = await createUser(db);
  const boughtAt = new Date(Date.now() - daysAgo * DAY_MS);
  const purchase = await purchaseSubscription(db, { userId, planId, mode: 'test', now: boughtAt });
  if (!purchase.ok) throw new Error(purchase.message);
  if (cancelled) {
    const cancel = await cancelSubscription(db, { userId, subscriptionId: purchase.subscription.id, now: new Date(boughtAt.getTime() + DAY_MS) });
    if (!cancel.ok) throw new Error(cancel.message);
  }
  return purchase.subscription.id;
}

async function statusOf(id: string): Promise<string> {
  const [row] = await db.select({ status: subscriptions.status }).from(subscriptions).where(eq(subscriptions.id, id));
  return row!.status;
}

async function until(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('SubscriptionSweeper', () => {
  it('expires lapsed cancellations on start and then on every interval, and the marketplace count follows', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const lapsed = await subscriptionBought(plans.starter, 40, true);
    const cancelledButRunning = await subscriptionBought(plans.starter, 5, true);
    const renewing = await subscriptionBought(plans.starter, 40, false);
    expect(await subscribersCount(db, kbId)).toBe(3);

    const sweeper = new SubscriptionSweeper(async () => db, 100).start();
    try {
      await until(async () => (await statusOf(lapsed)) === 'expired');
      expect(await subscribersCount(db, kbId)).toBe(2);
      expect(await statusOf(cancelledButRunning)).toBe('active');
      expect(await statusOf(renewing)).toBe('active');

      // A cancellation whose period ends while the sweeper runs: the next interval expires it.
      await db
        .update(subscriptions)
        .set({ currentPeriodEnd: new Date(Date.now() - 1) })
        .where(eq(subscriptions.id, cancelledButRunning));
      await until(async () => (await statusOf(cancelledButRunning)) === 'expired');
      expect(await subscribersCount(db, kbId)).toBe(1);
      expect(await countActive(db, kbId)).toBe(1);
    } finally {
      await sweeper.stop();
    }
  });

  it('survives a failing database and sweeps again at the next interval', async () => {
    const { kbId, plans } = await createCatalogFixture(db);
    const lapsed = await subscriptionBought(plans.starter, 40, true);
    let calls = 0;
    const flaky = async () => {
      calls++;
      if (calls === 1) throw new Error('database unreachable');
      return db;
    };
    const sweeper = new SubscriptionSweeper(flaky, 50).start();
    try {
      await until(async () => (await statusOf(lapsed)) === 'expired');
      expect(calls).toBeGreaterThanOrEqual(2);
      expect(await subscribersCount(db, kbId)).toBe(0);
    } finally {
      await sweeper.stop();
    }
  });
});

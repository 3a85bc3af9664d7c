import type { Database } from '@/db/client';
import { getDb } from '@/lib/platform/db';
import { log } from '@/lib/platform/log';
import { PeriodicTask } from '@/lib/platform/periodic-task';
import { processSingleton } from '@/lib/platform/singleton';
import { expireEndedSubscriptions } from './period';

/**
 * Expires lapsed subscriptions within a minute, so subscribersCount does not wait for their key or buyer to touch them.
 * Every instance runs one: each expiry locks its row and is idempotent, so racing instances agree.
 */
const SWEEP_INTERVAL_MS = 60_000;

export class SubscriptionSweeper extends PeriodicTask {
  constructor(database: () => Promise<Database> = getDb, intervalMs = SWEEP_INTERVAL_MS) {
    super(
      'subscription-sweep',
      async (db, now) => {
        const expired = await expireEndedSubscriptions(db, now);
        if (expired > 0) log.info({ expired }, 'expired subscriptions whose cancelled period ended');
      },
      intervalMs,
      database,
    );
  }

  sweep(now: Date = new Date()): Promise<void> {
    return this.run(now);
  }
}

export function startSubscriptionSweeper(): SubscriptionSweeper {
  return processSingleton('subscription-sweeper', () => new SubscriptionSweeper().start());
}

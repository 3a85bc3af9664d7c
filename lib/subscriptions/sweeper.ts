import type { Database } from '@/db/client';
import { getDb } from '@/lib/platform/db';
import { log } from '@/lib/platform/log';
import { PeriodicTask } from '@/lib/platform/periodic-task';
import { processSingleton } from '@/lib/platform/singleton';
import { expireEndedSubscriptions } from './period';

/**
 * Expires subscriptions cancelled at period end once their period is over, within a minute, whether or not anyone
 * calls the API or opens a page. Without it a lapsed subscription kept counting in the marketplace's
 * `subscribersCount` ("subscriptions active now", docs/api.md §2.3) until its own key or buyer touched it. Every instance
 * runs one: each expiry locks its row and is idempotent, so instances racing on the same subscription agree.
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

  /** One sweep (tests call it with a chosen instant). */
  sweep(now: Date = new Date()): Promise<void> {
    return this.run(now);
  }
}

/** The process's sweeper, started once (instrumentation.ts). */
export function startSubscriptionSweeper(): SubscriptionSweeper {
  return processSingleton('subscription-sweeper', () => new SubscriptionSweeper().start());
}

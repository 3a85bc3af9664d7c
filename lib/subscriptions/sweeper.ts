import type { Database } from '@/db/client';
import { getDb } from '@/lib/platform/db';
import { log } from '@/lib/platform/log';
import { processSingleton } from '@/lib/platform/singleton';
import { expireEndedSubscriptions } from './period';

/**
 * Expires subscriptions cancelled at period end once their period is over, within a minute, whether or not anyone
 * calls the API or opens a page. Without it a lapsed subscription kept counting in the marketplace's
 * `subscribersCount` ("subscriptions active now", docs/api.md §2.3) until its own key or buyer touched it. Every instance
 * runs one: each expiry locks its row and is idempotent, so instances racing on the same subscription agree.
 */
const SWEEP_INTERVAL_MS = 60_000;

export class SubscriptionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: () => Promise<Database> = getDb,
    private readonly intervalMs = SWEEP_INTERVAL_MS,
  ) {}

  start(): this {
    if (!this.timer) {
      // The first sweep right away: a server down over a period end catches up on start.
      void this.sweep();
      this.timer = setInterval(() => void this.sweep(), this.intervalMs);
      this.timer.unref();
    }
    return this;
  }

  /** Stops the timer and waits for a sweep in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One sweep, queued behind any sweep in progress (never two at once in a process). Never throws. */
  sweep(now: Date = new Date()): Promise<void> {
    this.running = this.running.then(async () => {
      try {
        const expired = await expireEndedSubscriptions(await this.database(), now);
        if (expired > 0) log.info({ expired }, 'expired subscriptions whose cancelled period ended');
      } catch (err) {
        log.warn({ err }, 'subscription sweep failed; retrying at the next interval');
      }
    });
    return this.running;
  }
}

/** The process's sweeper, started once (instrumentation.ts). */
export function startSubscriptionSweeper(): SubscriptionSweeper {
  return processSingleton('subscription-sweeper', () => new SubscriptionSweeper().start());
}

import type { Database } from '@/db/client';
import { getDb } from './db';
import { log } from './log';

/**
 * Background work every instance runs on a timer (expiring lapsed subscriptions, purging old idempotency records).
 * Each task must be safe to run in every instance at once; runs in one process never overlap, and a failure is logged
 * and retried at the next interval, never thrown.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly name: string,
    private readonly work: (db: Database, now: Date) => Promise<void>,
    private readonly intervalMs: number,
    private readonly database: () => Promise<Database> = getDb,
  ) {}

  start(): this {
    if (!this.timer) {
      // The first run right away: a server that was down catches up on start.
      void this.run();
      this.timer = setInterval(() => void this.run(), this.intervalMs);
      this.timer.unref();
    }
    return this;
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One run, queued behind any run in progress. Never throws. */
  run(now: Date = new Date()): Promise<void> {
    this.running = this.running.then(async () => {
      try {
        await this.work(await this.database(), now);
      } catch (err) {
        log.warn({ err, task: this.name }, 'background task failed; retrying at the next interval');
      }
    });
    return this.running;
  }
}

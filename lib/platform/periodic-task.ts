import type { Database } from '@/db/client';
import { getDb } from './db';
import { createJobQueues, periodicQueue } from './job-queues';
import { defineJobHandler, startJobQueue } from './jobs';
import { log } from './log';

/**
 * Background work on a timer (expiring lapsed subscriptions, purging old idempotency records). An interval of whole
 * minutes is a pg-boss cron schedule: each tick is one job, run by one instance whichever instances are up, and a
 * failure waits for the next tick (no retries: the next run does the same work). A shorter interval, which cron cannot
 * express (tests), runs on a timer in this process. Either way the task must be safe to race (an instance that just
 * started runs it once at once, to catch up), runs in one process never overlap, and a failure is logged, never thrown.
 */
export class PeriodicTask {
  private started = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly name: string,
    private readonly work: (db: Database, now: Date) => Promise<void>,
    private readonly intervalMs: number,
    private readonly database: () => Promise<Database> = getDb,
  ) {}

  /** `*\/N * * * *` for N whole minutes up to an hour, hourly cron for whole hours; null for anything else. */
  static cronFor(intervalMs: number): string | null {
    const minutes = intervalMs / 60_000;
    if (!Number.isInteger(minutes) || minutes < 1) return null;
    if (minutes === 1) return '* * * * *';
    if (minutes < 60 && 60 % minutes === 0) return `*/${minutes} * * * *`;
    if (minutes % 60 === 0 && 24 % (minutes / 60) === 0) return minutes === 60 ? '0 * * * *' : `0 */${minutes / 60} * * *`;
    return null;
  }

  start(): this {
    if (this.started) return this;
    this.started = true;
    // The first run right away: a server that was down catches up on start.
    void this.run();
    const cron = PeriodicTask.cronFor(this.intervalMs);
    if (cron) {
      void this.schedule(cron).catch((err) => log.warn({ err, task: this.name }, 'could not schedule the background task'));
    } else {
      this.timer = setInterval(() => void this.run(), this.intervalMs);
      this.timer.unref();
    }
    return this;
  }

  private async schedule(cron: string): Promise<void> {
    const queue = periodicQueue(this.name);
    const boss = await startJobQueue();
    await createJobQueues(boss, [queue]);
    // A tick that fails is not retried: the next tick does the same work.
    await boss.schedule(queue, cron, null, { tz: 'UTC', retryLimit: 0 });
    defineJobHandler(queue, () => this.run());
  }

  /** Stops the local timer and waits for a run in progress (the schedule stays: it belongs to every instance). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.started = false;
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

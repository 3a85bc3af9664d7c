import type { Database } from '@/db/client';
import { getDb } from './db';
import { createJobQueues, periodicQueue } from './job-queues';
import { defineJobHandler, startJobQueue } from './jobs';
import { log } from './log';

/**
 * Background work on a timer. Whole minutes become a pg-boss cron schedule, so each tick runs once across instances,
 * unretried (the next tick does the same work); shorter intervals (tests) run on a local timer. The work must be safe
 * to race: a starting instance runs it at once to catch up. Runs in one process never overlap; failures are logged.
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

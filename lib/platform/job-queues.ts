import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { fromDrizzle, type PgBoss } from 'pg-boss';
import type { DatabaseHandle } from '@/db/client';
import { createJobBoss } from './job-boss';
import { log } from './log';

/**
 * Every queue the application sends to, created at migration rather than on first use: pg-boss looks a new queue up on
 * its own connection, and a job is sent inside the causing write's transaction, which on a one-connection database
 * (PGlite, the embedded socket) would deadlock. platform-jobs.test.ts checks that each owner's queue is listed.
 */
export const JOB_QUEUES = ['content.ingest', 'content.reindex', 'content.calibrate', 'mail', 'alert-webhook', 'billing.stripe_plan_move'] as const;

/** Where a job that failed its last attempt is copied (payload and origin), for operators to read or redrive. */
export const DEAD_LETTER_QUEUE = 'dead-letters';

/** Work on a timer (lib/platform/periodic-task.ts) runs as jobs of these queues, one run per cron tick across instances. */
export const periodicQueue = (task: string) => `periodic.${task}`;

export async function createJobQueues(boss: PgBoss, names: readonly string[]): Promise<void> {
  const existing = new Set((await boss.getQueues()).map((q) => q.name));
  if (!existing.has(DEAD_LETTER_QUEUE)) await boss.createQueue(DEAD_LETTER_QUEUE);
  for (const name of names) {
    if (!existing.has(name)) await boss.createQueue(name, { deadLetter: DEAD_LETTER_QUEUE, notify: true });
  }
}

/** The same dedupe key always names the same job id, and pg-boss inserts with `on conflict do nothing`. */
export function dedupeJobId(queue: string, key: string): string {
  const hex = createHash('sha256').update(`${queue}\0${key}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

interface TableJob {
  queue: string;
  payload: Record<string, unknown>;
  dedupe_key: string | null;
  run_at: Date | string;
  attempts_left: number;
}

/** Moves the jobs still waiting in the pre-pg-boss `jobs` table to pg-boss in one transaction, before 0027 drops it. */
async function carryOverTableJobs(handle: DatabaseHandle, boss: PgBoss): Promise<void> {
  const present = (await handle.db.execute(sql`select to_regclass('public.jobs') is not null as present`)).rows[0] as { present: boolean };
  if (!present.present) return;
  const moved = await handle.db.transaction(async (tx) => {
    const rows = (
      await tx.execute(sql`
        delete from jobs where status in ('queued', 'running') and queue in (${sql.join(
          JOB_QUEUES.map((q) => sql`${q}`),
          sql`, `,
        )})
        returning queue, payload, dedupe_key, run_at, greatest(max_attempts - attempts, 1) as attempts_left`)
    ).rows as unknown as TableJob[];
    for (const job of rows) {
      await boss.send(job.queue, job.payload, {
        db: fromDrizzle(tx, sql),
        id: job.dedupe_key ? dedupeJobId(job.queue, job.dedupe_key) : undefined,
        startAfter: new Date(job.run_at),
        retryLimit: Number(job.attempts_left) - 1,
        retryDelay: 2,
        retryBackoff: true,
        retryDelayMax: 600,
      });
    }
    return rows.length;
  });
  if (moved > 0) log.info({ moved }, 'job queue: moved the jobs waiting in the former jobs table to pg-boss');
}

/** pg-boss's schema (created or migrated by pg-boss, under its own advisory lock) and the application's queues. */
export async function installJobQueue(handle: DatabaseHandle, extraQueues: readonly string[] = []): Promise<void> {
  const boss = createJobBoss(handle, 'enqueue');
  await boss.start();
  try {
    await createJobQueues(boss, [...JOB_QUEUES, ...extraQueues]);
    await carryOverTableJobs(handle, boss);
  } finally {
    await boss.stop({ graceful: false });
  }
}

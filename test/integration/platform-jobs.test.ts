import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPostgres, type Database, type DatabaseHandle } from '@/db/client';
import { MIGRATIONS_FOLDER } from '@/db/migrate';
import { prepareDatabase } from '@/lib/platform/db';
import { CALIBRATE_QUEUE, INGEST_QUEUE, REINDEX_QUEUE } from '@/lib/engine';
import { ALERT_WEBHOOK_QUEUE } from '@/lib/alerts';
import { STRIPE_PLAN_MOVE_QUEUE } from '@/lib/billing';
import { MAIL_QUEUE } from '@/lib/platform/mail';
import { resetEnvForTesting } from '@/lib/platform/env';
import { createJobBoss } from '@/lib/platform/job-boss';
import { createJobQueues, DEAD_LETTER_QUEUE, dedupeJobId, installJobQueue, JOB_QUEUES } from '@/lib/platform/job-queues';
import { defineJobHandler, enqueueDebouncedJob, enqueueJob, runDueJobs, startJobQueue, startJobWorker, stopJobQueue } from '@/lib/platform/jobs';
import { PeriodicTask } from '@/lib/platform/periodic-task';
import { inTransaction } from '@/lib/platform/transactions';
import { createTestDatabase, newTestDatabaseName, testDbKind } from '../support/db';
import { createScratchDatabase } from '../support/scratch-database';
import { startEarlyInWindow } from '../support/debounce-window';

/**
 * The durable job queue (lib/platform/jobs.ts, pg-boss) on both databases: sent in a transaction, dedupe, claim,
 * heartbeat take-over and fencing, retry, dead letters, workers side by side, the worker's wake-up, cron intervals.
 */

let handle: DatabaseHandle & { url?: string };
let db: Database;
let boss: PgBoss;

/** The table of the hand-written queue as migration 0014 created it (0027 drops it): its CREATE statements. */
const FORMER_JOBS_TABLE = readFileSync(path.join(MIGRATIONS_FOLDER, '0014_publisher_content_jobs_earnings.sql'), 'utf8')
  .split('--> statement-breakpoint')
  .map((statement) => statement.trim())
  .filter((statement) => /^CREATE TABLE "jobs"|^CREATE (UNIQUE )?INDEX "jobs_/.test(statement));

const TEST_QUEUES = ['test.noop', 'test.record', 'test.nobody', 'test.flaky', 'test.lease', 'test.batch', 'test.count', 'test.wake'];

interface JobRow {
  state: string;
  retry_count: number;
  output: Record<string, unknown> | null;
  future: boolean;
}

async function jobRow(id: string): Promise<JobRow> {
  const result = await db.execute(sql`select state, retry_count, output, start_after > now() as future from pgboss.job where id = ${id}::uuid`);
  return result.rows[0] as unknown as JobRow;
}

const count = async (where: ReturnType<typeof sql>) =>
  Number(((await db.execute(sql`select count(*)::int as n from pgboss.job where ${where}`)).rows[0] as { n: number }).n);

beforeAll(async () => {
  process.env.JOB_LEASE_MS = '10000';
  resetEnvForTesting();
  handle = await createTestDatabase();
  db = handle.db;
  boss = await startJobQueue();
  await createJobQueues(boss, TEST_QUEUES);
});

afterAll(() => {
  delete process.env.JOB_LEASE_MS;
  resetEnvForTesting();
});

beforeEach(async () => {
  await db.execute(sql`delete from pgboss.job where name like 'test.%' or name = ${DEAD_LETTER_QUEUE}`);
});

describe('jobs', () => {
  it('every queue the application sends to is created with the schema (a send in a transaction must not look one up)', () => {
    expect([...JOB_QUEUES].sort()).toEqual([INGEST_QUEUE, REINDEX_QUEUE, CALIBRATE_QUEUE, MAIL_QUEUE, ALERT_WEBHOOK_QUEUE, STRIPE_PLAN_MOVE_QUEUE].sort());
  });

  it('a job sent in a rolled-back transaction does not exist; a dedupe key makes one job', async () => {
    await expect(
      inTransaction(db, async (tx) => {
        await enqueueJob(tx, { queue: 'test.noop', payload: {}, dedupeKey: 'rolled-back' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await count(sql`name = 'test.noop'`)).toBe(0);

    const first = await inTransaction(db, (tx) => enqueueJob(tx, { queue: 'test.noop', payload: { a: 1 }, dedupeKey: 'once' }));
    const second = await enqueueJob(db, { queue: 'test.noop', payload: { a: 2 }, dedupeKey: 'once' });
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
    const third = await enqueueJob(db, { queue: 'test.noop', payload: {} });
    expect(third.created).toBe(true);
    expect(third.id).not.toBe(first.id);
    expect(await count(sql`name = 'test.noop'`)).toBe(2);
  });

  it('a debounced send runs now, a second in the window waits for the next window, a third adds nothing; keys apart', async () => {
    const seconds = 10;
    await startEarlyInWindow(seconds);
    const send = (key: string) => enqueueDebouncedJob(db, { queue: 'test.noop', payload: { key }, key, seconds });
    expect([await send('a'), await send('a'), await send('a'), await send('b')]).toEqual([true, true, false, true]);
    const jobs = (
      await db.execute(sql`select data->>'key' as key, start_after > now() as waits from pgboss.job where name = 'test.noop' order by key, start_after`)
    ).rows;
    expect(jobs).toEqual([
      { key: 'a', waits: false },
      { key: 'a', waits: true },
      { key: 'b', waits: false },
    ]);
  });

  it('runs a due job once with its payload, leaves a future one, and only claims queues with a handler here', async () => {
    const seen: unknown[] = [];
    defineJobHandler('test.record', async (payload, ctx) => {
      seen.push({ payload, attempt: ctx.attempt });
    });
    const due = await enqueueJob(db, { queue: 'test.record', payload: { n: 1 } });
    const later = await enqueueJob(db, { queue: 'test.record', payload: { n: 2 }, runAt: new Date(Date.now() + 3_600_000) });
    const orphan = await enqueueJob(db, { queue: 'test.nobody', payload: {} });
    expect(await runDueJobs({ queues: ['test.record', 'test.nobody'] })).toBe(1);
    expect(await runDueJobs({ queues: ['test.record', 'test.nobody'] })).toBe(0);
    expect(seen).toEqual([{ payload: { n: 1 }, attempt: 1 }]);
    expect((await jobRow(due.id)).state).toBe('completed');
    expect((await jobRow(later.id)).state).toBe('created');
    expect((await jobRow(orphan.id)).state).toBe('created');
  });

  it('a failing job is retried with backoff, fails for good after maxAttempts, and is copied to the dead letters', async () => {
    let calls = 0;
    defineJobHandler('test.flaky', async () => {
      calls++;
      throw new Error(`boom ${calls}`);
    });
    const job = await enqueueJob(db, { queue: 'test.flaky', payload: { order: 7 }, maxAttempts: 2 });
    expect(await runDueJobs({ queues: ['test.flaky'] })).toBe(1);
    const afterFirst = await jobRow(job.id);
    // retry_count counts the claims after the first: it becomes 1 when the retry is taken.
    expect(afterFirst).toMatchObject({ state: 'retry', retry_count: 0, output: { message: 'boom 1' } });
    expect(afterFirst.future).toBe(true);
    // Not due yet: nothing runs.
    expect(await runDueJobs({ queues: ['test.flaky'] })).toBe(0);
    await db.execute(sql`update pgboss.job set start_after = now() where id = ${job.id}::uuid`);
    expect(await runDueJobs({ queues: ['test.flaky'] })).toBe(1);
    expect(await jobRow(job.id)).toMatchObject({ state: 'failed', retry_count: 1, output: { message: 'boom 2' } });
    expect(calls).toBe(2);
    const dead = (await db.execute(sql`select data from pgboss.job where name = ${DEAD_LETTER_QUEUE}`)).rows;
    expect(dead).toEqual([{ data: { order: 7 } }]);
  });

  it("a dead worker's job is retried once its heartbeats stop, and the dead worker's late completion changes nothing", async () => {
    const runs: number[] = [];
    let release: () => void = () => {};
    defineJobHandler('test.lease', async (_payload, ctx) => {
      runs.push(ctx.attempt);
      if (ctx.attempt === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const job = await enqueueJob(db, { queue: 'test.lease', payload: {} });
    // Worker 1 claims, then "hangs" (its heartbeat timer, every 3 s, must not matter: its last beat is moved back).
    const hung = runDueJobs({ queues: ['test.lease'] });
    await expect.poll(() => runs.length).toBe(1);
    await db.execute(sql`update pgboss.job set heartbeat_on = now() - interval '1 hour' where id = ${job.id}::uuid`);
    // The monitor (every instance's, every few seconds) finds the silent job and fails the attempt into a retry.
    await boss.supervise('test.lease');
    expect(await jobRow(job.id)).toMatchObject({ state: 'retry', retry_count: 0, output: { value: { message: 'job heartbeat timeout' } } });
    await db.execute(sql`update pgboss.job set start_after = now() where id = ${job.id}::uuid`);
    expect(await runDueJobs({ queues: ['test.lease'] })).toBe(1);
    expect(runs).toEqual([1, 2]);
    expect(await jobRow(job.id)).toMatchObject({ state: 'completed', retry_count: 1 });
    // The first worker wakes up and finishes while attempt 2 is (again) running: its completion is fenced off.
    await db.execute(sql`update pgboss.job set state = 'active', completed_on = null where id = ${job.id}::uuid`);
    release();
    await hung;
    expect((await jobRow(job.id)).state).toBe('active');
  });

  it('the jobs a worker claimed but has not started keep beating while a long job runs before them', async () => {
    const ran: string[] = [];
    defineJobHandler('test.batch', async (payload: { name: string }) => {
      ran.push(payload.name);
      await new Promise((resolve) => setTimeout(resolve, 4_000));
    });
    for (const name of ['a', 'b', 'c']) await enqueueJob(db, { queue: 'test.batch', payload: { name } });
    // One worker claims all three under a 10 s heartbeat and runs them one after another, 4 s each: the last waits
    // longer than a heartbeat. The monitor passing meanwhile must fail none, and another worker must find none.
    const first = runDueJobs({ queues: ['test.batch'], limit: 3 });
    await expect.poll(() => ran.length).toBe(1);
    const other = testDbKind() === 'postgres' && handle.url ? await openPostgres(handle.url, 2) : null;
    const otherBoss = other ? await createJobBoss(other, 'enqueue').start() : boss;
    try {
      for (let i = 0; i < 11; i++) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await boss.supervise('test.batch');
        expect(await runDueJobs({ queues: ['test.batch'], boss: otherBoss })).toBe(0);
      }
    } finally {
      if (other) {
        await otherBoss.stop({ graceful: false, close: false });
        await other.close();
      }
    }
    expect(await first).toBe(3);
    expect([...ran].sort()).toEqual(['a', 'b', 'c']);
    expect(await count(sql`name = 'test.batch' and state = 'completed' and retry_count = 0`)).toBe(3);
  });

  it('workers claiming side by side never run the same job twice', async () => {
    const counts = new Map<string, number>();
    defineJobHandler('test.count', async (payload: { i: number }) => {
      counts.set(String(payload.i), (counts.get(String(payload.i)) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 2));
    });
    for (let i = 0; i < 40; i++) await enqueueJob(db, { queue: 'test.count', payload: { i } });
    // On PostgreSQL each worker has its own pool and pg-boss (another instance); PGlite has one connection.
    const extra: { handle: DatabaseHandle; boss: PgBoss }[] = [];
    const bosses: PgBoss[] = [boss];
    if (testDbKind() === 'postgres' && handle.url) {
      for (let i = 0; i < 3; i++) {
        const other = await openPostgres(handle.url, 2);
        const otherBoss = await createJobBoss(other, 'enqueue').start();
        extra.push({ handle: other, boss: otherBoss });
        bosses.push(otherBoss);
      }
    } else {
      bosses.push(boss, boss, boss);
    }
    try {
      const drain = async (workerBoss: PgBoss) => {
        while ((await runDueJobs({ boss: workerBoss, queues: ['test.count'], limit: 3 })) > 0) {
          /* keep claiming */
        }
      };
      await Promise.all(bosses.map(drain));
    } finally {
      for (const e of extra) {
        await e.boss.stop({ graceful: false, close: false });
        await e.handle.close();
      }
    }
    expect(counts.size).toBe(40);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(await count(sql`name = 'test.count' and state = 'completed'`)).toBe(40);
  });

  it('the worker wakes when a job commits (LISTEN/NOTIFY), well before its next poll', async () => {
    const started: number[] = [];
    defineJobHandler('test.wake', async () => void started.push(performance.now()));
    const worker = await startJobWorker();
    try {
      // Let the worker's first (empty) poll pass, so only a notification can bring the job in early.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const committed = performance.now();
      await inTransaction(db, (tx) => enqueueJob(tx, { queue: 'test.wake', payload: {} }));
      await expect.poll(() => started.length, { timeout: 5_000, interval: 20 }).toBe(1);
      // JOB_POLL_MS is 1 s here; a wake-up by notification takes a few milliseconds.
      expect(started[0]! - committed).toBeLessThan(500);
    } finally {
      await worker.stop();
      boss = await startJobQueue();
    }
  });

  it('a task on an interval of whole minutes is a cron schedule; a shorter one runs on a local timer', () => {
    expect([60_000, 600_000, 3_600_000, 7_200_000, 90_000, 7 * 60_000, 500].map(PeriodicTask.cronFor)).toEqual([
      '* * * * *',
      '*/10 * * * *',
      '0 * * * *',
      '0 */2 * * *',
      null,
      null,
      null,
    ]);
  });

  it('a job sent inside a transaction before the queue started is refused with the reason, not left waiting', async () => {
    await stopJobQueue();
    try {
      await expect(inTransaction(db, (tx) => enqueueJob(tx, { queue: 'test.noop', payload: {} }))).rejects.toThrow(/job queue is not started/);
    } finally {
      boss = await startJobQueue();
    }
  });

  it("the jobs waiting in the former queue's table move to pg-boss once, with the attempts they had left", async () => {
    // Migration 0027 dropped the table; a database of an earlier version still has it, as migration 0014 made it.
    expect((await db.execute(sql`select to_regclass('public.jobs') as t`)).rows[0]).toEqual({ t: null });
    for (const statement of FORMER_JOBS_TABLE) await db.execute(sql.raw(statement));
    try {
      await db.execute(sql`delete from pgboss.job where name = 'mail'`);
      await db.execute(sql`
        insert into jobs (id, queue, payload, dedupe_key, status, attempts, max_attempts, run_at) values
          ('job_waiting', 'mail', '{"messageId":"msg_1"}', 'mail:msg_1', 'queued', 2, 8, now()),
          ('job_done', 'mail', '{"messageId":"msg_2"}', 'mail:msg_2', 'done', 1, 8, now()),
          ('job_unknown', 'test.gone', '{}', null, 'queued', 0, 5, now())`);
      await installJobQueue(handle);
      await installJobQueue(handle);
      const moved = (await db.execute(sql`select id, data, retry_limit, state from pgboss.job where name = 'mail'`)).rows;
      expect(moved).toEqual([{ id: dedupeJobId('mail', 'mail:msg_1'), data: { messageId: 'msg_1' }, retry_limit: 5, state: 'created' }]);
      // A finished job stays for the record; a queue this version no longer has is left where it was.
      expect((await db.execute(sql`select id from jobs order by id`)).rows).toEqual([{ id: 'job_done' }, { id: 'job_unknown' }]);
    } finally {
      await db.execute(sql`drop table if exists jobs`);
      await db.execute(sql`delete from pgboss.job where name = 'mail'`);
    }
  });

  it.runIf(testDbKind() === 'postgres')(
    'a database upgraded from a version with the former table keeps its waiting jobs: moved to pg-boss, then the table is dropped',
    async () => {
      const scratch = await createScratchDatabase(newTestDatabaseName());
      const old = await openPostgres(scratch.url, 2);
      const folder = mkdtempSync(path.join(os.tmpdir(), 'almanac-migrations-before-0027-'));
      try {
        // The earlier version: every migration before 0027, and a mail job waiting in its table.
        const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
        const before = journal.entries.slice(
          0,
          journal.entries.findIndex((entry) => entry.tag.startsWith('0027_')),
        );
        expect(before.at(-1)?.tag).toBe('0026_kb_gate_threshold');
        mkdirSync(path.join(folder, 'meta'));
        writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: before }));
        for (const { tag } of before) cpSync(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), path.join(folder, `${tag}.sql`));
        await migratePostgres(old.db, { migrationsFolder: folder });
        await old.db.execute(
          sql`insert into jobs (id, queue, payload, dedupe_key, status, attempts, max_attempts) values ('job_upgrade', 'mail', '{"messageId":"msg_9"}', 'mail:msg_9', 'queued', 1, 5)`,
        );

        // This version's start (or `npm run db:migrate`): pg-boss and the carry-over first, then the migrations.
        await prepareDatabase(old);
        expect((await old.db.execute(sql`select to_regclass('public.jobs') as t`)).rows[0]).toEqual({ t: null });
        const moved = (await old.db.execute(sql`select id, data, retry_limit, state from pgboss.job where name = 'mail'`)).rows;
        expect(moved).toEqual([{ id: dedupeJobId('mail', 'mail:msg_9'), data: { messageId: 'msg_9' }, retry_limit: 3, state: 'created' }]);
      } finally {
        rmSync(folder, { recursive: true, force: true });
        await old.close();
        await scratch.drop();
      }
    },
  );
});

import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPostgres, type Database, type DatabaseHandle } from '@/db/client';
import { inTransaction } from '@/lib/platform/transactions';
import { defineJobHandler, enqueueJob, runDueJobs } from '@/lib/platform/jobs';
import { createTestDatabase, testDbKind } from '../support/db';

/** The durable job queue (lib/platform/jobs.ts) on both databases: enqueue in a transaction, dedupe, claim, lease, retry. */

let handle: DatabaseHandle & { url?: string };
let db: Database;

interface JobRow {
  status: string;
  attempts: number;
  last_error: string | null;
  future: boolean;
}

async function jobRow(id: string): Promise<JobRow> {
  const result = await db.execute(sql`select status, attempts, last_error, run_at > now() as future from jobs where id = ${id}`);
  return result.rows[0] as unknown as JobRow;
}

beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
});

beforeEach(async () => {
  await db.execute(sql`delete from jobs`);
});

describe('jobs', () => {
  it('a job enqueued in a rolled-back transaction does not exist; a dedupe key makes one job', async () => {
    await expect(
      inTransaction(db, async (tx) => {
        await enqueueJob(tx, { queue: 'test.noop', payload: {}, dedupeKey: 'rolled-back' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await db.execute(sql`select count(*)::int as n from jobs`)).rows[0]).toEqual({ n: 0 });

    const first = await inTransaction(db, (tx) => enqueueJob(tx, { queue: 'test.noop', payload: { a: 1 }, dedupeKey: 'once' }));
    const second = await enqueueJob(db, { queue: 'test.noop', payload: { a: 2 }, dedupeKey: 'once' });
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
    const third = await enqueueJob(db, { queue: 'test.noop', payload: {} });
    expect(third.created).toBe(true);
    expect(third.id).not.toBe(first.id);
  });

  it('runs a due job once with its payload, leaves a future one, and only claims queues with a handler here', async () => {
    const seen: unknown[] = [];
    defineJobHandler('test.record', async (payload, ctx) => {
      seen.push({ payload, attempt: ctx.attempt });
    });
    const due = await enqueueJob(db, { queue: 'test.record', payload: { n: 1 } });
    const later = await enqueueJob(db, { queue: 'test.record', payload: { n: 2 }, runAt: new Date(Date.now() + 3_600_000) });
    const orphan = await enqueueJob(db, { queue: 'test.nobody', payload: {} });
    expect(await runDueJobs({ db })).toBe(1);
    expect(await runDueJobs({ db })).toBe(0);
    expect(seen).toEqual([{ payload: { n: 1 }, attempt: 1 }]);
    expect((await jobRow(due.id)).status).toBe('done');
    expect((await jobRow(later.id)).status).toBe('queued');
    expect((await jobRow(orphan.id)).status).toBe('queued');
  });

  it('a failing job is retried with backoff and fails for good after maxAttempts', async () => {
    let calls = 0;
    defineJobHandler('test.flaky', async () => {
      calls++;
      throw new Error(`boom ${calls}`);
    });
    const job = await enqueueJob(db, { queue: 'test.flaky', payload: {}, maxAttempts: 2 });
    expect(await runDueJobs({ db, queues: ['test.flaky'] })).toBe(1);
    const afterFirst = await jobRow(job.id);
    expect(afterFirst).toMatchObject({ status: 'queued', attempts: 1, last_error: 'boom 1' });
    expect(afterFirst.future).toBe(true);
    // Not due yet: nothing runs.
    expect(await runDueJobs({ db, queues: ['test.flaky'] })).toBe(0);
    await db.execute(sql`update jobs set run_at = now() where id = ${job.id}`);
    expect(await runDueJobs({ db, queues: ['test.flaky'] })).toBe(1);
    expect(await jobRow(job.id)).toMatchObject({ status: 'failed', attempts: 2, last_error: 'boom 2' });
    expect(calls).toBe(2);
  });

  it("a dead worker's job is taken over when its lease expires, and the dead worker's late completion changes nothing", async () => {
    const runs: number[] = [];
    let release: () => void = () => {};
    defineJobHandler('test.lease', async (_payload, ctx) => {
      runs.push(ctx.attempt);
      if (ctx.attempt === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const job = await enqueueJob(db, { queue: 'test.lease', payload: {} });
    // Worker 1 claims with a lease too short to renew in time, then "hangs".
    const hung = runDueJobs({ db, queues: ['test.lease'], leaseMs: 1 });
    await expect.poll(() => runs.length).toBe(1);
    // Stop its renewals from mattering: the lease is in the past.
    await db.execute(sql`update jobs set locked_until = now() - interval '1 second' where id = ${job.id}`);
    expect(await runDueJobs({ db, queues: ['test.lease'] })).toBe(1);
    expect(runs).toEqual([1, 2]);
    expect(await jobRow(job.id)).toMatchObject({ status: 'done', attempts: 2 });
    // The first worker wakes up and finishes: its attempt was taken over, so its write is fenced off.
    await db.execute(sql`update jobs set status = 'running', locked_until = now() + interval '1 hour' where id = ${job.id}`);
    release();
    await hung;
    expect((await jobRow(job.id)).status).toBe('running');
  });

  it('the jobs a worker claimed but has not started keep their lease while a long job runs before them', async () => {
    const ran: string[] = [];
    defineJobHandler('test.batch', async (payload: { name: string }) => {
      ran.push(payload.name);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    });
    for (const name of ['a', 'b', 'c']) await enqueueJob(db, { queue: 'test.batch', payload: { name } });
    // One worker claims all three under a 1 s lease and runs them one after another, 1.5 s each: the later two wait
    // longer than a lease. Another worker polling meanwhile must find nothing to take over.
    const first = runDueJobs({ db, queues: ['test.batch'], leaseMs: 1_000 });
    await expect.poll(() => ran.length).toBe(1);
    const other = testDbKind() === 'postgres' && handle.url ? await openPostgres(handle.url, 2) : null;
    try {
      for (let i = 0; i < 6; i++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(await runDueJobs({ db: other?.db ?? db, queues: ['test.batch'], leaseMs: 1_000 })).toBe(0);
      }
    } finally {
      await other?.close();
    }
    expect(await first).toBe(3);
    expect([...ran].sort()).toEqual(['a', 'b', 'c']);
  });

  it('workers polling side by side never run the same job twice', async () => {
    const counts = new Map<string, number>();
    defineJobHandler('test.count', async (payload: { i: number }) => {
      counts.set(String(payload.i), (counts.get(String(payload.i)) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 2));
    });
    for (let i = 0; i < 40; i++) await enqueueJob(db, { queue: 'test.count', payload: { i } });
    // On PostgreSQL each worker has its own pool (another instance's connections); PGlite has one connection.
    const extra: DatabaseHandle[] = [];
    const dbs: Database[] = [db];
    if (testDbKind() === 'postgres' && handle.url) {
      for (let i = 0; i < 3; i++) {
        const other = await openPostgres(handle.url, 2);
        extra.push(other);
        dbs.push(other.db);
      }
    } else {
      dbs.push(db, db, db);
    }
    try {
      const drain = async (workerDb: Database) => {
        while ((await runDueJobs({ db: workerDb, queues: ['test.count'], limit: 3 })) > 0) {
          /* keep claiming */
        }
      };
      await Promise.all(dbs.map(drain));
    } finally {
      await Promise.all(extra.map((h) => h.close()));
    }
    expect(counts.size).toBe(40);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect((await db.execute(sql`select count(*)::int as n from jobs where status = 'done'`)).rows[0]).toEqual({ n: 40 });
  });
});

import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '@/lib/platform/db';
import { getDb } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { randomBase62 } from '@/lib/platform/ids';
import { log } from '@/lib/platform/log';
import { countJobFailure } from '@/lib/platform/metrics';
import { processSingleton, replaceProcessSingleton } from '@/lib/platform/singleton';

/**
 * bench/jobs's baseline: the hand-written queue that pg-boss replaced (lib/platform/jobs.ts before it), kept as it was
 * so the benchmark measures both in one run. It uses the `jobs` table, which the schema still has.
 *
 * Durable background jobs: one table (`jobs`, db/schema.ts) claimed with `FOR UPDATE SKIP LOCKED` under a lease.
 *
 * Why not pg-boss or graphile-worker: both need a pool of real PostgreSQL connections (LISTEN/NOTIFY, advisory locks,
 * several sessions at once), and the embedded database is PGlite, one connection inside the process. One table and
 * three statements run the same on both databases (docs/architecture.md, "Background jobs").
 *
 * Guarantees: a job is enqueued in the caller's transaction, so it exists iff the write that caused it committed;
 * a claim is one UPDATE over `SKIP LOCKED` rows, so two instances never take the same job at once; a claim carries a
 * lease (`locked_until`, renewed until the batch it was claimed in is done) and its attempt number, so a worker killed mid-job loses
 * it when the lease expires and another worker takes it over, and the dead worker's late completion (if it was only
 * paused) changes nothing. Delivery is therefore at-least-once: handlers must be idempotent.
 */

export interface JobSpec {
  queue: string;
  payload: Record<string, unknown>;
  dedupeKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

export interface JobContext {
  jobId: string;
  attempt: number;
}

export type JobHandler = (payload: any, ctx: JobContext) => Promise<void>;

const handlers = processSingleton('bench-table-job-handlers', () => new Map<string, JobHandler>());
const workerId = processSingleton('bench-table-job-worker-id', () => `${hostname()}:${process.pid}:${randomBase62(6)}`);

const rows = <T>(result: { rows: unknown[] }) => result.rows as T[];

/** Inserts in the caller's transaction (pass the tx) so the job exists iff the write that caused it committed; a dedupeKey already present → no new job. */
export async function enqueueJob(db: Executor, spec: JobSpec): Promise<{ id: string; created: boolean }> {
  const id = `job_${randomBase62(16)}`;
  const runAt = spec.runAt ?? new Date();
  const inserted = rows<{ id: string }>(
    await db.execute(sql`
      insert into jobs (id, queue, payload, dedupe_key, run_at, max_attempts)
      values (${id}, ${spec.queue}, ${JSON.stringify(spec.payload)}::jsonb, ${spec.dedupeKey ?? null}, ${runAt.toISOString()}::timestamptz,
              ${spec.maxAttempts ?? 5})
      on conflict (dedupe_key) do nothing
      returning id`),
  );
  if (inserted.length > 0) return { id, created: true };
  const existing = rows<{ id: string }>(await db.execute(sql`select id from jobs where dedupe_key = ${spec.dedupeKey ?? null}`));
  return { id: existing[0]?.id ?? id, created: false };
}

/** Registers the handler of a queue in this process; runDueJobs claims only queues that have one. */
export function defineJobHandler(queue: string, handler: JobHandler): void {
  handlers.set(queue, handler);
}

interface ClaimedJob {
  id: string;
  queue: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

/** Seconds before attempt n+1: 2, 4, 8 … capped at 10 minutes. */
export function retryDelaySeconds(attempt: number): number {
  return Math.min(600, 2 ** Math.max(1, attempt));
}

/**
 * One statement claims up to `limit` due jobs: queued ones whose time has come, and running ones whose lease
 * expired (their worker died). SKIP LOCKED lets instances claim side by side without waiting on or taking each
 * other's rows; the attempt number taken here fences every later write about this run.
 */
async function claimJobs(db: Database, queues: string[], limit: number, leaseMs: number): Promise<ClaimedJob[]> {
  if (queues.length === 0) return [];
  return rows<ClaimedJob>(
    await db.execute(sql`
      update jobs set status = 'running', attempts = attempts + 1, locked_by = ${workerId},
        locked_until = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
      where id in (
        select id from jobs
        where queue in (${sql.join(queues.map((q) => sql`${q}`), sql`, `)})
          and ((status = 'queued' and run_at <= now()) or (status = 'running' and locked_until < now()))
        order by run_at
        limit ${limit}
        for update skip locked)
      returning id, queue, payload, attempts, max_attempts`),
  );
}

/** Writes about a run apply only while this worker still holds that attempt (the lease was not taken over). */
const ownRun = (job: ClaimedJob) => sql`id = ${job.id} and status = 'running' and locked_by = ${workerId} and attempts = ${job.attempts}`;

async function finishJob(db: Database, job: ClaimedJob, error: unknown): Promise<void> {
  if (error === undefined) {
    await db.execute(sql`update jobs set status = 'done', finished_at = now(), locked_until = null, updated_at = now() where ${ownRun(job)}`);
    return;
  }
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
  countJobFailure(job.queue, job.attempts >= job.max_attempts);
  if (job.attempts >= job.max_attempts) {
    await db.execute(sql`
      update jobs set status = 'failed', last_error = ${message}, finished_at = now(), locked_until = null, updated_at = now()
      where ${ownRun(job)}`);
    log.error({ err: error, jobId: job.id, queue: job.queue, attempt: job.attempts }, 'job failed for good');
    return;
  }
  await db.execute(sql`
    update jobs set status = 'queued', last_error = ${message}, locked_until = null, updated_at = now(),
      run_at = now() + ${retryDelaySeconds(job.attempts)} * interval '1 second'
    where ${ownRun(job)}`);
  log.warn({ err: error, jobId: job.id, queue: job.queue, attempt: job.attempts }, 'job failed; retrying later');
}

async function runJob(db: Database, job: ClaimedJob): Promise<void> {
  const handler = handlers.get(job.queue);
  if (job.attempts > job.max_attempts || !handler) {
    // Taken over after a lease expired once too often (a job that kills its worker), or no handler here any more.
    await finishJob(db, job, new Error(handler ? 'lease expired on the last attempt' : `no handler for ${job.queue}`));
    return;
  }
  let failure: unknown = undefined;
  try {
    await handler(job.payload, { jobId: job.id, attempt: job.attempts });
  } catch (error) {
    failure = error ?? new Error('job failed');
  }
  await finishJob(db, job, failure);
}

/** Claims due jobs (FOR UPDATE SKIP LOCKED + a lease so a killed worker's job is taken over after the lease), runs them, retries with backoff, marks done/failed. */
export async function runDueJobs(options: { queues?: string[]; limit?: number; db?: Database; leaseMs?: number } = {}): Promise<number> {
  const db = options.db ?? (await getDb());
  const leaseMs = options.leaseMs ?? getEnv().JOB_LEASE_MS;
  const queues = (options.queues ?? [...handlers.keys()]).filter((q) => handlers.has(q));
  const claimed = await claimJobs(db, queues, options.limit ?? 5, leaseMs);
  if (claimed.length === 0) return 0;
  // Renew the leases of the whole batch until it is done: the running job's, and those of the jobs waiting their turn
  // behind it, which another instance would otherwise take over (and run twice) when a long job outlasts a lease.
  // A finished job no longer matches ownRun, so only the unfinished are renewed.
  const renew = setInterval(() => {
    void db
      .execute(sql`update jobs set locked_until = now() + ${leaseMs} * interval '1 millisecond' where ${sql.join(claimed.map((job) => sql`(${ownRun(job)})`), sql` or `)}`)
      .catch((err) => log.warn({ err }, 'could not renew job leases'));
  }, Math.max(250, Math.floor(leaseMs / 3)));
  renew.unref();
  try {
    // One after another: ingestion is CPU-bound and the machine is shared; instances give parallelism.
    for (const job of claimed) await runJob(db, job);
  } finally {
    clearInterval(renew);
  }
  return claimed.length;
}

/** Jobs waiting or running, by queue: the queue depth of /metrics and of readiness (lib/health.ts). */
export async function queueDepth(db: Database): Promise<Record<string, number>> {
  const result = await db.execute(sql`select queue, count(*)::int as n from jobs where status in ('queued', 'running') group by queue`);
  return Object.fromEntries((result.rows as { queue: string; n: number }[]).map((row) => [row.queue, Number(row.n)]));
}

/** Removes finished jobs older than `days` (kept a while for operators). */
export async function purgeFinishedJobs(db: Database, days = 7): Promise<void> {
  await db.execute(sql`delete from jobs where finished_at < now() - ${days} * interval '1 day' and status in ('done', 'failed')`);
}

export interface JobWorker {
  stop(): Promise<void>;
}

/** The polling loop started with the server (instrumentation.ts), stopped on shutdown. One per process. */
export function startJobWorker(options: { pollMs?: number; leaseMs?: number } = {}): JobWorker {
  return processSingleton('bench-table-job-worker', () => {
    const pollMs = options.pollMs ?? getEnv().JOB_POLL_MS;
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    let current: Promise<void> = Promise.resolve();
    let lastPurge = 0;
    const tick = async () => {
      try {
        // Drain: keep claiming while there is work, then wait a poll interval.
        while (!stopped && (await runDueJobs({ leaseMs: options.leaseMs })) > 0) {
          /* next batch */
        }
        if (Date.now() - lastPurge > 3_600_000) {
          lastPurge = Date.now();
          await purgeFinishedJobs(await getDb());
        }
      } catch (err) {
        log.warn({ err }, 'job worker poll failed; trying again');
      }
    };
    const schedule = () => {
      if (stopped) return;
      timer = setTimeout(() => {
        current = tick().then(schedule);
      }, pollMs);
      timer.unref();
    };
    current = tick().then(schedule);
    return {
      async stop() {
        stopped = true;
        if (timer) clearTimeout(timer);
        await current;
        replaceProcessSingleton('bench-table-job-worker', undefined);
      },
    };
  });
}

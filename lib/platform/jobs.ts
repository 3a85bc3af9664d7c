import { sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { fromDrizzle, type JobResult, type JobWithMetadata, type PgBoss } from 'pg-boss';
import type { DatabaseHandle, Executor } from './db';
import { getDatabaseHandle } from './db';
import { createJobBoss, JOB_SCHEMA, jobTimings, type JobBossMode } from './job-boss';
import { dedupeJobId } from './job-queues';
import { log } from './log';
import { countJobFailure } from './metrics';
import { peekProcessSingleton, processSingleton, replaceProcessSingleton } from './singleton';

/**
 * Durable background jobs on pg-boss (docs/architecture.md, "Background jobs"). A job is sent in the caller's
 * transaction, so it exists iff the causing write committed; claims use `SKIP LOCKED`, so no job runs twice at once; a
 * worker killed mid-job loses it one heartbeat plus one monitor pass later, and its late completion is fenced off by
 * its attempt number. Failures back off, then dead-letter. Delivery is at least once: handlers must be idempotent.
 */

export interface JobSpec {
  queue: string;
  payload: Record<string, unknown>;
  /** A second job with the same queue and key, while the first is kept (7 days after it finished), is not created. */
  dedupeKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

interface JobContext {
  jobId: string;
  attempt: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JobHandler = (payload: any, ctx: JobContext) => Promise<void>;

const handlers = processSingleton('job-handlers', () => new Map<string, JobHandler>());
const BOSS = 'job-boss';

interface RunningBoss {
  boss: PgBoss;
  mode: JobBossMode;
}

/** Start it before the first transaction that sends a job: starting reads pg-boss's tables on its own connection. */
export function startJobQueue(mode: JobBossMode = 'enqueue'): Promise<PgBoss> {
  const running = peekProcessSingleton<Promise<RunningBoss>>(BOSS);
  if (running) {
    return running.then(async (current) => {
      if (current.mode === 'worker' || mode === 'enqueue') return current.boss;
      // A worker was asked for where a send-only queue runs: start the full one in its place.
      await stopJobQueue();
      return startJobQueue(mode);
    });
  }
  const starting = getDatabaseHandle().then(async (handle) => ({ boss: await createJobBoss(handle, mode).start(), mode }));
  starting.catch(() => replaceProcessSingleton(BOSS, undefined));
  replaceProcessSingleton(BOSS, starting);
  return starting.then((current) => current.boss);
}

export async function stopJobQueue(timeoutMs = 8_000): Promise<void> {
  const running = peekProcessSingleton<Promise<RunningBoss>>(BOSS);
  replaceProcessSingleton(BOSS, undefined);
  replaceProcessSingleton('job-worker', undefined);
  workedQueues.clear();
  const current = await running?.catch(() => undefined);
  await current?.boss.stop({ graceful: true, timeout: timeoutMs, close: false });
}

function startedBoss(): Promise<PgBoss> | undefined {
  return peekProcessSingleton<Promise<RunningBoss>>(BOSS)?.then((current) => current.boss);
}

/** Seconds before attempt n+1: 2, 4, 8 … capped at 10 minutes (pg-boss adds jitter). */
const RETRY = { retryDelay: 2, retryBackoff: true, retryDelayMax: 600 } as const;

async function bossFor(db: Executor, queue: string): Promise<PgBoss> {
  const starting = startedBoss();
  if (!starting && db instanceof PgTransaction) {
    throw new Error(`the job queue is not started: call startJobQueue() before sending "${queue}" inside a transaction`);
  }
  return starting ?? startJobQueue();
}

const sendOptions = (db: Executor, spec: Pick<JobSpec, 'runAt' | 'maxAttempts'>, id?: string) => ({
  db: fromDrizzle(db, sql),
  id,
  startAfter: spec.runAt,
  retryLimit: (spec.maxAttempts ?? 5) - 1,
  ...RETRY,
  heartbeatSeconds: jobTimings().heartbeatSeconds,
});

/** Pass the caller's transaction; a dedupeKey already present creates no job. */
export async function enqueueJob(db: Executor, spec: JobSpec): Promise<{ id: string; created: boolean }> {
  const boss = await bossFor(db, spec.queue);
  const id = spec.dedupeKey ? dedupeJobId(spec.queue, spec.dedupeKey) : undefined;
  const sent = await boss.send(spec.queue, spec.payload, sendOptions(db, spec, id));
  return sent ? { id: sent, created: true } : { id: id!, created: false };
}

/**
 * At most one job per key in each window of `seconds` (pg-boss's sendDebounced, windows aligned to the epoch): a send
 * while the window's job exists schedules one for the start of the next window, and one already there covers it, so
 * every send is followed by a run that starts after it. True when this send created a job.
 */
export async function enqueueDebouncedJob(
  db: Executor,
  spec: Pick<JobSpec, 'queue' | 'payload' | 'maxAttempts'> & { key: string; seconds: number },
): Promise<boolean> {
  const boss = await bossFor(db, spec.queue);
  return (await boss.sendDebounced(spec.queue, spec.payload, sendOptions(db, spec), spec.seconds, spec.key)) !== null;
}

export function defineJobHandler(queue: string, handler: JobHandler): void {
  const isNew = !handlers.has(queue);
  handlers.set(queue, handler);
  const worker = peekProcessSingleton<Promise<JobWorker>>('job-worker');
  if (isNew && worker) void worker.then(() => workQueue(queue)).catch((err) => log.warn({ err, queue }, 'job queue: could not start taking jobs'));
}

type ClaimedJob = JobWithMetadata<Record<string, unknown>>;

async function runHandler(job: ClaimedJob): Promise<unknown> {
  const attempt = job.retryCount + 1;
  try {
    await handlers.get(job.name)!(job.data, { jobId: job.id, attempt });
    return undefined;
  } catch (error) {
    const final = job.retryCount >= job.retryLimit;
    countJobFailure(job.name, final);
    if (final) log.error({ err: error, jobId: job.id, queue: job.name, attempt }, 'job failed for good');
    else log.warn({ err: error, jobId: job.id, queue: job.name, attempt }, 'job failed; retrying later');
    return error ?? new Error('job failed');
  }
}

const failureOutput = (error: unknown) => ({ message: (error instanceof Error ? error.message : String(error)).slice(0, 2000) });

export async function runDueJobs(options: { queues?: string[]; limit?: number; boss?: PgBoss } = {}): Promise<number> {
  const boss = options.boss ?? (await startJobQueue());
  let budget = options.limit ?? 5;
  let claimed = 0;
  for (const queue of (options.queues ?? [...handlers.keys()]).filter((q) => handlers.has(q))) {
    if (budget <= 0) break;
    const jobs = await boss.fetch<Record<string, unknown>>(queue, { batchSize: budget, includeMetadata: true });
    budget -= jobs.length;
    claimed += jobs.length;
    if (jobs.length === 0) continue;
    // Heartbeats for the whole batch, or the jobs behind a long one would look abandoned and be retried elsewhere.
    const unsettled = new Set(jobs);
    const beat = setInterval(
      () => {
        if (unsettled.size > 0) void boss.touch(queue, [...unsettled].map(attemptOf)).catch((err) => log.warn({ err }, 'job queue: heartbeat failed'));
      },
      (jobTimings().heartbeatSeconds * 1000) / 3,
    );
    beat.unref();
    try {
      // One after another: ingestion is CPU-bound and the machine is shared; instances give parallelism.
      for (const job of jobs) {
        const error = await runHandler(job);
        unsettled.delete(job);
        if (error === undefined) await boss.complete(queue, attemptOf(job));
        else await boss.fail(queue, attemptOf(job), failureOutput(error));
      }
    } finally {
      clearInterval(beat);
    }
  }
  return claimed;
}

/** The attempt a worker holds: pg-boss ignores its completion or failure once the job was retried elsewhere. */
const attemptOf = (job: ClaimedJob) => ({ id: job.id, retryCount: job.retryCount });

/** Jobs one worker claims at a time per queue: a backlog drains in full batches, back to back (`burstWhenBatchFull`). */
const WORK_BATCH = 5;

/** Queues this process's worker takes jobs from: a handler defined while the worker starts is registered once. */
const workedQueues = processSingleton('job-worked-queues', () => new Set<string>());

async function workQueue(queue: string): Promise<void> {
  if (workedQueues.has(queue)) return;
  workedQueues.add(queue);
  const boss = await startJobQueue('worker');
  const { pollSeconds } = jobTimings();
  const options = {
    batchSize: WORK_BATCH,
    burstWhenBatchFull: true,
    includeMetadata: true,
    perJobResults: true,
    // NOTIFY wakes an idle worker at once; the poll is the backstop, at the interval operators set either way.
    pollingIntervalSeconds: pollSeconds,
    notifyPollingIntervalSeconds: pollSeconds,
  } as const;
  await boss.work<Record<string, unknown>>(queue, options, async (jobs) => {
    const results: JobResult[] = [];
    // Each job is settled on its own, so a failure retries (or dead-letters) that job only.
    for (const job of jobs) {
      const error = await runHandler(job as ClaimedJob);
      results.push(error === undefined ? { id: job.id, status: 'completed' } : { id: job.id, status: 'failed', output: failureOutput(error) });
    }
    return results;
  });
}

export async function queueDepth(handle?: DatabaseHandle): Promise<Record<string, number>> {
  const { db } = handle ?? (await getDatabaseHandle());
  const result = await db.execute(
    sql`select name as queue, count(*)::int as n from ${sql.identifier(JOB_SCHEMA)}.job where state in ('created', 'retry', 'active') group by name`,
  );
  return Object.fromEntries((result.rows as { queue: string; n: number }[]).map((row) => [row.queue, Number(row.n)]));
}

export interface JobWorker {
  stop(): Promise<void>;
}

/** SIGTERM or SIGINT stop the taking and wait for running jobs; one cut short is retried after its heartbeat lapses. */
export function startJobWorker(): Promise<JobWorker> {
  return processSingleton('job-worker', async () => {
    await startJobQueue('worker');
    for (const queue of handlers.keys()) await workQueue(queue);
    const onSignal = (signal: NodeJS.Signals) => {
      // Alone on this signal (a bare worker process), the default would have been to exit: exit once stopped.
      const alone = process.listenerCount(signal) === 0;
      void stopJobQueue()
        .catch((err) => log.warn({ err }, 'job queue: stop failed'))
        .finally(() => alone && process.exit(signal === 'SIGINT' ? 130 : 143));
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
    return {
      async stop() {
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
        await stopJobQueue();
      },
    };
  });
}

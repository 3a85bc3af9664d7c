/**
 * The background-job queue (lib/platform/jobs.ts, pg-boss) on embedded PGlite and on PostgreSQL, each on a fresh
 * database: the cost of enqueueing inside a transaction, the pickup latency of an idle worker (commit → handler
 * starts, one job at a time), and the throughput of draining a backlog (enqueued before the worker starts) with a
 * no-op handler. Configured as the app runs it: polled every second (JOB_POLL_MS), woken by LISTEN/NOTIFY, batches of
 * 5. The hand-written table queue that pg-boss replaced was measured beside it by this script until its table was
 * dropped (migration 0026); its figures stay in README.md as the baseline, and its code at commit 818752d
 * (bench/jobs/table-queue.ts).
 *
 * Run: `node_modules/.bin/node --import tsx bench/jobs/run.ts [--jobs 300] [--pickups 15]` (Node 24: pg-boss needs ≥ 22.12).
 */
import { openPglite, openPostgres, type DatabaseHandle } from '@/db/client';
import { prepareDatabase, useDatabase } from '@/lib/platform/db';
import { createJobQueues } from '@/lib/platform/job-queues';
import { defineJobHandler, enqueueJob, startJobQueue, startJobWorker, stopJobQueue, type JobWorker } from '@/lib/platform/jobs';
import { inTransaction } from '@/lib/platform/transactions';
import { createScratchDatabase } from '@/test/support/scratch-database';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const JOBS = arg('jobs', 300);
const PICKUPS = arg('pickups', 15);

interface Figures {
  enqueueMsPerJob: number;
  pickupP50Ms: number;
  pickupMaxMs: number;
  drainJobsPerSecond: number;
}

/** One queue under test: enqueue in a transaction, and a worker that calls `onJob` with the payload. */
interface QueueUnderTest {
  prepare?(): Promise<void>;
  start(onJob: (payload: { i: number }) => void): Promise<void>;
  enqueue(handle: DatabaseHandle, i: number): Promise<void>;
  stop(): Promise<void>;
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(handle: DatabaseHandle, queue: QueueUnderTest): Promise<Figures> {
  await queue.prepare?.();
  const seen = new Map<number, number>();
  let waiting: { i: number; resolve: () => void } | undefined;

  // A backlog enqueued before any worker runs (an instance coming back to queued uploads), then drained.
  const ids = Array.from({ length: JOBS }, (_, k) => 1_000 + k);
  const enqueueStarted = performance.now();
  for (const id of ids) await queue.enqueue(handle, id);
  const enqueueMs = performance.now() - enqueueStarted;
  const drainStarted = performance.now();
  const drained = new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (ids.every((id) => seen.has(id))) {
        clearInterval(check);
        resolve();
      }
    }, 5);
  });
  await queue.start(({ i }) => {
    seen.set(i, performance.now());
    if (waiting?.i === i) waiting.resolve();
  });
  await drained;
  const drainMs = performance.now() - drainStarted;

  const pickups: number[] = [];
  for (let i = 0; i < PICKUPS; i++) {
    // A random phase against the poll timer, as real uploads arrive.
    await sleep(200 + Math.random() * 500);
    const picked = new Promise<void>((resolve) => (waiting = { i, resolve }));
    const committed = performance.now();
    await queue.enqueue(handle, i);
    await picked;
    pickups.push(seen.get(i)! - committed);
  }
  await queue.stop();
  return {
    enqueueMsPerJob: enqueueMs / JOBS,
    pickupP50Ms: percentile(pickups, 50),
    pickupMaxMs: Math.max(...pickups),
    drainJobsPerSecond: (JOBS * 1000) / drainMs,
  };
}

/** lib/platform/jobs.ts as the server runs it: the worker mode's pg-boss, JOB_POLL_MS 1 s, one job at a time per queue. */
function pgBossQueue(): QueueUnderTest {
  let worker: JobWorker | undefined;
  return {
    async prepare() {
      await createJobQueues(await startJobQueue('worker'), ['bench.noop']);
    },
    async start(onJob) {
      defineJobHandler('bench.noop', async (payload: { i: number }) => onJob(payload));
      worker = await startJobWorker();
    },
    enqueue: (handle, i) => inTransaction(handle.db, async (tx) => void (await enqueueJob(tx, { queue: 'bench.noop', payload: { i } }))),
    stop: async () => worker?.stop(),
  };
}

async function withDatabase<T>(kind: 'pglite' | 'postgres', work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const scratch = kind === 'postgres' ? await createScratchDatabase(`bench_jobs_${Date.now()}`) : undefined;
  const handle = scratch ? await openPostgres(scratch.url, 10) : await openPglite();
  await prepareDatabase(handle);
  useDatabase(handle);
  try {
    return await work(handle);
  } finally {
    await stopJobQueue();
    await handle.close();
    await scratch?.drop();
  }
}

/** The hand-written table queue's figures in the last run that measured both (README.md, 2026-11-28, 300 jobs, 15 pickups). */
const TABLE_QUEUE_BASELINE: Record<'pglite' | 'postgres', Figures> = {
  pglite: { enqueueMsPerJob: 2.8, pickupP50Ms: 539.9, pickupMaxMs: 798.9, drainJobsPerSecond: 302 },
  postgres: { enqueueMsPerJob: 8.3, pickupP50Ms: 512.2, pickupMaxMs: 819.2, drainJobsPerSecond: 123 },
};

const rows: Record<string, Figures> = {};
for (const kind of ['pglite', 'postgres'] as const) rows[`${kind} pg-boss`] = await withDatabase(kind, (handle) => measure(handle, pgBossQueue()));
const round = (n: number) => Math.round(n * 10) / 10;
console.table(Object.fromEntries(Object.entries(rows).map(([name, f]) => [name, Object.fromEntries(Object.entries(f).map(([k, v]) => [k, round(v)]))])));
for (const kind of ['pglite', 'postgres'] as const) {
  const a = TABLE_QUEUE_BASELINE[kind];
  const b = rows[`${kind} pg-boss`]!;
  console.log(
    `${kind}: pg-boss / the table queue's recorded figures — enqueue ${round(b.enqueueMsPerJob / a.enqueueMsPerJob)}×, pickup p50 ${Math.round((b.pickupP50Ms / a.pickupP50Ms) * 1000) / 1000}×, drain throughput ${round(b.drainJobsPerSecond / a.drainJobsPerSecond)}×`,
  );
}
process.exit(0);

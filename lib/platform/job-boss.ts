import pg from 'pg';
import { PgBoss, fromPglite, type ConstructorOptions, type Db } from 'pg-boss';
import type { DatabaseHandle } from '@/db/client';
import { getEnv } from './env';
import { log } from './log';

/**
 * pg-boss over the process's own database handle, so it opens no pool of its own: on PGlite through the instance,
 * whose transaction lock makes pg-boss wait for an open transaction rather than join it; on PostgreSQL through the pool.
 */

export const JOB_SCHEMA = 'pgboss';

/** `enqueue` sends and fetches only (the CLI, tests); `worker` also runs the monitor, the cron and LISTEN/NOTIFY. */
export type JobBossMode = 'enqueue' | 'worker';

/** A multi-statement text comes back from node-postgres as one result per statement; pg-boss wants one row list. */
function poolDb(pool: pg.Pool, withListen: boolean): Db {
  const db: Db = {
    async executeSql(text, values) {
      const result = (await pool.query(text, values as unknown[] | undefined)) as pg.QueryResult | pg.QueryResult[];
      return { rows: Array.isArray(result) ? result.flatMap((r) => r.rows ?? []) : result.rows };
    },
  };
  if (withListen) db.listen = (channel, onNotification, onReconnect) => listenOnOwnClient(pool, channel, onNotification, onReconnect);
  return db;
}

/** LISTEN needs its own session, outside the pool; it reconnects after a second, and `onReconnect` has pg-boss catch up. */
async function listenOnOwnClient(pool: pg.Pool, channel: string, onNotification: (payload: string) => void, onReconnect: () => void) {
  let client: pg.Client | undefined;
  let closed = false;
  const connect = async (): Promise<void> => {
    const next = new pg.Client(pool.options);
    next.on('notification', (message) => onNotification(message.payload ?? ''));
    next.on('error', () => {
      if (closed) return;
      void next.end().catch(() => {});
      setTimeout(() => void connect().catch((err) => log.warn({ err }, 'job queue: LISTEN reconnect failed')), 1_000).unref();
    });
    await next.connect();
    await next.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
    client = next;
    onReconnect();
  };
  await connect();
  return {
    async close() {
      closed = true;
      await client?.end().catch(() => {});
    },
  };
}

/** Seconds, as pg-boss counts them, from the lease and poll settings operators already know (README, JOB_*). */
export function jobTimings() {
  const env = getEnv();
  // pg-boss's heartbeat is at least 10 s; a dead worker's job is retried one heartbeat plus one monitor pass later.
  const heartbeatSeconds = Math.max(10, Math.ceil(env.JOB_LEASE_MS / 1000));
  return {
    heartbeatSeconds,
    monitorSeconds: Math.max(1, Math.min(60, Math.floor(heartbeatSeconds / 2))),
    pollSeconds: Math.max(0.5, env.JOB_POLL_MS / 1000),
  };
}

export function createJobBoss(handle: DatabaseHandle, mode: JobBossMode): PgBoss {
  const worker = mode === 'worker';
  const timings = jobTimings();
  const connection: Pick<ConstructorOptions, 'backend' | 'db'> = handle.pglite
    ? { backend: 'pglite', db: fromPglite(handle.pglite) }
    : { db: poolDb(handle.pool!, worker) };
  const boss = new PgBoss({
    ...connection,
    schema: JOB_SCHEMA,
    supervise: worker,
    schedule: worker,
    useListenNotify: worker,
    superviseIntervalSeconds: timings.monitorSeconds,
    monitorIntervalSeconds: timings.monitorSeconds,
  });
  // pg-boss reports its background loops' failures as events; unhandled, an 'error' event would end the process.
  boss.on('error', (err) => log.warn({ err }, 'job queue: background error'));
  return boss;
}

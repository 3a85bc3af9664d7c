import path from 'node:path';
import { openPostgres, type Database, type DatabaseHandle } from '@/db/client';
import { isEmptyCatalog, migrateDatabase, withStartupLock } from '@/db/migrate';
import { openEmbeddedDatabase, type EmbeddedRole } from './embedded-db';
import { installJobQueue } from './job-queues';
import { getEnv } from './env';
import { log } from './log';
import { processSingleton, replaceProcessSingleton } from './singleton';

export type { Database, DatabaseHandle, Executor, Transaction } from '@/db/client';

const SLOT = 'database';

/**
 * Fills an empty database (the sample marketplace, lib/seed). Passed in by the caller rather than imported, so this
 * bottom layer never depends on the engine that seeding uses.
 */
export type Seeder = (db: Database) => Promise<void>;

/**
 * Migrates (pg-boss's schema and the job queues, then our tables), then runs `seed` on an empty database when one is
 * given. Safe to run on every start. pg-boss comes first so that a database upgraded from a version with the former
 * `jobs` table has its waiting jobs moved to pg-boss before migration 0027 drops that table.
 */
export async function prepareDatabase(handle: DatabaseHandle, options: { seed?: Seeder } = {}): Promise<void> {
  await withStartupLock(handle, async () => {
    await installJobQueue(handle);
    await migrateDatabase(handle);
    if (options.seed && (await isEmptyCatalog(handle))) {
      const started = Date.now();
      await options.seed(handle.db);
      log.info({ ms: Date.now() - started }, 'seeded the sample marketplace');
    }
  });
}

/**
 * Embedded mode only: a `server` process shares its PGlite with other local processes over a unix socket; a
 * `client` (the operator CLI) uses a running server's socket, or opens the directory itself when none runs.
 * See lib/platform/embedded-db.ts.
 */
export function setEmbeddedRole(role: EmbeddedRole): void {
  replaceProcessSingleton('embedded-role', role);
}

async function openConfiguredDatabase(seed: Seeder | undefined): Promise<DatabaseHandle> {
  const env = getEnv();
  if (env.DATABASE_URL) {
    const handle = await openPostgres(env.DATABASE_URL, env.DATABASE_POOL_MAX);
    await prepareDatabase(handle, { seed });
    return handle;
  }
  // Migrations and the seed run only where the directory is opened, never through another process's socket.
  return openEmbeddedDatabase(path.resolve(env.DATA_DIR), {
    role: processSingleton<EmbeddedRole>('embedded-role', () => 'server'),
    prepare: (handle) => prepareDatabase(handle, { seed }),
    listenUrl: env.ALMANAC_LISTEN_URL,
  });
}

/**
 * The process-wide database, opened and migrated on first use; the first caller decides whether an empty one is
 * seeded (the server opens it through lib/seed's openServerDatabase before any request).
 */
export function getDatabaseHandle(options: { seed?: Seeder } = {}): Promise<DatabaseHandle> {
  return processSingleton(SLOT, () => {
    const opening = openConfiguredDatabase(options.seed);
    // A failed open must not be cached forever: the next caller tries again.
    opening.catch(() => replaceProcessSingleton(SLOT, undefined));
    return opening;
  });
}

/** The PostgreSQL pool's connections by state for /metrics; empty on PGlite (one in-process connection, no pool). */
export async function databasePoolState(): Promise<Record<string, number>> {
  const { pool } = await getDatabaseHandle();
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : {};
}

export async function getDb(): Promise<Database> {
  return (await getDatabaseHandle()).db;
}

/** Tests and the CLI bring their own handle (a fresh database per test file, for example). */
export function useDatabase(handle: DatabaseHandle): void {
  replaceProcessSingleton(SLOT, Promise.resolve(handle));
}

export async function closeDatabase(): Promise<void> {
  const current = processSingleton<Promise<DatabaseHandle> | undefined>(SLOT, () => undefined);
  replaceProcessSingleton(SLOT, undefined);
  if (current) await (await current).close();
}

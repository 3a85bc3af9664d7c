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

/** Passed in rather than imported, so this bottom layer never depends on the engine that seeding uses. */
export type Seeder = (db: Database) => Promise<void>;

/** Safe on every start. pg-boss goes first so an old `jobs` table's waiting jobs move to it before migration 0027 drops it. */
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

/** Embedded mode: a `server` shares its PGlite over a socket; a `client` (the CLI) uses it when one runs (embedded-db.ts). */
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

/** Opened and migrated on first use; the first caller decides whether an empty database is seeded. */
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

export function useDatabase(handle: DatabaseHandle): void {
  replaceProcessSingleton(SLOT, Promise.resolve(handle));
}

export async function closeDatabase(): Promise<void> {
  const current = processSingleton<Promise<DatabaseHandle> | undefined>(SLOT, () => undefined);
  replaceProcessSingleton(SLOT, undefined);
  if (current) await (await current).close();
}

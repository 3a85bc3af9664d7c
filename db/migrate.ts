import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { DatabaseHandle } from './client';

// Applies db/migrations/ and takes the startup lock under which several instances migrate and seed in turn.

export const MIGRATIONS_FOLDER = path.join(process.cwd(), 'db', 'migrations');

/** Arbitrary constant: several instances starting together take turns to migrate and seed. */
const STARTUP_LOCK_ID = 7_391_452;

export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'pglite') await migratePglite(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  else await migratePostgres(handle.db, { migrationsFolder: MIGRATIONS_FOLDER });
  await ensureVectorExtension(handle);
}

// Outside the migration history on purpose: the history must run on a server without pgvector, or without the
// privilege to create it, where vectors stay real[] and are compared in SQL (lib/engine/vector-search.ts).
async function ensureVectorExtension(handle: DatabaseHandle): Promise<boolean> {
  if (handle.kind === 'pglite') {
    await handle.db.execute(sql`create extension if not exists vector`);
    return true;
  }
  const available = await handle.db.execute(sql`select exists(select 1 from pg_available_extensions where name = 'vector') as present`);
  if (!(available.rows[0] as { present: boolean }).present) return false;
  return handle.db.execute(sql`create extension if not exists vector`).then(
    () => true,
    () => false,
  );
}

export async function withStartupLock<T>(handle: DatabaseHandle, work: () => Promise<T>): Promise<T> {
  if (handle.kind === 'pglite' || !handle.pool) return work();
  const client = await handle.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_ID]);
    return await work();
  } finally {
    await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_ID]).catch(() => {});
    client.release();
  }
}

export async function isEmptyCatalog(handle: DatabaseHandle): Promise<boolean> {
  const result = await handle.db.execute(sql`select exists(select 1 from publishers) as present`);
  return !(result.rows[0] as { present: boolean }).present;
}

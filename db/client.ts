import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';

/**
 * Both drivers expose the same Drizzle query builder for the PostgreSQL dialect; the node-postgres type is used
 * as the common one. Raw `db.execute()` results carry `.rows` on both.
 */
export type Database = NodePgDatabase<typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Anything that can run a query: the database or a transaction inside it. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** The PGlite instance (embedded mode only). */
  pglite?: PGlite;
  /** The pool (PostgreSQL mode only). */
  pool?: pg.Pool;
  close(): Promise<void>;
}

// Counters and bigint ids are far below 2^53; read them as numbers rather than strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * `dataDir` undefined or `memory://` gives an in-memory database (tests). `loadDataDir`, a `dumpDataDir()` tarball,
 * starts it as a copy of that database instead of running initdb (tests copy one migrated template per run).
 */
export async function openPglite(dataDir?: string, options: { loadDataDir?: Blob } = {}): Promise<DatabaseHandle> {
  if (dataDir && !dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  // pgvector (hybrid retrieval's nearest chunks, lib/engine/vector-search.ts) is created by migrateDatabase; every
  // PGlite must load it, since a data directory where it is installed cannot run its functions otherwise.
  const client = new PGlite({ dataDir, loadDataDir: options.loadDataDir, extensions: { unaccent, pg_trgm, vector } });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return { db, kind: 'pglite', pglite: client, close: () => client.close() };
}

export async function openPostgres(url: string, poolMax = 10): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolMax, idleTimeoutMillis: 30_000 });
  // A dropped connection must not crash the process (a PostgreSQL restart or failover drops them all): the pool
  // reports idle ones here and replaces them, and a connection lost while checked out between queries would otherwise
  // emit an unhandled 'error'. A query in flight still fails with the error, through its own promise.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePostgres(pool, { schema });
  return { db, kind: 'postgres', pool, close: () => pool.end() };
}

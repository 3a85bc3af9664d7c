import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';

// Opens the database: PGlite embedded by default, node-postgres for several instances. Both expose the same Drizzle
// builder, so the node-postgres type stands for both; raw `db.execute()` results carry `.rows` on both.
export type Database = NodePgDatabase<typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  pglite?: PGlite;
  pool?: pg.Pool;
  close(): Promise<void>;
}

// Counters and bigint ids are far below 2^53; read them as numbers rather than strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** `dataDir` undefined or `memory://`: in memory. `loadDataDir` (a `dumpDataDir()` tarball) replaces initdb with a copy. */
export async function openPglite(dataDir?: string, options: { loadDataDir?: Blob } = {}): Promise<DatabaseHandle> {
  if (dataDir && !dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  // Every PGlite loads pgvector: a data directory where it is installed cannot run its functions otherwise.
  const client = new PGlite({ dataDir, loadDataDir: options.loadDataDir, extensions: { unaccent, pg_trgm, vector } });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return { db, kind: 'pglite', pglite: client, close: () => client.close() };
}

export async function openPostgres(url: string, poolMax = 10): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolMax, idleTimeoutMillis: 30_000 });
  // A dropped connection (a restart, a failover) must not crash the process with an unhandled 'error'; a query in
  // flight still fails through its own promise.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePostgres(pool, { schema });
  return { db, kind: 'postgres', pool, close: () => pool.end() };
}

import pg from 'pg';
import { afterAll } from 'vitest';
import { openPglite, openPostgres, type DatabaseHandle } from '@/db/client';
import { prepareDatabase, useDatabase } from '@/lib/db';
import { randomBase62 } from '@/lib/ids';

export type TestDbKind = 'pglite' | 'postgres';

/** Which engine this Vitest project runs against (see vitest.config.ts). */
export function testDbKind(): TestDbKind {
  return process.env.ALMANAC_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

export const ADMIN_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A new database name carrying this run's id, so the run's global teardown drops it whatever happens. */
export function newTestDatabaseName(): string {
  return `almanac_t_${process.env.ALMANAC_TEST_RUN ?? 'adhoc'}_${randomBase62(10).toLowerCase()}`;
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a new database on the PostgreSQL server
 * (dropped when the file ends), so runs and files never interfere. It becomes the process database of lib/db.
 */
export async function createTestDatabase(options: { seed?: boolean; kind?: TestDbKind; install?: boolean } = {}): Promise<DatabaseHandle & { url?: string }> {
  const kind = options.kind ?? testDbKind();
  let handle: DatabaseHandle & { url?: string };
  if (kind === 'pglite') {
    handle = await openPglite();
  } else {
    const name = newTestDatabaseName();
    const admin = new pg.Client({ connectionString: ADMIN_POSTGRES_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = databaseUrl(ADMIN_POSTGRES_URL, name);
    const opened = await openPostgres(url, 10);
    handle = {
      ...opened,
      url,
      close: async () => {
        await opened.close();
        const dropper = new pg.Client({ connectionString: ADMIN_POSTGRES_URL });
        await dropper.connect();
        await dropper.query(`drop database if exists ${name} with (force)`);
        await dropper.end();
      },
    };
  }
  await prepareDatabase(handle, { seed: options.seed ?? false });
  if (options.install !== false) useDatabase(handle);
  afterAll(async () => {
    await handle.close();
  });
  return handle;
}

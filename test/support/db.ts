import { readFileSync } from 'node:fs';
import { openPglite, openPostgres, type DatabaseHandle } from '@/db/client';
import { prepareDatabase, useDatabase } from '@/lib/platform/db';
import { startJobQueue, stopJobQueue } from '@/lib/platform/jobs';
import { randomBase62 } from '@/lib/platform/ids';
import { seedMarketplace } from '@/lib/seed';
import { createScratchDatabase } from './scratch-database';

export type TestDbKind = 'pglite' | 'postgres';

export function testDbKind(): TestDbKind {
  return process.env.ALMANAC_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

/** A new database name carrying this run's id, so the run's global teardown drops it whatever happens. */
export function newTestDatabaseName(): string {
  return `almanac_t_${process.env.ALMANAC_TEST_RUN ?? 'adhoc'}_${randomBase62(10).toLowerCase()}`;
}

/**
 * A fresh, migrated database per test file, so runs and files never interfere; under the projects' global setups, a
 * copy of the run's migrated template, which saves initdb and migrating in every file.
 */
export async function createTestDatabase(options: { seed?: boolean; kind?: TestDbKind; install?: boolean } = {}): Promise<DatabaseHandle & { url?: string }> {
  const kind = options.kind ?? testDbKind();
  let handle: DatabaseHandle & { url?: string };
  if (kind === 'pglite') {
    const template = process.env.ALMANAC_TEST_PGLITE_TEMPLATE;
    handle = await openPglite(undefined, { loadDataDir: template ? new Blob([readFileSync(template)]) : undefined });
  } else {
    const scratch = await createScratchDatabase(newTestDatabaseName(), undefined, process.env.ALMANAC_TEST_POSTGRES_TEMPLATE);
    const opened = await openPostgres(scratch.url, 10);
    handle = {
      ...opened,
      url: scratch.url,
      close: async () => {
        await opened.close();
        await scratch.drop();
      },
    };
  }
  await prepareDatabase(handle, { seed: options.seed ? seedMarketplace : undefined });
  if (options.install !== false) {
    useDatabase(handle);
    // Started before the file's first transaction can send a job (lib/platform/jobs.ts, startJobQueue).
    await stopJobQueue();
    await startJobQueue();
  }
  // Once only: a file may close its database itself before closeTestDatabases does (pg's pool.end throws the second time).
  const close = handle.close;
  let closing: Promise<void> | undefined;
  handle.close = () => (closing ??= close());
  opened.push({ handle, installed: options.install !== false });
  return handle;
}

/** The databases this test file opened, closed by closeTestDatabases when the file ends. */
const opened: { handle: DatabaseHandle; installed: boolean }[] = [];

/**
 * Closes every database the file opened and stops the job queue that uses them. Called from the projects' setup file
 * (test/support/file-end.ts) once the file's own afterAll hooks have run: createTestDatabase is mostly called inside a
 * beforeAll, where an afterAll it registered would never run, and an unclosed pool keeps its connections, its job
 * queue and its LISTEN session until the process exits.
 */
export async function closeTestDatabases(): Promise<void> {
  const handles = opened.splice(0);
  if (handles.some((entry) => entry.installed)) await stopJobQueue();
  for (const { handle } of handles.reverse()) await handle.close();
}

/** Fails here, saying so, when no row came back. */
export function firstRow<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('the query returned no row');
  return row;
}

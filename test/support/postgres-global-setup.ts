import { openPostgres } from '@/db/client';
import { prepareDatabase } from '@/lib/platform/db';
import { randomBase62 } from '@/lib/platform/ids';
import { createScratchDatabase, dropDatabases, listDatabases } from './scratch-database';

/**
 * The `postgres` Vitest project's global setup: gives this run an id that prefixes every database its test files
 * create (test/support/db.ts), and drops them all when the run ends — also those of files whose own clean-up did
 * not run (a hook registered inside beforeAll, a crashed worker). Other runs' databases are never touched.
 *
 * It also migrates the run's template database, which each file's database copies (CREATE DATABASE … TEMPLATE) so
 * that no file migrates its own. Its name carries the run's prefix, so the same teardown drops it.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const runId = randomBase62(8).toLowerCase();
  process.env.ALMANAC_TEST_RUN = runId;
  const teardown = async () => dropDatabases(await listDatabases(`almanac_t_${runId}_`));
  try {
    const template = await createScratchDatabase(`almanac_t_${runId}_template`);
    const handle = await openPostgres(template.url);
    try {
      await prepareDatabase(handle);
    } finally {
      // PostgreSQL copies only a database nobody is connected to.
      await handle.close();
    }
    process.env.ALMANAC_TEST_POSTGRES_TEMPLATE = template.name;
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}

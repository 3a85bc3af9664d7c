import { openPostgres } from '@/db/client';
import { prepareDatabase } from '@/lib/platform/db';
import { randomBase62 } from '@/lib/platform/ids';
import { createScratchDatabase, dropDatabases, listDatabases } from './scratch-database';

/**
 * The `postgres` project's global setup: a run id prefixes every database the run creates, so the teardown drops them
 * all, also those of files whose own clean-up did not run, and never another run's. It migrates the template each
 * file's database copies. The project's two halves (vitest.config.ts) share one run: the first setup does the work.
 */
const owner = globalThis as { __almanacPostgresTemplate?: boolean };

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (owner.__almanacPostgresTemplate) return undefined;
  owner.__almanacPostgresTemplate = true;
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

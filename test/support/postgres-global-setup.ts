import { randomBase62 } from '@/lib/platform/ids';
import { dropDatabases, listDatabases } from './scratch-database';

/**
 * The `postgres` Vitest project's global setup: gives this run an id that prefixes every database its test files
 * create (test/support/db.ts), and drops them all when the run ends — also those of files whose own clean-up did
 * not run (a hook registered inside beforeAll, a crashed worker). Other runs' databases are never touched.
 */
export default function setup(): () => Promise<void> {
  const runId = randomBase62(8).toLowerCase();
  process.env.ALMANAC_TEST_RUN = runId;
  return async () => dropDatabases(await listDatabases(`almanac_t_${runId}_`));
}

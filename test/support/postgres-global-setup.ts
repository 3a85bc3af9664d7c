import pg from 'pg';
import { randomBase62 } from '@/lib/ids';

/**
 * The `postgres` Vitest project's global setup: gives this run an id that prefixes every database its test files
 * create (test/support/db.ts), and drops them all when the run ends — also those of files whose own clean-up did
 * not run (a hook registered inside beforeAll, a crashed worker). Other runs' databases are never touched.
 */
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export default function setup(): () => Promise<void> {
  const runId = randomBase62(8).toLowerCase();
  process.env.ALMANAC_TEST_RUN = runId;
  return async () => {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`almanac_t_${runId}_%`]);
      for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
    } finally {
      await admin.end();
    }
  };
}

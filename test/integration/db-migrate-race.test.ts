import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTestDatabaseName } from '../support/db';
import { childLogFile } from '../support/log-scan';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database';

/**
 * `npm run db:migrate` is a deploy step of its own (compose.yaml's migrate job), and several of them, or instances
 * starting, may run at once: each takes the advisory lock in turn, and the later ones find nothing left to apply.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const journal = JSON.parse(readFileSync(path.join(ROOT, 'db', 'migrations', 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
let scratch: ScratchDatabase;

beforeAll(async () => {
  scratch = await createScratchDatabase(newTestDatabaseName());
});

afterAll(async () => {
  await scratch?.drop();
});

const migrate = () =>
  run(process.execPath, ['scripts/run.mjs', 'db-migrate'], {
    cwd: ROOT,
    timeout: 120_000,
    env: { ...process.env, DATABASE_URL: scratch.url, ALMANAC_SECRET: 'migration-race-test-secret-0123456789abcdef', LOG_FILE: childLogFile('db-migrate') },
  });

async function appliedMigrations(): Promise<number> {
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe('npm run db:migrate', () => {
  it('applies every migration once when three run at the same time on an empty database, then changes nothing', async () => {
    const outputs = await Promise.all([migrate(), migrate(), migrate()]);
    for (const { stdout } of outputs) expect(stdout).toContain('Migrations applied (PostgreSQL).');
    expect(await appliedMigrations()).toBe(journal.entries.length);
    const again = await migrate();
    expect(again.stdout).toContain('Migrations applied (PostgreSQL).');
    expect(await appliedMigrations()).toBe(journal.entries.length);
  }, 240_000);
});

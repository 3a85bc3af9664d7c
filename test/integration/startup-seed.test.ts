import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET } from '@/app/api/marketplace/knowledge-bases/route';
import { closeDatabase } from '@/lib/platform/db';
import { openServerDatabase } from '@/lib/seed';
import { resetEnvForTesting } from '@/lib/platform/env';
import { newTestDatabaseName, testDbKind } from '../support/db';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database';

/**
 * Starting on an EMPTY store through the real start-up path (lib/platform/env → lib/seed openServerDatabase → migrate → seed, as instrumentation.ts does):
 * an empty PGlite data directory on the pglite project, a brand-new database on the postgres project. The seeded
 * catalogue is served, and a second start finds it and does not seed again.
 */

const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL, SEED_ON_START: process.env.SEED_ON_START };
let dataDir: string | undefined;
let scratch: ScratchDatabase | undefined;

beforeAll(async () => {
  await closeDatabase(); // whatever another file installed must not answer for this one
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'almanac-startup-'));
  process.env.DATA_DIR = dataDir;
  process.env.SEED_ON_START = 'true';
  delete process.env.DATABASE_URL;
  if (testDbKind() === 'postgres') {
    scratch = await createScratchDatabase(newTestDatabaseName());
    process.env.DATABASE_URL = scratch.url;
  }
  resetEnvForTesting();
});

afterAll(async () => {
  await closeDatabase();
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetEnvForTesting();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await scratch?.drop();
});

async function countRows() {
  const { db } = await openServerDatabase();
  const result = await db.execute(sql`
    select (select count(*)::int from publishers) as publishers, (select count(*)::int from knowledge_bases) as kbs,
           (select count(*)::int from plans) as plans, (select count(*)::int from subscriptions) as subs`);
  return result.rows[0] as { publishers: number; kbs: number; plans: number; subs: number };
}

describe('first start on an empty store', () => {
  it('migrates, seeds and serves the sample catalogue', async () => {
    const handle = await openServerDatabase();
    expect(handle.kind).toBe(testDbKind());

    const response = await GET(new Request('http://almanac.test/api/marketplace/knowledge-bases?pageSize=50'));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { total: number; items: { category: string }[] };
    expect(body.total).toBeGreaterThanOrEqual(60);
    expect(body.items).toHaveLength(50);

    for (const category of ['education', 'policy', 'health', 'research', 'legal']) {
      const r = await GET(new Request(`http://almanac.test/api/marketplace/knowledge-bases?category=${category}`));
      expect(((await r.json()) as { total: number }).total).toBeGreaterThanOrEqual(10);
    }
    const hosted = await GET(new Request('http://almanac.test/api/marketplace/knowledge-bases?query=constitution%20companion'));
    expect(((await hosted.json()) as { items: { title: string }[] }).items.map((i) => i.title)).toContain('U.S. Constitution Companion');
  }, 180_000);

  it('a second start finds the catalogue and does not seed it again', async () => {
    const before = await countRows();
    expect(before.publishers).toBeGreaterThanOrEqual(15);
    await closeDatabase();
    resetEnvForTesting();
    const after = await countRows(); // reopens through the same start-up path
    expect(after).toEqual(before);
  }, 180_000);
});

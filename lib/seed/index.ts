import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { PUBLISHER_SEEDS } from '@/db/seed/catalog/publishers';
import { getDatabaseHandle, getDb, type DatabaseHandle } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { log } from '@/lib/platform/log';
import { itemAt } from '@/lib/platform/arrays';
import { seedCatalog } from './catalog';
import { seedHostedDocuments } from './hosted';
import { applySeedGateThresholds } from './gate-thresholds';

export { SEED_GATE_THRESHOLDS_FILE, writeSeedGateThresholds } from './gate-thresholds';

/** Fills an empty database with the sample marketplace: the catalogue (one transaction), its hosted documents, their gate thresholds. */
export async function seedMarketplace(db: Database): Promise<void> {
  await seedCatalog(db);
  const report = await seedHostedDocuments(db);
  // A sample document that cannot be ingested leaves its knowledge base short of what its listing promises: say so.
  for (const failure of report.failures) log.warn(failure, 'a sample document could not be ingested');
  await applySeedGateThresholds(db);
}

/** Migrated, and seeded when empty and SEED_ON_START is on (unless `seed` says otherwise). */
export function openServerDatabase(options: { seed?: boolean } = {}): Promise<DatabaseHandle> {
  const seed = options.seed ?? getEnv().SEED_ON_START;
  return getDatabaseHandle({ seed: seed ? seedMarketplace : undefined });
}

let sampleCheck: { at: number; shown: boolean } | null = null;
const SAMPLE_CHECK_TTL_MS = 60_000;

/** SAMPLE_DATA_NOTICE, or under `auto` whether the sample publishers are present, looked up at most once a minute. */
export async function sampleDataNoticeShown(): Promise<boolean> {
  const setting = getEnv().SAMPLE_DATA_NOTICE;
  if (setting !== 'auto') return setting === 'true';
  if (sampleCheck && Date.now() - sampleCheck.at < SAMPLE_CHECK_TTL_MS) return sampleCheck.shown;
  try {
    const db = await getDb();
    const rows = (await db.execute(sql`select exists(select 1 from publishers where slug = ${itemAt(PUBLISHER_SEEDS, 0).slug}) as present`)).rows as Array<{
      present: boolean;
    }>;
    sampleCheck = { at: Date.now(), shown: Boolean(rows[0]?.present) };
  } catch {
    // A page must render even when the database is away; the notice is then left out until the next check.
    return false;
  }
  return sampleCheck.shown;
}

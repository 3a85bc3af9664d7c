import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openPglite, type Executor } from '@/db/client';
import { calibratedThreshold, GATE_VERSION } from '@/lib/engine';
import { prepareDatabase } from '@/lib/platform/db';
import { seedCatalog } from './catalog';
import { seedHostedDocuments } from './hosted';

/**
 * The seeded knowledge bases' own gate thresholds, measured as gate-calibration.ts measures them live and kept in
 * db/seed/gate-thresholds.json, so that a fresh marketplace answers with them from its first question instead of
 * calibrating every knowledge base in the background. A file measured with other weights, questions or bounds
 * (GATE_VERSION) is not applied: the hourly sweep then calibrates the seeded knowledge bases like any other.
 */
export const SEED_GATE_THRESHOLDS_FILE = path.join(process.cwd(), 'db', 'seed', 'gate-thresholds.json');

export interface SeedGateThresholds {
  version: string;
  /** By knowledge-base slug; null where the shipped threshold applies. */
  thresholds: Record<string, number | null>;
}

export function loadSeedGateThresholds(file = SEED_GATE_THRESHOLDS_FILE): SeedGateThresholds | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SeedGateThresholds) : null;
}

/** Records the file's thresholds for the seeded knowledge bases it names; returns how many, 0 when it is stale. */
export async function applySeedGateThresholds(db: Executor, seeded = loadSeedGateThresholds()): Promise<number> {
  if (!seeded || seeded.version !== GATE_VERSION) return 0;
  let applied = 0;
  for (const [slug, threshold] of Object.entries(seeded.thresholds)) {
    const result = await db.execute(sql`
      update kb_index_stats set gate_threshold = ${threshold}, gate_model = ${GATE_VERSION}
      where kb_id = (select id from knowledge_bases where slug = ${slug}) and chunk_count > 0 returning kb_id`);
    applied += result.rows.length;
  }
  return applied;
}

/**
 * Measures every seeded knowledge base on a fresh in-memory marketplace (catalogue and documents only, so that an
 * older file counts for nothing) and writes the file: scripts/seed-gate-thresholds.ts, after the gate changes.
 */
export async function writeSeedGateThresholds(log: (line: string) => void = () => {}): Promise<SeedGateThresholds> {
  const handle = await openPglite();
  try {
    await prepareDatabase(handle, {
      seed: async (db) => {
        await seedCatalog(db);
        await seedHostedDocuments(db);
      },
    });
    const kbs = (
      await handle.db.execute(sql`select k.id, k.slug from knowledge_bases k join kb_index_stats s on s.kb_id = k.id where s.chunk_count > 0 order by k.slug`)
    ).rows as Array<{ id: string; slug: string }>;
    const thresholds: SeedGateThresholds['thresholds'] = {};
    for (const kb of kbs) {
      thresholds[kb.slug] = await calibratedThreshold(handle.db, kb.id);
      log(`${kb.slug}: ${thresholds[kb.slug] ?? 'shipped'}`);
    }
    const file: SeedGateThresholds = { version: GATE_VERSION, thresholds };
    writeFileSync(SEED_GATE_THRESHOLDS_FILE, `${JSON.stringify(file, null, 2)}\n`);
    return file;
  } finally {
    await handle.close();
  }
}

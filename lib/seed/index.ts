import type { Database } from '@/db/client';
import { getDatabaseHandle, type DatabaseHandle } from '@/lib/platform/db';
import { getEnv } from '@/lib/platform/env';
import { seedCatalog } from './catalog';
import { seedHostedDocuments } from './hosted';

/**
 * Seeds the sample marketplace into an empty database: first the catalogue (publishers, knowledge bases, plans,
 * sample buyers, subscriptions, usage; one transaction), then the hosted documents of those knowledge bases.
 */
export async function seedMarketplace(db: Database): Promise<void> {
  await seedCatalog(db);
  await seedHostedDocuments(db);
}

/**
 * The process database as a server (or `npm run db:seed`) opens it: migrated, and seeded when it is empty and
 * seeding is on (SEED_ON_START, unless `seed` says otherwise).
 */
export function openServerDatabase(options: { seed?: boolean } = {}): Promise<DatabaseHandle> {
  const seed = options.seed ?? getEnv().SEED_ON_START;
  return getDatabaseHandle({ seed: seed ? seedMarketplace : undefined });
}

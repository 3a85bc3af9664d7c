#!/usr/bin/env tsx
/** `npm run db:seed`: migrates, then seeds the sample marketplace if the catalogue is empty (never duplicates it). */
import { closeDatabase, setEmbeddedRole } from '@/lib/platform/db';
import { openServerDatabase } from '@/lib/seed';

setEmbeddedRole('client');
openServerDatabase({ seed: true })
  .then(async () => {
    console.log('Database migrated; the sample marketplace is present.');
    await closeDatabase();
  })
  .catch(async (error: unknown) => {
    console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
    await closeDatabase().catch(() => {});
    process.exit(1);
  });

#!/usr/bin/env tsx
/** `npm run db:migrate`: applies pending migrations to the configured database (DATABASE_URL, or PGlite under DATA_DIR). */
import { closeDatabase, getDatabaseHandle, setEmbeddedRole } from '@/lib/platform/db';

setEmbeddedRole('client');
getDatabaseHandle()
  .then(async (handle) => {
    console.log(`Migrations applied (${handle.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}).`);
    await closeDatabase();
  })
  .catch(async (error: unknown) => {
    console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
    await closeDatabase().catch(() => {});
    process.exit(1);
  });

import type { Database } from '../client';

/** Seeds the sample marketplace into an empty database. Implemented in db/seed/catalogue.ts (issue 2). */
export async function seedMarketplace(_db: Database): Promise<void> {
  // Filled in by the catalogue seed.
}

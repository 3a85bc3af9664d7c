import type { Database } from '../client';
import { seedCatalogue } from './catalogue';
import { seedHostedDocuments } from './hosted';

/**
 * Seeds the sample marketplace into an empty database: first the catalogue (publishers, knowledge bases, plans,
 * sample buyers, subscriptions, usage; one transaction), then the hosted documents of those knowledge bases.
 */
export async function seedMarketplace(db: Database): Promise<void> {
  await seedCatalogue(db);
  await seedHostedDocuments(db);
}

import type { Database } from '../client';

/**
 * Ingests the hosted knowledge bases' source documents (db/seed/hosted/<kb-slug>/) into documents and chunks.
 * Placeholder created by the catalogue seed so seedMarketplace can call it unconditionally; the engine helper
 * fills in the body. It runs after the catalogue seed, so every knowledge base row already exists.
 */
export async function seedHostedDocuments(_db: Database): Promise<void> {
  // Filled in by the engine seed.
}

import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/db';

describe('database', () => {
  it('applies every migration, including accent-folding full-text search', async () => {
    const { db } = await createTestDatabase();
    const result = await db.execute(sql`select almanac_catalog_vector('Constitución de la Société', 'Éditions Dupont', array['droit'], '', '')::text as v`);
    const vector = (result.rows[0] as { v: string }).v;
    // Stemmed, accent-folded and stripped (no positions): the catalogue filters by text but never ranks by it.
    expect(vector).toBe("'constitucion' 'de' 'droit' 'dupont' 'edit' 'la' 'societ'");
  });
});

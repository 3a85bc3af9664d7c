import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/db';

describe('database', () => {
  it('applies every migration, including accent-folding full-text search', async () => {
    const { db } = await createTestDatabase();
    const result = await db.execute(sql`select almanac_weighted_vector('Constitución de la Société', 'A')::text as v`);
    const vector = (result.rows[0] as { v: string }).v;
    expect(vector).toContain("'societ':");
    expect(vector).toContain("'constitucion':");
  });
});

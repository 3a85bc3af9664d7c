import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { rebuildKnowledgeBaseStats } from '@/lib/engine/ingest';
import type { Executor } from '@/lib/platform/db';

/** The statistics as the writes left them, then as a rebuild from the chunks computes them: they must agree. */
export async function expectStatsExact(db: Executor, kbId: string): Promise<void> {
  const read = async () => ({
    stats: (await db.execute(sql`select chunk_count, total_length from kb_index_stats where kb_id = ${kbId}`)).rows,
    terms: (await db.execute(sql`select lexeme, doc_freq from kb_terms where kb_id = ${kbId} order by lexeme`)).rows,
  });
  const kept = await read();
  await db.transaction((tx) => rebuildKnowledgeBaseStats(tx, kbId));
  expect(kept).toEqual(await read());
}

import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { itemAt } from '@/lib/platform/arrays';
import { PeriodicTask } from '@/lib/platform/periodic-task';
import { processSingleton } from '@/lib/platform/singleton';
import type { DraftChunk } from './chunking';
import { checkedSearchConfig, searchConfigFor, type SearchConfig } from './language';
import type { IndexedChunk } from './parse-task';
import { rows } from './sql-rows';
import { countTokens } from './tokens';

/**
 * Inserts the chunks of one document with their vectors and lengths (heading path weighted A), stemmed with the
 * knowledge base's text-search configuration. A domain, address, URL or dotted number is indexed whole and as its
 * parts (almanac_compound_parts, migration 0022). Exported for bench/engine-speed.
 */
export async function insertChunks(
  tx: Executor,
  kbId: string,
  documentId: string,
  drafts: Array<DraftChunk & { tokens?: number }>,
  config: SearchConfig = 'almanac',
): Promise<void> {
  const BATCH = 500;
  for (let i = 0; i < drafts.length; i += BATCH) {
    const batch = drafts.slice(i, i + BATCH).map((c) => ({
      ordinal: c.ordinal,
      page: c.page,
      heading: c.heading,
      content: c.content,
      tokens: c.tokens ?? countTokens(c.content),
    }));
    await tx.execute(sql`
      insert into chunks (document_id, kb_id, ordinal, page, heading, content, token_count, search_vector, lexeme_count)
      select ${documentId}, ${kbId}, x.ordinal, x.page, x.heading, x.content, x.tokens, v.vec,
             (select coalesce(sum(array_length(u.positions, 1)), 0) from unnest(v.vec) u)::int
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as x(ordinal int, page int, heading text, content text, tokens int)
      cross join lateral (
        select setweight(to_tsvector(${config}::regconfig, coalesce(x.heading, '')), 'A') || to_tsvector(${config}::regconfig, x.content)
               || to_tsvector(${config}::regconfig, almanac_compound_parts(x.content)) as vec
      ) v`);
  }
}

/**
 * A large document's chunks are written before its transaction, in batches of at most STAGE_BATCH chunks and
 * STAGE_BATCH_CHARACTERS of text, each one short statement with a turn of the event loop between (PGlite runs every
 * statement on the event loop's thread and holds its one connection meanwhile; indexing costs about 1 ms per KB there
 * on a loaded machine, so 100 chunks of 4,000 characters took 0.2-0.8 s). They wait under a knowledge-base id of their own: retrieval and the statistics read chunks by
 * knowledge base, so no reader sees them until the document's transaction moves them in with one update. Measured on
 * a 10 MB text (7,764 chunks): the one transaction held PGlite for 14 s and PostgreSQL's statistics row for 6.6 s.
 */
export const STAGE_ABOVE = 200;
const STAGE_BATCH = 100;
const STAGE_BATCH_CHARACTERS = 32 * 1024;

interface Staged {
  stage: string;
  documentId: string;
  config: SearchConfig;
}

/** The configuration lockKnowledgeBase will return (read without its lock), or null without a knowledge base. */
async function indexingConfig(db: Executor, kbId: string): Promise<SearchConfig | null> {
  const found = rows<{ language: string; search_config: string | null; chunk_count: number | null }>(
    await db.execute(sql`
      select k.language, s.search_config, s.chunk_count from knowledge_bases k left join kb_index_stats s on s.kb_id = k.id
      where k.id = ${kbId}`),
  );
  const kb = found[0];
  if (!kb) return null;
  if (kb.search_config === null || Number(kb.chunk_count ?? 0) === 0) return searchConfigFor(kb.language);
  return checkedSearchConfig(kb.search_config);
}

/**
 * Stages the chunks of a document whose row exists (an upload waiting for its ingestion, or a replacement): the
 * chunks' foreign key needs the row. Null when there is none (a first ingestion from the CLI or the seed): those are
 * written in the document's transaction.
 */
export async function stageChunks(db: Executor, kbId: string, sourceName: string, drafts: IndexedChunk[]): Promise<Staged | null> {
  const row = rows<{ id: string }>(await db.execute(sql`select id from documents where kb_id = ${kbId} and source_name = ${sourceName}`));
  const config = await indexingConfig(db, kbId);
  if (!row[0] || !config) return null;
  const staged = { stage: `staging:${randomUUID()}`, documentId: row[0].id, config };
  try {
    for (let i = 0; i < drafts.length;) {
      let end = i + 1;
      let characters = itemAt(drafts, i).content.length;
      while (end < drafts.length && end - i < STAGE_BATCH && characters + itemAt(drafts, end).content.length <= STAGE_BATCH_CHARACTERS) {
        characters += itemAt(drafts, end++).content.length;
      }
      await insertChunks(db, staged.stage, staged.documentId, drafts.slice(i, end), config);
      await new Promise((resolve) => setImmediate(resolve));
      i = end;
    }
  } catch (error) {
    await db.execute(sql`delete from chunks where kb_id = ${staged.stage}`);
    throw error;
  }
  return staged;
}

/** Makes staged chunks the knowledge base's; all of them, or the transaction fails (the job then retries). */
export async function unstageChunks(tx: Executor, kbId: string, staged: Staged, expected: number): Promise<void> {
  const moved = rows<{ n: number }>(
    await tx.execute(sql`
      with moved as (update chunks set kb_id = ${kbId} where kb_id = ${staged.stage} returning 1)
      select count(*)::int as n from moved`),
  );
  // Fewer when the document was deleted (its chunks with it) or reindexed while they were staged.
  if (Number(moved[0]?.n ?? 0) !== expected) throw new Error(`${expected} staged chunks expected, ${moved[0]?.n ?? 0} found`);
}

/** Staged chunks live minutes; a day-old one belongs to an ingestion killed between its staging and its transaction. */
export const ABANDONED_STAGE_MS = 24 * 3_600_000;

/** Deletes the staged chunks of ingestions that never finished (a range on kb_id, which chunks_kb_idx serves). */
export async function purgeAbandonedStagedChunks(db: Executor, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - ABANDONED_STAGE_MS);
  const deleted = rows<{ n: number }>(
    await db.execute(sql`
      with gone as (delete from chunks where kb_id >= 'staging:' and kb_id < 'staging;' and created_at < ${before.toISOString()}::timestamptz returning 1)
      select count(*)::int as n from gone`),
  );
  return Number(deleted[0]?.n ?? 0);
}

/** Hourly, one run per tick across instances. */
export function startStagedChunkPurge(): PeriodicTask {
  return processSingleton('staged-chunk-purge', () =>
    new PeriodicTask('staged-chunk-purge', async (db, now) => void (await purgeAbandonedStagedChunks(db, now)), 3_600_000).start(),
  );
}

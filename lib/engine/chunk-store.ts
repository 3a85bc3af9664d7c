import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { itemAt } from '@/lib/platform/arrays';
import { PeriodicTask } from '@/lib/platform/periodic-task';
import { processSingleton } from '@/lib/platform/singleton';
import type { DraftChunk } from './chunking';
import { realArrayLiteral } from './embeddings';
import { addToShare, applyDocumentStats, emptyShare, isVisibleShare, readVisibleShare, swapShares, type DocumentShare } from './index-stats';
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
  /** Counts what was inserted into this share of the statistics. */
  share?: DocumentShare,
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
    const inserted = await tx.execute(sql`
      insert into chunks (document_id, kb_id, ordinal, page, heading, content, token_count, search_vector, lexeme_count)
      select ${documentId}, ${kbId}, x.ordinal, x.page, x.heading, x.content, x.tokens, v.vec,
             (select coalesce(sum(array_length(u.positions, 1)), 0) from unnest(v.vec) u)::int
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as x(ordinal int, page int, heading text, content text, tokens int)
      cross join lateral (
        select setweight(to_tsvector(${config}::regconfig, coalesce(x.heading, '')), 'A') || to_tsvector(${config}::regconfig, x.content)
               || to_tsvector(${config}::regconfig, almanac_compound_parts(x.content)) as vec
      ) v
      ${share ? sql`returning id, lexeme_count, tsvector_to_array(search_vector) as lexemes` : sql``}`);
    if (share) addToShare(share, rows(inserted));
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

export interface Staged {
  stage: string;
  documentId: string;
  config: SearchConfig;
  /** The staged chunks' share of the statistics, and the share of the document's visible chunks they replace. */
  share: DocumentShare;
  replaces: DocumentShare;
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
 * Stages the chunks of a document whose row exists (the chunks' foreign key needs it): an upload waiting for its
 * ingestion, a replacement, a reindex, or a first ingestion's placeholder (claimPlaceholderRow). Null without a
 * knowledge base.
 */
export async function stageChunks(db: Executor, kbId: string, documentId: string, drafts: IndexedChunk[]): Promise<Staged | null> {
  const config = await indexingConfig(db, kbId);
  if (!config) return null;
  const staged = { stage: `staging:${randomUUID()}`, documentId, config, share: emptyShare(), replaces: emptyShare() };
  try {
    for (let i = 0; i < drafts.length;) {
      let end = i + 1;
      let characters = itemAt(drafts, i).content.length;
      while (end < drafts.length && end - i < STAGE_BATCH && characters + itemAt(drafts, end).content.length <= STAGE_BATCH_CHARACTERS) {
        characters += itemAt(drafts, end++).content.length;
      }
      await insertChunks(db, staged.stage, staged.documentId, drafts.slice(i, end), config, staged.share);
      await new Promise((resolve) => setImmediate(resolve));
      i = end;
    }
    staged.replaces = await readVisibleShare(db, kbId, documentId);
  } catch (error) {
    await dropStagedChunks(db, staged);
    throw error;
  }
  return staged;
}

/** What a failed attempt, a duplicate or a skipped reindex staged; nothing after a success, whose chunks were moved. */
export async function dropStagedChunks(db: Executor, staged: Staged): Promise<void> {
  await db.execute(sql`delete from chunks where kb_id = ${staged.stage}`);
}

/** Makes staged chunks the knowledge base's; all of them, or the transaction fails (the job then retries). */
async function unstageChunks(tx: Executor, kbId: string, staged: Staged, expected: number): Promise<void> {
  const moved = rows<{ n: number }>(
    await tx.execute(sql`
      with moved as (update chunks set kb_id = ${kbId} where kb_id = ${staged.stage} returning 1)
      select count(*)::int as n from moved`),
  );
  // Fewer when the document was deleted (its chunks with it) while they were staged.
  if (Number(moved[0]?.n ?? 0) !== expected) throw new Error(`${expected} staged chunks expected, ${moved[0]?.n ?? 0} found`);
}

/**
 * A document's new chunks in place of its old ones, in the caller's transaction (which holds lockKnowledgeBase's lock):
 * the old ones' share of the statistics out, the new ones' in, so the statistics are those of the chunks readers see
 * at every commit. Staged chunks are moved in when they were indexed with the configuration the lock returned, and
 * their shares, counted while staging, are swapped without reading a chunk again (the old ones are counted here if
 * they changed since).
 */
export async function replaceDocumentChunks(
  tx: Executor,
  kbId: string,
  documentId: string,
  chunks: { drafts: IndexedChunk[]; config: SearchConfig; staged: Staged | null; embedded: { model: string; vectors: number[][] } | null },
): Promise<void> {
  const { drafts, config, staged, embedded } = chunks;
  const movable = staged && staged.documentId === documentId && staged.config === config ? staged : null;
  if (movable) {
    if (await isVisibleShare(tx, kbId, documentId, movable.replaces)) await swapShares(tx, kbId, movable.replaces, movable.share);
    else {
      await applyDocumentStats(tx, kbId, documentId, -1);
      await swapShares(tx, kbId, emptyShare(), movable.share);
    }
    await tx.execute(sql`delete from chunks where document_id = ${documentId} and kb_id = ${kbId}`);
    await unstageChunks(tx, kbId, movable, drafts.length);
  } else {
    await applyDocumentStats(tx, kbId, documentId, -1);
    await tx.execute(sql`delete from chunks where document_id = ${documentId} and kb_id = ${kbId}`);
    await insertChunks(tx, kbId, documentId, drafts, config);
  }
  if (embedded) await insertEmbeddings(tx, kbId, documentId, embedded.model, drafts, embedded.vectors);
  if (!movable) await applyDocumentStats(tx, kbId, documentId, 1);
}

/** Stores one document's chunk vectors (after its chunks are inserted), matched by ordinal. */
async function insertEmbeddings(tx: Executor, kbId: string, documentId: string, model: string, drafts: DraftChunk[], vectors: number[][]): Promise<void> {
  const BATCH = 200;
  for (let i = 0; i < drafts.length; i += BATCH) {
    const batch = drafts.slice(i, i + BATCH).map((d, k) => ({ ordinal: d.ordinal, embedding: realArrayLiteral(itemAt(vectors, i + k)) }));
    await tx.execute(sql`
      insert into chunk_embeddings (chunk_id, kb_id, model, embedding)
      select c.id, ${kbId}, ${model}, x.embedding::real[]
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as x(ordinal int, embedding text)
      join chunks c on c.document_id = ${documentId} and c.kb_id = ${kbId} and c.ordinal = x.ordinal`);
  }
}

/**
 * A first ingestion (the CLI, the seed) has no document row for its staged chunks to reference, so it makes one: the
 * document `ingesting`, without structure or source bytes, which every reader skips as it skips any document not
 * `ready` (the console lists it as ingesting, as it lists an upload). The document's transaction turns it into the
 * document, or deletes it (dropPlaceholderRow) when the file turns out a duplicate or the attempt fails. True when this
 * call made the row; false when one exists (an upload's, a document being replaced, a concurrent first ingestion's).
 */
export async function claimPlaceholderRow(
  db: Executor,
  kbId: string,
  documentId: string,
  row: { sourceName: string; title: string; mimeType: string; hash: string; byteSize: number },
): Promise<boolean> {
  const made = rows<{ id: string }>(
    await db.execute(sql`
      insert into documents (id, kb_id, source_name, title, mime_type, content_hash, byte_size, status)
      select ${documentId}, ${kbId}, ${row.sourceName}, ${row.title}, ${row.mimeType}, ${row.hash}, ${row.byteSize}, 'ingesting'
      where exists (select 1 from knowledge_bases where id = ${kbId})
      on conflict (kb_id, source_name) do nothing
      returning id`),
  );
  return made.length > 0;
}

/** A placeholder: `ingesting` with neither structure nor source bytes (an upload's row always has its bytes). */
const isPlaceholder = sql`documents.status = 'ingesting' and documents.structure is null
  and not exists (select 1 from document_sources s where s.document_id = documents.id)`;

/** Deletes a first ingestion's placeholder that did not become its document (with whatever chunks it staged). */
export async function dropPlaceholderRow(db: Executor, documentId: string): Promise<void> {
  await db.execute(sql`delete from documents where id = ${documentId} and ${isPlaceholder}`);
}

/** Staged chunks live minutes; a day-old one belongs to an ingestion killed between its staging and its transaction. */
export const ABANDONED_STAGE_MS = 24 * 3_600_000;

/**
 * Deletes what ingestions that never finished left: staged chunks (a range on kb_id, which chunks_kb_idx serves) and
 * first ingestions' placeholder rows.
 */
export async function purgeAbandonedStagedChunks(db: Executor, now: Date = new Date()): Promise<{ chunks: number; placeholders: number }> {
  const before = new Date(now.getTime() - ABANDONED_STAGE_MS).toISOString();
  const chunks = rows<{ n: number }>(
    await db.execute(sql`
      with gone as (delete from chunks where kb_id >= 'staging:' and kb_id < 'staging;' and created_at < ${before}::timestamptz returning 1)
      select count(*)::int as n from gone`),
  );
  const placeholders = rows<{ n: number }>(
    await db.execute(sql`
      with gone as (delete from documents where ${isPlaceholder} and updated_at < ${before}::timestamptz returning 1)
      select count(*)::int as n from gone`),
  );
  return { chunks: Number(chunks[0]?.n ?? 0), placeholders: Number(placeholders[0]?.n ?? 0) };
}

/** Hourly, one run per tick across instances. */
export function startStagedChunkPurge(): PeriodicTask {
  return processSingleton('staged-chunk-purge', () =>
    new PeriodicTask('staged-chunk-purge', async (db, now) => void (await purgeAbandonedStagedChunks(db, now)), 3_600_000).start(),
  );
}

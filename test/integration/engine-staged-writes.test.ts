import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { purgeAbandonedStagedChunks } from '@/lib/engine';
import { replaceDocumentChunks, stageChunks } from '@/lib/engine/chunk-store';
import { lockKnowledgeBase } from '@/lib/engine/index-stats';
import { documentIdFor, ingestDocument } from '@/lib/engine/ingest';
import { prepareInWorker } from '@/lib/engine/parse-in-worker';
import { reindexKnowledgeBase } from '@/lib/engine/reindex';
import { createHostedKnowledgeBase } from '@/lib/publishing/knowledge-bases';
import { createTestDatabase } from '../support/db';
import { withEventLoopLag } from '../support/event-loop-lag';
import { expectStatsExact } from '../support/index-stats';

/**
 * The paths that wrote a whole large document, or a whole knowledge base, in one transaction (docs/api.md §8): a
 * first ingestion with no document row (the CLI's, the seed's) and a reindex. On PGlite such a transaction holds the
 * only connection, so every request waits for it; on PostgreSQL it holds the statistics row every writer of the
 * knowledge base needs. Scaled down: documents of a few hundred passages, where the probe's 10 MB text had 7,764.
 */

let db: Database;

/** A vocabulary of about a thousand words, as a long document has (a new number in every sentence had twelve times that). */
const prose = (topic: string, sentences: number) =>
  new TextEncoder().encode(
    Array.from({ length: sentences }, (_, i) => `The ${topic} ledger entry ${i % 997} records a tide of ${i % 89} spans at the ${topic} quay.`).join(' '),
  );

async function newKb(): Promise<string> {
  const created = await createHostedKnowledgeBase(db, {
    title: 'Staged writes',
    publisher: 'Staging Press',
    category: 'research',
    tags: ['test'],
    summary: 'A knowledge base for the staged-write tests.',
  });
  if (!created.ok) throw new Error(created.message);
  return created.id;
}

const count = async (query: ReturnType<typeof sql>) => Number(((await db.execute(query)).rows[0] as { n: number }).n);
const stagedCount = () => count(sql`select count(*)::int as n from chunks where kb_id like 'staging:%'`);

/** What a reader of the knowledge base sees, read in one statement (one snapshot). */
interface Sight {
  /** kb_index_stats.chunk_count, BM25's N. */
  stats: number;
  /** The knowledge base's chunks. */
  visible: number;
  /** The chunk counts of its ready documents, summed. */
  listed: number;
  staged: number;
}

/**
 * Runs `work` while a writer of the knowledge base keeps taking its statistics row (what every ingestion into it
 * waits for; on PGlite also the only connection) and reads what a reader sees. Returns the longest such wait and
 * every sight: a transaction spanning the whole document or knowledge base shows as a wait as long as it.
 */
async function probeWhile<T>(kbId: string, work: () => Promise<T>): Promise<{ result: T; worstWaitMs: number; worstLagMs: number; sights: Sight[] }> {
  let done = false;
  let worstWaitMs = 0;
  const sights: Sight[] = [];
  const probe = async () => {
    while (!done) {
      const started = performance.now();
      const sight = await db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from kb_index_stats where kb_id = ${kbId} for update`);
        const read = await tx.execute(sql`
          select (select chunk_count from kb_index_stats where kb_id = ${kbId}) as stats,
                 (select count(*)::int from chunks where kb_id = ${kbId}) as visible,
                 (select coalesce(sum(chunk_count), 0)::int from documents where kb_id = ${kbId} and status = 'ready') as listed,
                 (select count(*)::int from chunks where kb_id like 'staging:%') as staged`);
        return read.rows[0] as unknown as Sight;
      });
      worstWaitMs = Math.max(worstWaitMs, performance.now() - started);
      sights.push(sight);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const probing = probe();
  try {
    const { result, worstMs } = await withEventLoopLag(work);
    done = true;
    // The probe waiting when the work ended counts too.
    await probing;
    return { result, worstWaitMs, worstLagMs: worstMs, sights };
  } finally {
    done = true;
    await probing;
  }
}

/** Everything a reindex rewrites, in an order that does not depend on chunk ids. */
async function index(kbId: string) {
  const all = async (query: ReturnType<typeof sql>) => (await db.execute(query)).rows;
  return {
    chunks: await all(sql`
      select document_id, ordinal, page, heading, content, token_count, lexeme_count, search_vector::text as vector
      from chunks where kb_id = ${kbId} order by document_id, ordinal`),
    documents: await all(sql`select id, status, chunk_count from documents where kb_id = ${kbId} order by id`),
    terms: await all(sql`select lexeme, doc_freq from kb_terms where kb_id = ${kbId} order by lexeme`),
    stats: await all(sql`select chunk_count, total_length, search_config from kb_index_stats where kb_id = ${kbId}`),
  };
}

beforeAll(async () => {
  db = (await createTestDatabase()).db;
});

/**
 * The bound on the longest wait or hold of the event loop. Measured on a loaded two-core machine with one transaction
 * for the whole: 1.4 s (first ingestion) and 3.3 s (reindex) on PGlite, 0.5 s and 0.7 s on PostgreSQL; staged, 0.2 s
 * and 0.25 s on PGlite, 0.06 s and 0.05 s on PostgreSQL. Loose, because scheduling delays count too (a staged reindex
 * on PGlite once waited 1,008 ms during a full `npm test` on two busy cores, and 1 s failed it): what tells the two
 * apart for certain is that only the staged paths are ever seen staging; the bound still fails PGlite's one-transaction
 * reindex (3.3 s).
 */
const WAIT_BOUND_MS = 1_500;

describe('a first ingestion without a document row', { timeout: 180_000 }, () => {
  it('stages a large document out of sight and shows it whole, with exact statistics', async () => {
    const kbId = await newKb();
    await ingestDocument(db, kbId, { sourceName: 'small.txt', bytes: prose('harbour', 20) });
    const before = await count(sql`select count(*)::int as n from chunks where kb_id = ${kbId}`);
    const bytes = prose('estuary', 12_000);
    const { result, worstWaitMs, worstLagMs, sights } = await probeWhile(kbId, () => ingestDocument(db, kbId, { sourceName: 'large.txt', bytes }));
    expect(result).toMatchObject({ ok: true, status: 'added', documentId: documentIdFor(kbId, 'large.txt') });
    const total = before + (result.ok ? result.chunkCount : 0);
    expect(total - before).toBeGreaterThan(500);
    // Staged while the readers saw the knowledge base as it was, then all of it at once, statistics included.
    expect(sights.some((s) => s.staged > 0 && s.visible === before)).toBe(true);
    for (const sight of sights) {
      expect([before, total]).toContain(sight.visible);
      expect(sight).toMatchObject({ stats: sight.visible, listed: sight.visible });
    }
    expect(await count(sql`select count(*)::int as n from chunks where kb_id = ${kbId}`)).toBe(total);
    expect(await stagedCount()).toBe(0);
    await expectStatsExact(db, kbId);
    expect(worstWaitMs).toBeLessThan(WAIT_BOUND_MS);
    expect(worstLagMs).toBeLessThan(WAIT_BOUND_MS);
  });

  it('keeps duplicates and replacements as they were, and leaves no placeholder or staged chunk behind', async () => {
    const kbId = await newKb();
    const bytes = prose('delta', 6_000);
    const first = await ingestDocument(db, kbId, { sourceName: 'delta.txt', bytes });
    expect(first).toMatchObject({ ok: true, status: 'added' });
    const documents = () => db.execute(sql`select source_name, status from documents where kb_id = ${kbId} order by source_name`).then((r) => r.rows);

    expect(await ingestDocument(db, kbId, { sourceName: 'delta.txt', bytes })).toMatchObject({ ok: true, status: 'duplicate', duplicateOfName: 'delta.txt' });
    expect(await ingestDocument(db, kbId, { sourceName: 'copy.txt', bytes })).toMatchObject({ ok: true, status: 'duplicate', duplicateOfName: 'delta.txt' });
    expect(await documents()).toEqual([{ source_name: 'delta.txt', status: 'ready' }]);

    const changed = await ingestDocument(db, kbId, { sourceName: 'delta.txt', bytes: prose('river', 6_500) });
    expect(changed).toMatchObject({ ok: true, status: 'replaced', documentId: first.ok ? first.documentId : '' });
    expect(await count(sql`select count(*)::int as n from chunks where kb_id = ${kbId} and content like '%delta%'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from chunks where kb_id = ${kbId}`)).toBe(changed.ok ? changed.chunkCount : -1);

    // The first version's bytes again under a new name: no longer a duplicate, so a new document.
    expect(await ingestDocument(db, kbId, { sourceName: 'again.txt', bytes })).toMatchObject({ ok: true, status: 'added' });
    expect(await documents()).toEqual([
      { source_name: 'again.txt', status: 'ready' },
      { source_name: 'delta.txt', status: 'ready' },
    ]);
    expect(await stagedCount()).toBe(0);
    await expectStatsExact(db, kbId);
  });

  it('a placeholder abandoned by a killed ingestion is purged after a day; an upload waiting for its job is not', async () => {
    const kbId = await newKb();
    const row = (name: string) => sql`(${documentIdFor(kbId, name)}, ${kbId}, ${name}, ${name}, 'text/plain', 'h', 1, 'ingesting')`;
    await db.execute(sql`insert into documents (id, kb_id, source_name, title, mime_type, content_hash, byte_size, status)
      values ${row('killed.txt')}, ${row('fresh.txt')}, ${row('upload.txt')}`);
    await db.execute(sql`insert into document_sources (document_id, kb_id, bytes) values (${documentIdFor(kbId, 'upload.txt')}, ${kbId}, '\\x00'::bytea)`);
    await db.execute(sql`update documents set updated_at = now() - interval '25 hours' where kb_id = ${kbId} and source_name <> 'fresh.txt'`);
    expect(await purgeAbandonedStagedChunks(db)).toEqual({ chunks: 0, placeholders: 1 });
    const left = await db.execute(sql`select source_name from documents where kb_id = ${kbId} order by source_name`);
    expect(left.rows).toEqual([{ source_name: 'fresh.txt' }, { source_name: 'upload.txt' }]);
  });
});

describe('a reindex of a knowledge base', { timeout: 300_000 }, () => {
  it('swaps one document at a time: never a long wait, the same chunks and statistics, nothing staged', async () => {
    const kbId = await newKb();
    for (const topic of ['coast', 'marsh', 'lagoon', 'fjord']) {
      const added = await ingestDocument(db, kbId, { sourceName: `${topic}.txt`, bytes: prose(topic, 5_000) });
      expect(added).toMatchObject({ ok: true, status: 'added' });
    }
    await ingestDocument(db, kbId, { sourceName: 'note.txt', bytes: prose('note', 15) });
    const before = await index(kbId);
    expect(before.chunks.length).toBeGreaterThan(4 * 250);

    const { result, worstWaitMs, worstLagMs, sights } = await probeWhile(kbId, () => reindexKnowledgeBase(db, kbId, { embeddings: null }));
    expect(result).toEqual({ ok: true, documents: 5, chunks: before.chunks.length });
    expect(await index(kbId)).toEqual(before);
    expect(await stagedCount()).toBe(0);
    await expectStatsExact(db, kbId);
    // A reader saw every document whole and statistics matching the chunks it saw, at every moment.
    for (const sight of sights) expect(sight).toMatchObject({ visible: before.chunks.length, stats: before.chunks.length, listed: before.chunks.length });
    expect(sights.some((s) => s.staged > 0)).toBe(true);
    expect(worstWaitMs).toBeLessThan(WAIT_BOUND_MS);
    expect(worstLagMs).toBeLessThan(WAIT_BOUND_MS);
  });

  it('leaves a document replaced during the reindex as its ingestion wrote it', async () => {
    const kbId = await newKb();
    await ingestDocument(db, kbId, { sourceName: 'a.txt', bytes: prose('alpha', 3_000) });
    await ingestDocument(db, kbId, { sourceName: 'b.txt', bytes: prose('beta', 3_000) });
    const reindexing = reindexKnowledgeBase(db, kbId, { embeddings: null });
    // Sent while the reindex is under way: it commits before, between or after the reindex's transactions, and b.txt
    // must end as this ingestion wrote it whichever it is.
    const replaced = ingestDocument(db, kbId, { sourceName: 'b.txt', bytes: prose('gamma', 3_200) });
    expect(await reindexing).toMatchObject({ ok: true, documents: 2 });
    expect(await replaced).toMatchObject({ ok: true, status: 'replaced' });
    expect(await count(sql`select count(*)::int as n from chunks where kb_id = ${kbId} and content like '%beta%'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from chunks where kb_id = ${kbId} and content like '%gamma%'`)).toBeGreaterThan(0);
    expect(await stagedCount()).toBe(0);
    await expectStatsExact(db, kbId);
  });

  it('a swap whose counted old chunks were replaced since counts the ones it finds', async () => {
    const kbId = await newKb();
    const bytes = prose('shoal', 3_000);
    const first = await ingestDocument(db, kbId, { sourceName: 'shoal.txt', bytes });
    if (!first.ok) throw new Error(first.message);
    const { chunks: drafts } = await prepareInWorker('text', prose('reef', 3_000), 'shoal.txt');
    const staged = await stageChunks(db, kbId, first.documentId, drafts);
    expect(staged?.replaces.chunks).toBe(first.chunkCount);
    // Another version lands between this staging and its swap: the share counted as "replaced" is no longer there.
    expect(await ingestDocument(db, kbId, { sourceName: 'shoal.txt', bytes: prose('spit', 3_100) })).toMatchObject({ status: 'replaced' });
    await db.transaction(async (tx) => {
      const config = await lockKnowledgeBase(tx, kbId);
      if (!config) throw new Error('the knowledge base is gone');
      await replaceDocumentChunks(tx, kbId, first.documentId, { drafts, config, staged, embedded: null });
    });
    expect(await count(sql`select count(*)::int as n from chunks where kb_id = ${kbId}`)).toBe(drafts.length);
    expect(await count(sql`select count(*)::int as n from chunks where kb_id = ${kbId} and content like '%spit%'`)).toBe(0);
    expect(await stagedCount()).toBe(0);
    await expectStatsExact(db, kbId);
  });

  it('rebuilds statistics an earlier fault left disagreeing with the chunks', async () => {
    const kbId = await newKb();
    await ingestDocument(db, kbId, { sourceName: 'tide.txt', bytes: prose('tide', 40) });
    await db.execute(sql`update kb_index_stats set chunk_count = chunk_count + 3, total_length = total_length + 50 where kb_id = ${kbId}`);
    await db.execute(sql`update kb_terms set doc_freq = doc_freq + 2 where kb_id = ${kbId}`);
    expect(await reindexKnowledgeBase(db, kbId, { embeddings: null })).toMatchObject({ ok: true, documents: 1 });
    await expectStatsExact(db, kbId);
  });
});

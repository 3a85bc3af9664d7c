import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { documents, knowledgeBases, publishers } from '@/db/schema';
import { INGEST_QUEUE, purgeAbandonedStagedChunks, registerContentJobs, uploadDocument } from '@/lib/engine';
import { insertChunks } from '@/lib/engine/ingest';
import { CHUNK_MAX_CHARS } from '@/lib/engine/chunking';
import { resetEnvForTesting } from '@/lib/platform/env';
import { newId } from '@/lib/platform/ids';
import { runDueJobs } from '@/lib/platform/jobs';
import { withEventLoopLag } from '../support/event-loop-lag';
import { expectStatsExact } from '../support/index-stats';
import { createTestDatabase } from '../support/db';
import { createUser } from './subscriptions-fixtures';

/**
 * Chunking and indexing of an upload within budgets (docs/api.md §9.5), scaled down from the probe's input: twenty
 * 2 MB .txt files of one unbroken word held an instance's event loop and a transaction for over four minutes (the
 * token count of one 2 MB chunk is quadratic in its length). Here three such files go through the console's path
 * (upload, then the ingestion job), and a large document's chunks are staged out of readers' sight.
 */

const MB = 1024 * 1024;
let db: Database;
let owner: string;

const oneWord = (letter: string) => new Uint8Array(2 * MB).fill(letter.charCodeAt(0));
const prose = (topic: string, sentences: number) =>
  new TextEncoder().encode(Array.from({ length: sentences }, (_, i) => `The ${topic} record number ${i} notes tide ${i % 97} at the harbour wall.`).join(' '));

async function newHostedKb(): Promise<string> {
  const [pub] = await db.select().from(publishers).where(eq(publishers.ownerUserId, owner));
  const kbId = newId('kb');
  await db
    .insert(knowledgeBases)
    .values({ id: kbId, publisherId: pub!.id, slug: `kb-${kbId.slice(-8).toLowerCase()}`, title: 'Budget test', summary: 's', category: 'education' });
  return kbId;
}

async function upload(kbId: string, name: string, bytes: Uint8Array): Promise<string> {
  const uploaded = await uploadDocument(db, owner, kbId, { name, bytes });
  if (!uploaded.ok) throw new Error(uploaded.message);
  return uploaded.document.id;
}

const statusOf = async (id: string) => {
  const [doc] = await db.select().from(documents).where(eq(documents.id, id));
  return { status: doc!.status, error: doc!.errorMessage, chunks: doc!.chunkCount };
};

const count = async (query: ReturnType<typeof sql>) => Number(((await db.execute(query)).rows[0] as { n: number }).n);

beforeAll(async () => {
  const handle = await createTestDatabase();
  db = handle.db;
  owner = await createUser(db);
  await db.insert(publishers).values({ id: newId('pub'), slug: `budget-${owner.slice(-6).toLowerCase()}`, name: 'Budget Press', ownerUserId: owner });
  registerContentJobs(async () => db);
});

afterEach(() => {
  delete process.env.PARSE_MAX_CHUNKS;
  resetEnvForTesting();
});

describe('chunking and indexing an upload', { timeout: 180_000 }, () => {
  it('ingests 2 MB files of one unbroken word in bounded pieces while the event loop stays free', async () => {
    const kbId = await newHostedKb();
    const ids = [await upload(kbId, 'a.txt', oneWord('a')), await upload(kbId, 'b.txt', oneWord('b')), await upload(kbId, 'c.txt', oneWord('c'))];
    const { result: ran, worstMs } = await withEventLoopLag(() => runDueJobs({ queues: [INGEST_QUEUE], limit: 10 }));
    expect(ran).toBe(3);
    const pieces = Math.ceil((2 * MB) / CHUNK_MAX_CHARS);
    for (const id of ids) expect(await statusOf(id)).toEqual({ status: 'ready', error: null, chunks: pieces });
    expect(await count(sql`select max(length(content))::int as n from chunks where kb_id = ${kbId}`)).toBe(CHUNK_MAX_CHARS);
    expect(await count(sql`select count(*)::int as n from chunks where kb_id = ${kbId}`)).toBe(3 * pieces);
    expect(await count(sql`select count(*)::int as n from chunks where kb_id like 'staging:%'`)).toBe(0);
    await expectStatsExact(db, kbId);
    // Main held it for minutes; the bound is loose because this machine's scheduling delays count too
    // (bench/stall measures health latency).
    expect(worstMs).toBeLessThan(1_500);
  });

  it('fails a document that splits into more chunks than the budget, in a sentence naming the limit', async () => {
    process.env.PARSE_MAX_CHUNKS = '100';
    resetEnvForTesting();
    const kbId = await newHostedKb();
    const id = await upload(kbId, 'long.txt', oneWord('d'));
    await runDueJobs({ queues: [INGEST_QUEUE], limit: 10 });
    expect(await statusOf(id)).toEqual({
      status: 'failed',
      error: 'The document splits into 525 passages; a document may have at most 100. Split it and upload the parts.',
      chunks: 0,
    });
    expect(await count(sql`select count(*)::int as n from chunks where kb_id = ${kbId}`)).toBe(0);
  });

  it('a large replacement becomes visible whole, and a staged copy that turns out a duplicate leaves nothing behind', async () => {
    const kbId = await newHostedKb();
    const first = await upload(kbId, 'log.txt', prose('first', 5_000));
    await runDueJobs({ queues: [INGEST_QUEUE], limit: 10 });
    const before = await statusOf(first);
    expect(before.status).toBe('ready');
    expect(before.chunks).toBeGreaterThan(200); // staged: more than one transaction's worth
    await expectStatsExact(db, kbId);

    // Replaced by a larger version: the old chunks go, the new ones come, all in the document's transaction.
    const second = prose('second', 7_000);
    expect(await upload(kbId, 'log.txt', second)).toBe(first);
    await runDueJobs({ queues: [INGEST_QUEUE], limit: 10 });
    const after = await statusOf(first);
    expect(after.status).toBe('ready');
    expect(after.chunks).toBeGreaterThan(before.chunks);
    expect(await count(sql`select count(*)::int as n from chunks where kb_id = ${kbId}`)).toBe(after.chunks);
    expect(await count(sql`select count(*)::int as n from chunks where kb_id = ${kbId} and content like '%first record%'`)).toBe(0);
    await expectStatsExact(db, kbId);

    // The same bytes under another name: staged, then refused as a duplicate; the staged rows are removed.
    const copy = await upload(kbId, 'copy.txt', second);
    await runDueJobs({ queues: [INGEST_QUEUE], limit: 10 });
    expect(await statusOf(copy)).toEqual({ status: 'failed', error: 'The same content is already here as “log.txt”.', chunks: 0 });
    expect(await count(sql`select count(*)::int as n from chunks where kb_id like 'staging:%'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from chunks where kb_id = ${kbId}`)).toBe(after.chunks);
    await expectStatsExact(db, kbId);
  });
});

describe('staged chunks of an ingestion that never finished', () => {
  it('are purged after a day, and fresh ones are left to their ingestion', async () => {
    const kbId = await newHostedKb();
    const documentId = await upload(kbId, 'staged.txt', prose('staged', 20));
    const draft = (ordinal: number) => ({ ordinal, page: null, heading: null, start: 0, end: 0, content: `Staged passage ${ordinal} about the harbour wall.` });
    await insertChunks(db, 'staging:abandoned', documentId, [draft(0), draft(1)]);
    await insertChunks(db, 'staging:running', documentId, [draft(0)]);
    await db.execute(sql`update chunks set created_at = now() - interval '25 hours' where kb_id = 'staging:abandoned'`);
    expect(await purgeAbandonedStagedChunks(db)).toEqual({ chunks: 2, placeholders: 0 });
    expect(await count(sql`select count(*)::int as n from chunks where kb_id = 'staging:abandoned'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from chunks where kb_id = 'staging:running'`)).toBe(1);
    expect(await purgeAbandonedStagedChunks(db)).toEqual({ chunks: 0, placeholders: 0 });
  });
});

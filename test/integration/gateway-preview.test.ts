import '../support/gateway-env';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kbStatsDaily, knowledgeBases, usagePeriods } from '@/db/schema';
import type { DatabaseHandle } from '@/db/client';
import { ingestDocument } from '@/lib/engine/ingest';
import { listPublicDocuments } from '@/lib/catalog';
import { previewAllowance, previewsOffered, runPreviewQuery } from '@/lib/gateway/preview';
import { getUsageRecorder } from '@/lib/gateway/usage-recorder';
import { updateListing } from '@/lib/publishing';
import { resetEnvForTesting } from '@/lib/platform/env';
import { PEER_HEADER } from '@/lib/platform/peer-header.mjs';
import { createTestDatabase } from '../support/db';
import { buyKey, createKnowledgeBase, createPublisher } from '../support/gateway-fixtures';

/**
 * Free previews (docs/api.md §10.6): anyone asks a few questions on the knowledge-base page, per client address and
 * knowledge base per day, through the keys' limiter; nothing is counted against a cap or the query volume, the
 * publisher sees previews in analytics, and a publisher can turn them off.
 */
let handle: DatabaseHandle;
let kb: string;
const saved = { ...process.env };

beforeAll(async () => {
  // Behind the front server the peer header is the client's address (lib/platform/client-address.ts).
  Object.assign(process.env, { ALMANAC_LISTEN_URL: 'http://127.0.0.1:3000', PREVIEW_QUESTIONS_PER_DAY: '2' });
  resetEnvForTesting();
  handle = await createTestDatabase();
  const pub = await createPublisher(handle.db);
  kb = await createKnowledgeBase(handle.db, pub, { title: 'Knots' });
  const text = 'Knots\n\nThe bowline makes a fixed loop at the end of a line. The clove hitch binds a line to a post.';
  const ingested = await ingestDocument(handle.db, kb, { sourceName: 'knots.txt', bytes: new TextEncoder().encode(text), mimeType: 'text/plain' });
  expect(ingested, JSON.stringify(ingested)).toMatchObject({ ok: true });
});

afterAll(() => {
  process.env = saved;
  resetEnvForTesting();
});

const from = (address: string) => new Headers({ [PEER_HEADER]: address });
const ask = (address: string, query = 'Which knot makes a fixed loop?', kbId = kb) =>
  runPreviewQuery({ kbId, query, headers: from(address), requestId: `req_${Math.random()}` });

describe('runPreviewQuery', () => {
  it('answers anyone with citations, a few times a day per address and knowledge base, counted nowhere but in previews', async () => {
    const bought = await buyKey(handle.db, kb, { cap: 5 });
    expect(await previewAllowance(kb, from('192.0.2.1'))).toEqual({ limit: 2, remaining: 2 });

    const first = await ask('192.0.2.1');
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.answer.citations.length).toBeGreaterThan(0);
    expect(first.answer.citations[0]!.title).toBe('Knots');
    expect(first.allowance).toEqual({ limit: 2, remaining: 1 });

    expect(await ask('192.0.2.1', 'What does a clove hitch do?')).toMatchObject({ ok: true, allowance: { remaining: 0 } });
    const third = await ask('192.0.2.1');
    expect(third).toMatchObject({ ok: false, code: 'preview_limit_reached', allowance: { limit: 2, remaining: 0 } });
    expect(third.ok === false && third.retryAfterSeconds).toBeGreaterThan(0);
    // Another visitor has their own allowance; a blank question costs nothing.
    expect(await ask('192.0.2.2', '   ')).toMatchObject({ ok: false, code: 'invalid_query' });
    expect(await previewAllowance(kb, from('192.0.2.2'))).toEqual({ limit: 2, remaining: 2 });
    expect((await ask('192.0.2.2')).ok).toBe(true);

    await getUsageRecorder().flush();
    const [stats] = await handle.db
      .select({ count: kbStatsDaily.count })
      .from(kbStatsDaily)
      .where(and(eq(kbStatsDaily.kbId, kb), eq(kbStatsDaily.outcome, 'preview')));
    expect(stats?.count).toBe(3);
    const [row] = await handle.db.select({ volume: knowledgeBases.queryVolume }).from(knowledgeBases).where(eq(knowledgeBases.id, kb));
    expect(row?.volume).toBe(0);
    const used = await handle.db.select({ used: usagePeriods.used }).from(usagePeriods).where(eq(usagePeriods.subscriptionId, bought.subscriptionId));
    expect(used.reduce((n, r) => n + r.used, 0)).toBe(0);
  });

  it('is refused when the publisher turned previews off, for a draft, and for an unknown id', async () => {
    const pub = await createPublisher(handle.db);
    const off = await createKnowledgeBase(handle.db, pub);
    await handle.db.update(knowledgeBases).set({ previewsEnabled: false }).where(eq(knowledgeBases.id, off));
    const draft = await createKnowledgeBase(handle.db, pub, { status: 'draft' });
    for (const id of [off, draft, 'kb_nothing']) {
      expect(await previewsOffered(id)).toBe(false);
      expect(await ask('192.0.2.9', 'tides', id)).toMatchObject({ ok: false, code: 'previews_unavailable' });
    }
    // Nothing was counted for the refusals.
    expect(await previewAllowance(off, from('192.0.2.9'))).toEqual({ limit: 2, remaining: 2 });
    expect(await previewsOffered(kb)).toBe(true);
  });

  it('is a listing setting: the console form turns it off and on, and an edit that does not name it keeps it', async () => {
    const operator = { kind: 'operator', userId: null, via: 'cli' } as const;
    const [row] = await handle.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kb));
    const listing = {
      title: row!.title,
      summary: row!.summary,
      description: 'About knots.',
      category: row!.category,
      tags: 'sailing',
      language: 'en',
      licence: 'CC BY 4.0',
      sampleQuestions: '',
    };
    expect(await updateListing(handle.db, operator, kb, { ...listing, previewsEnabled: 'false' })).toMatchObject({ ok: true, kb: { previewsEnabled: false } });
    expect(await previewsOffered(kb)).toBe(false);
    expect(await updateListing(handle.db, operator, kb, listing)).toMatchObject({ ok: true, kb: { previewsEnabled: false } });
    expect(await updateListing(handle.db, operator, kb, { ...listing, previewsEnabled: 'maybe' })).toMatchObject({ ok: false, code: 'invalid_input' });
    expect(await updateListing(handle.db, operator, kb, { ...listing, previewsEnabled: 'true' })).toMatchObject({ ok: true, kb: { previewsEnabled: true } });
    expect(await previewsOffered(kb)).toBe(true);
  });
});

describe('listPublicDocuments', () => {
  it('lists the ready documents of a published knowledge base, with type and pages, and nothing of a draft', async () => {
    expect(await listPublicDocuments(kb)).toEqual([{ title: 'Knots', type: 'Text', pages: null, updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
    await handle.db.execute(sql`update knowledge_bases set status = 'draft' where id = ${kb}`);
    expect(await listPublicDocuments(kb)).toEqual([]);
    await handle.db.execute(sql`update knowledge_bases set status = 'published' where id = ${kb}`);
  });
});

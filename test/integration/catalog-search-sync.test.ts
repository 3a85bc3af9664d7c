import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET } from '@/app/api/marketplace/knowledge-bases/route';
import type { Database } from '@/db/client';
import { knowledgeBases, publishers } from '@/db/schema';
import { clearCatalogCache } from '@/lib/catalog';
import { createTestDatabase } from '../support/db';

/**
 * The listing reads catalog_search, a projection of knowledge_bases kept by a trigger (db/migrations/0006). These
 * tests change knowledge bases and publishers the way the product does (publish, unpublish, edit, count, rename,
 * delete) and check that the public listing follows at once, and that the projection equals a recomputation from
 * the source rows after all of it. The API's result cache (docs/api.md §2.7) would rightly answer from memory for
 * up to its time to live, so each read here starts from an empty cache: what is tested is the database's projection.
 */

const BASE = 'http://almanac.test/api/marketplace/knowledge-bases';

async function list(qs: string): Promise<{ ids: string[]; total: number }> {
  await clearCatalogCache();
  const response = await GET(new Request(`${BASE}?${qs}`));
  expect(response.status).toBe(200);
  const body = (await response.json()) as { items: { id: string }[]; total: number };
  return { ids: body.items.map((i) => i.id), total: body.total };
}

let db: Database;

beforeAll(async () => {
  ({ db } = await createTestDatabase());
  await db.insert(publishers).values([
    { id: 'pub_north', slug: 'northwind', name: 'Northwind Analytics' },
    { id: 'pub_south', slug: 'southgate', name: 'Southgate Review' },
  ]);
  await db.insert(knowledgeBases).values([
    {
      id: 'kb_sync_a',
      publisherId: 'pub_north',
      slug: 'tariffs',
      title: 'Tariff Schedules Explained',
      summary: 'Customs duties by product.',
      description: 'Harmonised codes and preferential rates.',
      category: 'policy',
      tags: ['economics'],
      status: 'published',
      subscribersCount: 10,
      queryVolume: 100,
    },
    {
      id: 'kb_sync_b',
      publisherId: 'pub_north',
      slug: 'pensions',
      title: 'Pension Reform Digest',
      summary: 'Retirement systems compared.',
      description: 'Contribution rates, indexation and longevity.',
      category: 'policy',
      tags: ['economics', 'europe'],
      status: 'published',
      subscribersCount: 20,
      queryVolume: 50,
    },
    {
      id: 'kb_sync_c',
      publisherId: 'pub_south',
      slug: 'wetlands',
      title: 'Wetland Ecology Notes',
      summary: 'Marshes and peat bogs.',
      description: 'Hydrology of floodplains.',
      category: 'research',
      tags: ['climate'],
      status: 'draft',
    },
  ]);
});

describe('the listing follows every change to a knowledge base at once', () => {
  it('lists and finds only published knowledge bases', async () => {
    expect(await list('query=wetland')).toEqual({ ids: [], total: 0 });
    expect((await list('')).total).toBe(2);
  });

  it('publishing a draft lists it, with its search words and filters', async () => {
    await db.update(knowledgeBases).set({ status: 'published' }).where(eq(knowledgeBases.id, 'kb_sync_c'));
    expect(await list('query=wetland')).toEqual({ ids: ['kb_sync_c'], total: 1 });
    expect(await list('query=floodpl&category=research&tags=climate')).toEqual({ ids: ['kb_sync_c'], total: 1 });
    expect((await list('')).total).toBe(3);
  });

  it('suspending or archiving removes it from pages, totals and search', async () => {
    for (const status of ['suspended', 'archived', 'draft'] as const) {
      await db.update(knowledgeBases).set({ status }).where(eq(knowledgeBases.id, 'kb_sync_a'));
      expect(await list('query=tariff')).toEqual({ ids: [], total: 0 });
      expect((await list('category=policy')).ids).toEqual(['kb_sync_b']);
      await db.update(knowledgeBases).set({ status: 'published' }).where(eq(knowledgeBases.id, 'kb_sync_a'));
      expect(await list('query=tariff')).toEqual({ ids: ['kb_sync_a'], total: 1 });
    }
  });

  it('counter changes reorder the popular listing', async () => {
    expect((await list('category=policy')).ids).toEqual(['kb_sync_b', 'kb_sync_a']);
    await db.update(knowledgeBases).set({ subscribersCount: 30 }).where(eq(knowledgeBases.id, 'kb_sync_a'));
    expect((await list('category=policy')).ids).toEqual(['kb_sync_a', 'kb_sync_b']);
    // A tie on subscribers falls to query volume.
    await db.update(knowledgeBases).set({ subscribersCount: 30, queryVolume: 500 }).where(eq(knowledgeBases.id, 'kb_sync_b'));
    expect((await list('category=policy')).ids).toEqual(['kb_sync_b', 'kb_sync_a']);
    // The same statement the usage recorder runs: an increment.
    await db
      .update(knowledgeBases)
      .set({ queryVolume: sql`${knowledgeBases.queryVolume} + 1000` })
      .where(eq(knowledgeBases.id, 'kb_sync_a'));
    expect((await list('category=policy')).ids).toEqual(['kb_sync_a', 'kb_sync_b']);
  });

  it('new and updated orders follow the dates', async () => {
    await db
      .update(knowledgeBases)
      .set({ updatedAt: new Date('2030-01-01T00:00:00Z') })
      .where(eq(knowledgeBases.id, 'kb_sync_b'));
    expect((await list('sort=updated')).ids[0]).toBe('kb_sync_b');
    await db
      .update(knowledgeBases)
      .set({ createdAt: new Date('2030-01-01T00:00:00Z') })
      .where(eq(knowledgeBases.id, 'kb_sync_c'));
    expect((await list('sort=new')).ids[0]).toBe('kb_sync_c');
  });

  it('edited text, tags and category are searched and filtered by their new values only', async () => {
    await db
      .update(knowledgeBases)
      .set({ title: 'Trade Remedies Handbook', summary: 'Anti-dumping cases.', tags: ['trade'], category: 'legal' })
      .where(eq(knowledgeBases.id, 'kb_sync_a'));
    expect((await list('query=remedies')).ids).toEqual(['kb_sync_a']);
    expect((await list('query=dumping&category=legal&tags=trade')).ids).toEqual(['kb_sync_a']);
    expect((await list('query=schedules')).ids).toEqual([]);
    expect((await list('category=policy')).ids).toEqual(['kb_sync_b']);
    expect((await list('tags=economics')).ids).toEqual(['kb_sync_b']);
  });

  it('a language edit is filtered by its new language only (its primary subtag)', async () => {
    await db.update(knowledgeBases).set({ language: 'pt-BR' }).where(eq(knowledgeBases.id, 'kb_sync_b'));
    expect((await list('language=pt')).ids).toEqual(['kb_sync_b']);
    expect((await list('language=en')).ids.sort()).toEqual(['kb_sync_a', 'kb_sync_c']);
  });

  it('a publisher rename is searchable under the new name only', async () => {
    await db.update(publishers).set({ name: 'Eastbridge Economics' }).where(eq(publishers.id, 'pub_north'));
    expect((await list('query=eastbridge')).total).toBe(2);
    expect((await list('query=northwind')).total).toBe(0);
    // A word of the new name typed past its stem ("economics" → "econom").
    expect((await list('query=economic')).ids.sort()).toEqual(['kb_sync_a', 'kb_sync_b']);
  });

  it('moving a knowledge base to another publisher changes the publisher it is found by', async () => {
    await db.update(knowledgeBases).set({ publisherId: 'pub_south' }).where(eq(knowledgeBases.id, 'kb_sync_b'));
    expect((await list('query=southgate')).ids.sort()).toEqual(['kb_sync_b', 'kb_sync_c']);
    expect((await list('query=eastbridge')).ids).toEqual(['kb_sync_a']);
  });

  it('a deleted knowledge base disappears', async () => {
    await db.delete(knowledgeBases).where(eq(knowledgeBases.id, 'kb_sync_c'));
    expect((await list('query=wetland')).total).toBe(0);
    expect((await list('')).total).toBe(2);
  });

  it('after all of it the projection equals a recomputation from the source rows', async () => {
    const drift = await db.execute(sql`
      with expected as (
        select k.id as kb_id, k.category, k.tags, k.subscribers_count, k.query_volume, k.created_at, k.updated_at,
               almanac_catalog_vector(k.title, p.name, k.tags, k.summary, k.description) as search_vector,
               almanac_text_vector(k.title) as title_vector,
               split_part(lower(k.language), '-', 1) as language
        from knowledge_bases k join publishers p on p.id = k.publisher_id
        where k.status = 'published'
      )
      (select * from expected except select * from catalog_search)
      union all
      (select * from catalog_search except select * from expected)`);
    expect(drift.rows).toEqual([]);
  });
});

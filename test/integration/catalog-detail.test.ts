import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET, OPTIONS, PUT } from '@/app/api/marketplace/knowledge-bases/[kbId]/route';
import type { Database } from '@/db/client';
import { seedCatalog } from '@/lib/seed/catalog';
import { categoryCounts, getPublisher, listKnowledgeBaseCards, listPublisherKnowledgeBases, listTagVocabulary } from '@/lib/catalog/listing';
import { createTestDatabase } from '../support/db';

/** The detail endpoint and the small reads the marketplace pages use, against the seeded catalogue. */

const BASE = 'http://almanac.test/api/marketplace/knowledge-bases';

async function detail(id: string) {
  const response = await GET(new Request(`${BASE}/${encodeURIComponent(id)}`), { params: Promise.resolve({ kbId: id }) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

let db: Database;
const idOf = async (slug: string) => ((await db.execute(sql`select id from knowledge_bases where slug = ${slug}`)).rows[0] as { id: string }).id;

beforeAll(async () => {
  ({ db } = await createTestDatabase());
  await seedCatalog(db);
});

describe('GET /api/marketplace/knowledge-bases/{id}', () => {
  it('answers the nine list fields plus the detail fields, plans mapped', async () => {
    const id = await idOf('us-constitution-companion');
    const { status, headers, body } = await detail(id);
    expect(status).toBe(200);
    expect(headers.get('access-control-allow-origin')).toBe('*');
    expect(headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=300');
    expect(Object.keys(body).sort()).toEqual(
      [
        'category',
        'description',
        'documentsCount',
        'id',
        'language',
        'licence',
        'plans',
        'publisher',
        'queryVolume',
        'sampleQuestions',
        'subscribersCount',
        'summary',
        'tags',
        'title',
        'updatedAt',
      ].sort(),
    );
    const raw = (
      await db.execute(sql`
      select kb.*, p.name as publisher_name from knowledge_bases kb join publishers p on p.id = kb.publisher_id where kb.id = ${id}`)
    ).rows[0] as any;
    expect(body).toMatchObject({
      id,
      title: 'U.S. Constitution Companion',
      publisher: 'Civic Texts Press',
      category: 'legal',
      language: 'en',
      summary: raw.summary,
      description: raw.description,
      licence: raw.licence,
      tags: raw.tags,
      subscribersCount: Number(raw.subscribers_count),
      queryVolume: Number(raw.query_volume),
      documentsCount: Number(raw.documents_count),
      updatedAt: new Date(raw.updated_at).toISOString(),
    });
    expect(body.description.split('\n\n').length).toBeGreaterThanOrEqual(2);
    expect(body.sampleQuestions.length).toBeGreaterThanOrEqual(3);
    expect(body.plans.map((p: any) => [p.name, p.queriesPerPeriod, p.requestsPerMinute, p.currency])).toEqual([
      ['Taster', 20, 10, 'usd'],
      ['Starter', 100, 60, 'usd'],
      ['Professional', 500, 120, 'usd'],
      ['Enterprise', 2000, 300, 'usd'],
    ]);
    for (const plan of body.plans) {
      expect(Object.keys(plan).sort()).toEqual(['currency', 'id', 'name', 'priceCents', 'queriesPerPeriod', 'requestsPerMinute']);
      expect(Number.isInteger(plan.priceCents)).toBe(true);
      expect(plan.id).toMatch(/^plan_/);
    }
    expect(body.plans[0].priceCents).toBe(0);
    expect(body.plans[1].priceCents).toBeLessThan(body.plans[2].priceCents);
    expect(body.plans[2].priceCents).toBeLessThan(body.plans[3].priceCents);
  });

  it.each([
    ['unknown id', async () => 'kb_doesNotExist0000'],
    ['draft', async () => idOf('tax-treaty-navigator')],
    ['hostile id', async () => "kb_' or '1'='1"],
  ])('404 knowledge_base_not_found for a %s', async (_case, getId) => {
    const { status, headers, body } = await detail(await getId());
    expect(status).toBe(404);
    expect(body).toEqual({ error: 'knowledge_base_not_found', message: expect.any(String), request_id: headers.get('x-request-id') });
    expect(headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers a preflight and refuses other methods', async () => {
    const pre = await OPTIONS(new Request(`${BASE}/x`, { method: 'OPTIONS' }), undefined);
    expect(pre.status).toBe(204);
    const put = await PUT(new Request(`${BASE}/x`, { method: 'PUT' }), undefined);
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('reads for the marketplace pages', () => {
  it('categoryCounts gives every category with its published count', async () => {
    const counts = await categoryCounts();
    expect(counts.map((c) => c.category)).toEqual(['education', 'policy', 'health', 'research', 'legal']);
    const raw = (await db.execute(sql`select category::text as category, count(*)::int as n from knowledge_bases where status = 'published' group by 1`))
      .rows as any[];
    for (const c of counts) {
      expect(c.count).toBe(raw.find((r) => r.category === c.category).n);
      expect(c.count).toBeGreaterThanOrEqual(10);
    }
  });

  it('listTagVocabulary counts published knowledge bases per tag, most used first', async () => {
    const tags = await listTagVocabulary();
    expect(tags.length).toBeGreaterThanOrEqual(25);
    for (let i = 1; i < tags.length; i++) {
      expect(tags[i - 1]!.count > tags[i]!.count || (tags[i - 1]!.count === tags[i]!.count && tags[i - 1]!.tag < tags[i]!.tag)).toBe(true);
    }
    const europe = tags.find((t) => t.tag === 'europe')!;
    const { total } = await listKnowledgeBaseCards({ tags: ['europe'], sort: 'popular', page: 1, pageSize: 1 });
    expect(europe.count).toBe(total);
  });

  it('getPublisher and listPublisherKnowledgeBases', async () => {
    const publisher = await getPublisher('open-methods');
    expect(publisher).toMatchObject({ slug: 'open-methods', name: 'Open Methods Collective' });
    const kbs = await listPublisherKnowledgeBases('open-methods');
    expect(kbs.length).toBe(publisher!.knowledgeBasesCount);
    expect(kbs.map((k) => k.title)).toEqual(expect.arrayContaining(['Research Methods Primer', 'Research Data Management Handbook']));
    for (const kb of kbs) expect(kb.publisher).toEqual({ name: 'Open Methods Collective', slug: 'open-methods' });
    for (let i = 1; i < kbs.length; i++) expect(kbs[i - 1]!.subscribersCount).toBeGreaterThanOrEqual(kbs[i]!.subscribersCount);
    expect(await getPublisher('no-such-publisher')).toBeNull();
    expect(await listPublisherKnowledgeBases('no-such-publisher')).toEqual([]);
  });

  it('draft knowledge bases are not counted for their publisher', async () => {
    const publisher = await getPublisher('atlas-legal-review');
    const all = (
      await db.execute(sql`select count(*)::int as n from knowledge_bases kb join publishers p on p.id = kb.publisher_id where p.slug = 'atlas-legal-review'`)
    ).rows[0] as { n: number };
    expect(publisher!.knowledgeBasesCount).toBe(all.n - 1);
  });
});

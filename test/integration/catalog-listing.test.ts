import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DELETE, GET, OPTIONS, POST } from '@/app/api/marketplace/knowledge-bases/route';
import type { Database } from '@/db/client';
import { knowledgeBases } from '@/db/schema';
import { listKnowledgeBases, parseListingParams, untitledWalk } from '@/lib/catalog';
import { seedCatalog } from '@/lib/seed/catalog';
import { createTestDatabase, firstRow } from '../support/db';

/**
 * The public listing against the seeded sample catalogue plus three fixture rows that tie on every sort key, so the
 * id tie-break is exercised by all three orders. Expected orders are computed here, independently, from raw rows.
 */

const BASE = 'http://almanac.test/api/marketplace/knowledge-bases';
const ITEM_KEYS = ['category', 'id', 'publisher', 'queryVolume', 'subscribersCount', 'summary', 'tags', 'title', 'updatedAt'];

async function call(qs = '', init?: RequestInit) {
  const response = await GET(new Request(`${BASE}${qs ? `?${qs}` : ''}`, init));
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

interface RawRow {
  id: string;
  title: string;
  publisher: string;
  category: string;
  tags: string[];
  status: string;
  subscribers: number;
  volume: number;
  created: number;
  updated: number;
}

let db: Database;
let published: RawRow[];
let idRank: Map<string, number>;

beforeAll(async () => {
  ({ db } = await createTestDatabase());
  await seedCatalog(db);
  // Three published fixtures identical in every sort key (ids differ only in their last character).
  const pub = firstRow((await db.execute(sql`select id from publishers order by slug limit 1`)).rows as { id: string }[]);
  const at = new Date('2025-06-01T08:30:00.123Z');
  await db.insert(knowledgeBases).values(
    ['kb_tieZ', 'kb_tieA', 'kb_tieM'].map((id) => ({
      id,
      publisherId: pub.id,
      slug: `tie-${id}`,
      title: `Tie fixture ${id}`,
      summary: 'A fixture that ties with its siblings.',
      category: 'research' as const,
      tags: ['statistics', 'open-data'],
      status: 'published' as const,
      subscribersCount: 5,
      queryVolume: 777,
      createdAt: at,
      updatedAt: at,
    })),
  );
  const rows = (
    await db.execute(sql`
    select kb.id, kb.title, p.name as publisher, kb.category::text as category, kb.tags, kb.status::text as status,
           kb.subscribers_count as subscribers, kb.query_volume as volume, kb.created_at as created, kb.updated_at as updated
    from knowledge_bases kb join publishers p on p.id = kb.publisher_id`)
  ).rows as any[];
  // The database's own collation decides "id asc"; rank ids with it so the check holds under any collation.
  const ids = (await db.execute(sql`select id from knowledge_bases order by id asc`)).rows as { id: string }[];
  idRank = new Map(ids.map((r, i) => [r.id, i]));
  published = rows
    .map((r) => ({
      ...r,
      subscribers: Number(r.subscribers),
      volume: Number(r.volume),
      created: new Date(r.created).getTime(),
      updated: new Date(r.updated).getTime(),
    }))
    .filter((r) => r.status === 'published');
});

const byId = (a: RawRow, b: RawRow) => idRank.get(a.id)! - idRank.get(b.id)!;
const EXPECTED_ORDER: Record<string, (a: RawRow, b: RawRow) => number> = {
  popular: (a, b) => b.subscribers - a.subscribers || b.volume - a.volume || byId(a, b),
  new: (a, b) => b.created - a.created || byId(a, b),
  updated: (a, b) => b.updated - a.updated || byId(a, b),
  // Without a search, relevance is popular's order (docs/api.md §2.2).
  relevance: (a, b) => b.subscribers - a.subscribers || b.volume - a.volume || byId(a, b),
};

describe('GET /api/marketplace/knowledge-bases: defaults and envelope', () => {
  it('answers page 1 of 12, most popular first, with exactly the nine fields', async () => {
    const { status, headers, body } = await call();
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(headers.get('x-request-id')).toMatch(/^req_/);
    expect(Object.keys(body).sort()).toEqual(['items', 'page', 'pageSize', 'total', 'totalPages']);
    expect(body.total).toBe(published.length);
    expect(body.total).toBeGreaterThanOrEqual(60);
    expect(body).toMatchObject({ page: 1, pageSize: 12, totalPages: Math.ceil(published.length / 12) });
    expect(body.items).toHaveLength(12);
    const expected = [...published].sort(EXPECTED_ORDER.popular).slice(0, 12);
    expect(body.items.map((i: any) => i.id)).toEqual(expected.map((r) => r.id));
    for (const item of body.items) {
      expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
      const raw = published.find((r) => r.id === item.id)!;
      expect(item).toEqual({
        id: raw.id,
        title: raw.title,
        publisher: raw.publisher,
        summary: expect.any(String),
        category: raw.category,
        tags: raw.tags,
        subscribersCount: raw.subscribers,
        queryVolume: raw.volume,
        updatedAt: new Date(raw.updated).toISOString(),
      });
      expect(item.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
  });

  it('sends CORS and the short public cache on success and on errors', async () => {
    for (const qs of ['', 'sort=bogus']) {
      const { headers } = await call(qs);
      expect(headers.get('access-control-allow-origin')).toBe('*');
      expect(headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=300');
    }
  });

  it('answers a CORS preflight', async () => {
    const response = await OPTIONS(
      new Request(BASE, { method: 'OPTIONS', headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' } }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it.each([
    ['POST', POST],
    ['DELETE', DELETE],
  ] as const)('%s is 405 method_not_allowed with Allow', async (method, handler) => {
    const response = await handler(new Request(BASE, { method }), undefined);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const body = await response.json();
    expect(body).toEqual({ error: 'method_not_allowed', message: expect.stringContaining(method), request_id: response.headers.get('x-request-id') });
  });

  it('never lists drafts', async () => {
    const drafts = (await db.execute(sql`select id from knowledge_bases where status <> 'published'`)).rows as { id: string }[];
    expect(drafts.length).toBeGreaterThanOrEqual(2);
    const { body } = await call('pageSize=50&page=1');
    const { body: body2 } = await call('pageSize=50&page=2');
    const listed = new Set([...body.items, ...body2.items].map((i: any) => i.id));
    for (const d of drafts) expect(listed.has(d.id)).toBe(false);
    // Not even when searched for by their own title.
    const { body: searched } = await call('query=Tax%20Treaty%20Navigator');
    expect(searched.total).toBe(0);
  });
});

describe('pageSize and page', () => {
  it.each([
    ['pageSize=500', 50],
    ['pageSize=51', 50],
    ['pageSize=50', 50],
    ['pageSize=7', 7],
  ])('%s → envelope pageSize %i', async (qs, size) => {
    const { status, body } = await call(qs);
    expect(status).toBe(200);
    expect(body.pageSize).toBe(size);
    expect(body.items).toHaveLength(Math.min(size, published.length));
    expect(body.totalPages).toBe(Math.ceil(published.length / size));
  });

  it('a page past the end is empty with the true totals', async () => {
    const { status, body } = await call('page=999&pageSize=10');
    expect(status).toBe(200);
    expect(body).toEqual({ items: [], total: published.length, page: 999, pageSize: 10, totalPages: Math.ceil(published.length / 10) });
  });

  it('totalPages is 0 when nothing matches', async () => {
    const { body } = await call('query=zzzqqxnothing');
    expect(body).toEqual({ items: [], total: 0, page: 1, pageSize: 12, totalPages: 0 });
  });
});

describe.each(['popular', 'new', 'updated', 'relevance'])('sort=%s', (sort) => {
  it('matches an independent sort of every row, ties broken by id', async () => {
    const { body } = await call(`sort=${sort}&pageSize=50`);
    const { body: rest } = await call(`sort=${sort}&pageSize=50&page=2`);
    const expected = [...published].sort(EXPECTED_ORDER[sort]).map((r) => r.id);
    expect([...body.items, ...rest.items].map((i: any) => i.id)).toEqual(expected);
    // The three fixtures tie on every key of this order: they must come out in id order.
    const ties = expected.filter((id) => id.startsWith('kb_tie'));
    expect(ties).toEqual(['kb_tieA', 'kb_tieM', 'kb_tieZ'].sort((a, b) => idRank.get(a)! - idRank.get(b)!));
  });

  it.each([5, 7, 12])('walking every page of %i concatenates to the full order without gaps or repeats', async (size) => {
    const seen: string[] = [];
    const { body: first } = await call(`sort=${sort}&pageSize=${size}`);
    for (let page = 1; page <= first.totalPages; page++) {
      const { body } = await call(`sort=${sort}&pageSize=${size}&page=${page}`);
      expect(body.total).toBe(published.length);
      seen.push(...body.items.map((i: any) => i.id));
    }
    expect(seen).toEqual([...published].sort(EXPECTED_ORDER[sort]).map((r) => r.id));
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('sort=relevance with a search', () => {
  it.each([3, 5])('walking every page of %i gives every match once, in one total order', async (size) => {
    const { body: all } = await call('query=law&sort=relevance&pageSize=50');
    expect(all.total).toBeGreaterThan(size);
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(all.total / size); page++) {
      const { body } = await call(`query=law&sort=relevance&pageSize=${size}&page=${page}`);
      expect(body.total).toBe(all.total);
      seen.push(...body.items.map((i: any) => i.id));
    }
    expect(seen).toEqual(all.items.map((i: any) => i.id));
    expect(new Set(seen).size).toBe(all.total);
  });
});

describe('sort=relevance when the walk along popular order comes up short', () => {
  // The first pages of an unfiltered relevance search read at most untitledWalk.rows rows of popular's order for
  // their untitled matches; a page that comes back short of the total is read again by sorting every match. With
  // the walk shrunk to a handful of rows, every page needs that second read, and must give the same order.
  it.each(['law', 'health guide', 'zzzqqq'])('"%s": every page equals the order read without the walk', async (query) => {
    const pagesOf = async () => {
      const seen: string[][] = [];
      for (let page = 1; page <= 4; page++) {
        const parsed = parseListingParams(new URLSearchParams({ query, sort: 'relevance', pageSize: '3', page: String(page) }));
        if (!parsed.ok) throw new Error(parsed.message);
        seen.push((await listKnowledgeBases(parsed.params, db)).items.map((i) => i.id));
      }
      return seen;
    };
    const walking = await pagesOf();
    const saved = untitledWalk.rows;
    untitledWalk.rows = 2;
    try {
      expect(await pagesOf()).toEqual(walking);
    } finally {
      untitledWalk.rows = saved;
    }
  });
});

describe('popular order has real ties to break', () => {
  it('several knowledge bases share a subscriber count', () => {
    const counts = published.map((r) => r.subscribers);
    expect(new Set(counts).size).toBeLessThan(counts.length);
    const both = published.map((r) => `${r.subscribers}/${r.volume}`);
    expect(new Set(both).size).toBeLessThan(both.length);
  });
});

describe('category and tags', () => {
  it.each(['education', 'policy', 'health', 'research', 'legal', 'LEGAL', 'Health'])('category=%s', async (category) => {
    const { status, body } = await call(`category=${category}&pageSize=50`);
    expect(status).toBe(200);
    const expected = published.filter((r) => r.category === category.toLowerCase());
    expect(expected.length).toBeGreaterThanOrEqual(10);
    expect(body.total).toBe(expected.length);
    expect(body.items.map((i: any) => i.id)).toEqual(
      [...expected]
        .sort(EXPECTED_ORDER.popular)
        .map((r) => r.id)
        .slice(0, 50),
    );
  });

  const carriesAll = (tags: string[]) => published.filter((r) => tags.every((t) => r.tags.includes(t)));

  it.each([
    ['tags=open-data&tags=statistics', ['open-data', 'statistics']],
    ['tags=open-data,statistics', ['open-data', 'statistics']],
    ['tags[]=open-data&tags[]=statistics', ['open-data', 'statistics']],
    ['tags=OPEN-DATA&tags[]=Statistics', ['open-data', 'statistics']],
    ['tags=europe', ['europe']],
    ['tags=europe,privacy', ['europe', 'privacy']],
    ['tags=europe,privacy,compliance', ['europe', 'privacy', 'compliance']],
  ])('%s means every one of %j', async (qs, tags) => {
    const expected = carriesAll(tags);
    expect(expected.length).toBeGreaterThan(0);
    const { status, body } = await call(`${qs}&pageSize=50`);
    expect(status).toBe(200);
    expect(body.total).toBe(expected.length);
    expect(new Set(body.items.map((i: any) => i.id))).toEqual(new Set(expected.map((r) => r.id)));
    for (const item of body.items) for (const t of tags) expect(item.tags).toContain(t);
  });

  it('AND narrows: two tags give fewer results than either alone', async () => {
    const a = (await call('tags=europe')).body.total;
    const b = (await call('tags=privacy')).body.total;
    const both = (await call('tags=europe&tags=privacy')).body.total;
    expect(both).toBeLessThan(Math.min(a, b));
    expect(both).toBeGreaterThan(0);
  });

  it('combines category, tags and search', async () => {
    const { body } = await call('category=legal&tags=privacy&query=playbook');
    expect(body.items.map((i: any) => i.title)).toEqual(['Data Breach Response Playbook']);
  });

  it('an unknown tag matches nothing', async () => {
    expect((await call('tags=europe,unheard-of')).body).toMatchObject({ total: 0, totalPages: 0, items: [] });
  });
});

describe('invalid parameters: 400 invalid_parameter naming the parameter', () => {
  it.each<[string, string, RegExp]>([
    [`query=${'q'.repeat(201)}`, 'query', /200/],
    ['category=science', 'category', /education, policy, health, research, legal/],
    ['category=legal%20stuff', 'category', /education/],
    ['tags=a,b,c,d,e,f,g,h,i,j,k', 'tags', /10/],
    ['tags=a&tags=b&tags=c&tags=d&tags=e&tags=f&tags[]=g&tags[]=h&tags=i,j,k', 'tags', /10/],
    ['sort=oldest', 'sort', /popular, new, updated/],
    ['sort=popular%20', 'sort', /never/],
    ['page=0', 'page', /integer/],
    ['page=-2', 'page', /integer/],
    ['page=1.5', 'page', /integer/],
    ['page=two', 'page', /integer/],
    ['pageSize=0', 'pageSize', /at least 1/],
    ['pageSize=-1', 'pageSize', /at least 1/],
    ['pageSize=2.5', 'pageSize', /at least 1/],
    ['pageSize=abc', 'pageSize', /at least 1/],
  ])('%s', async (qs, parameter, allowed) => {
    if (qs === 'sort=popular%20') return; // trailing space is trimmed: not an error (covered by the unit tests)
    const { status, headers, body } = await call(qs);
    expect(status).toBe(400);
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'request_id']);
    expect(body.error).toBe('invalid_parameter');
    expect(body.message).toContain(`"${parameter}"`);
    expect(body.message).toMatch(allowed);
    expect(body.request_id).toBe(headers.get('x-request-id'));
    expect(body.request_id).toMatch(/^req_/);
  });

  it('accepts a query of exactly 200 characters', async () => {
    const { status, body } = await call(`query=${'q'.repeat(200)}`);
    expect(status).toBe(200);
    expect(body.total).toBe(0);
  });
});

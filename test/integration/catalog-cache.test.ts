import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as detailGET } from '@/app/api/marketplace/knowledge-bases/[kbId]/route';
import { GET as listingGET } from '@/app/api/marketplace/knowledge-bases/route';
import type { Database, DatabaseHandle } from '@/db/client';
import { knowledgeBases } from '@/db/schema';
import { CATALOG_GATE_MAX_QUEUE, catalogCacheStats, catalogLoadBounds, catalogServing, clearCatalogCache } from '@/lib/catalog';
import { serveCatalogOverNode } from '@/lib/server/catalog-lane';
import { resetEnvForTesting } from '@/lib/platform/env';
import { seedCatalog } from '@/lib/seed/catalog';
import { createTestDatabase } from '../support/db';
import { listenOnLoopback } from '../support/listen';
import { OpenApiChecker } from '../support/openapi-check';

/**
 * The public endpoints' result cache and load gate (docs/api.md §2.7), on the real database: what shares an answer
 * and what does not, the time to live, one load for concurrent misses, the detail, the 503 of a full gate, and the
 * Node face sending exactly what Next's face sends.
 */
const BASE = 'http://almanac.test/api/marketplace/knowledge-bases';

let handle: DatabaseHandle;
let db: Database;
let kbId: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
  await seedCatalog(db);
  kbId = (
    (await db.execute(sql`select id from knowledge_bases where status = 'published' order by subscribers_count desc, id limit 1`)).rows[0] as { id: string }
  ).id;
});

beforeEach(async () => {
  await clearCatalogCache();
});

async function list(qs = '') {
  const response = await listingGET(new Request(`${BASE}${qs}`));
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

async function detail(id: string) {
  const response = await detailGET(new Request(`${BASE}/${encodeURIComponent(id)}`), { params: Promise.resolve({ kbId: id }) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

const stats = () => catalogCacheStats();

describe('the listing cache key', () => {
  it('ignores parameters the listing does not read, and spelling variants of the same parameters', async () => {
    const first = await list();
    expect(first.status).toBe(200);
    for (const qs of ['?x=8f3a9', '?utm_source=mail&x=%00', '?sort=POPULAR', '?page=1&pageSize=12', '?category=&query=%20%20']) {
      expect((await list(qs)).body, qs).toEqual(first.body);
    }
    expect(await stats()).toMatchObject({ misses: 1, hits: 5, entries: 1 });
    await list('?tags=privacy,europe');
    await list('?tags=EUROPE&tags[]=privacy');
    expect(await stats()).toMatchObject({ misses: 2, hits: 6 });
  });

  it('misses for a different query, filter, sort, page or page size', async () => {
    const variants = ['?query=constit', '?query=climate', '?category=health', '?sort=new', '?page=2', '?pageSize=5', '?query=constit&page=2'];
    for (const qs of variants) expect((await list(qs)).status).toBe(200);
    expect(await stats()).toMatchObject({ misses: variants.length, hits: 0, entries: variants.length });
    expect((await list('?query=constit')).body.total).toBeGreaterThan(0);
    expect((await stats()).hits).toBe(1);
  });

  it('does not cache a 400', async () => {
    expect((await list('?sort=oldest')).status).toBe(400);
    expect(await stats()).toMatchObject({ misses: 0, entries: 0 });
  });
});

describe('staleness and the time to live', () => {
  it('serves the cached answer after a change until the time to live has passed', async () => {
    process.env.CATALOG_CACHE_TTL_MS = '400';
    resetEnvForTesting();
    try {
      const before = await list();
      const top = before.body.items[0];
      await db
        .update(knowledgeBases)
        .set({ subscribersCount: top.subscribersCount + 1000 })
        .where(eq(knowledgeBases.id, top.id));
      // A purchase changed subscribersCount: still the cached answer (docs/api.md §2.7, staleness).
      expect((await list('?x=1')).body.items[0].subscribersCount).toBe(top.subscribersCount);
      await new Promise((r) => setTimeout(r, 450));
      expect((await list('?x=2')).body.items[0].subscribersCount).toBe(top.subscribersCount + 1000);
      expect(await stats()).toMatchObject({ misses: 2, hits: 1 });
      await db.update(knowledgeBases).set({ subscribersCount: top.subscribersCount }).where(eq(knowledgeBases.id, top.id));
    } finally {
      delete process.env.CATALOG_CACHE_TTL_MS;
      resetEnvForTesting();
    }
  });

  it('with CATALOG_CACHE_TTL_MS=0 every request reads the database', async () => {
    process.env.CATALOG_CACHE_TTL_MS = '0';
    resetEnvForTesting();
    try {
      await list();
      await list();
      expect(await stats()).toMatchObject({ hits: 0, entries: 0 });
    } finally {
      delete process.env.CATALOG_CACHE_TTL_MS;
      resetEnvForTesting();
    }
  });
});

describe('concurrent misses', () => {
  it('share one load: 25 identical requests, one database read, one answer', async () => {
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => list(`?query=constit&x=${i}`)));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    // One load; the others joined it, or (if it finished before their turn came) found its answer.
    const counted = await stats();
    expect(counted.misses).toBe(1);
    expect(counted.shared + counted.hits).toBe(24);
  });
});

describe('the detail', () => {
  it('is cached by id, and so is "not found"', async () => {
    const first = await detail(kbId);
    expect(first.status).toBe(200);
    await db.update(knowledgeBases).set({ title: 'Renamed while cached' }).where(eq(knowledgeBases.id, kbId));
    const second = await detail(kbId);
    expect(second.body.title).toBe(first.body.title);
    expect((await detail('kb_doesNotExist00')).status).toBe(404);
    expect((await detail('kb_doesNotExist00')).status).toBe(404);
    expect(await stats()).toMatchObject({ misses: 2, hits: 2 });
    await clearCatalogCache();
    expect((await detail(kbId)).body.title).toBe('Renamed while cached');
    await db.update(knowledgeBases).set({ title: first.body.title }).where(eq(knowledgeBases.id, kbId));
  });
});

describe('the load gate', () => {
  it('answers 503 service_unavailable with Retry-After when too many loads wait, and serves cached answers meanwhile', async () => {
    await list(); // cached before the gate fills up
    const gate = catalogServing(handle).gate;
    // On the embedded database the slot rests after a load (catalogLoadBounds); start from an idle gate.
    while (gate.active > 0) await new Promise((r) => setTimeout(r, 10));
    let open!: () => void;
    const blocked = new Promise<void>((resolve) => (open = resolve));
    const holders = Array.from({ length: catalogLoadBounds(handle).concurrency + CATALOG_GATE_MAX_QUEUE }, () => gate.run(() => blocked));
    try {
      const refused = await list('?query=tide');
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ error: 'service_unavailable', request_id: refused.headers.get('x-request-id') });
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('cache-control')).toBe('no-store');
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
      new OpenApiChecker().expectConforms('/api/marketplace/knowledge-bases', 'GET', refused);
      expect((await list('?x=still-cached')).status).toBe(200);
    } finally {
      open();
      await Promise.all(holders);
    }
    expect((await list('?query=tide')).status).toBe(200);
  });
});

describe('the Node face sends what Next’s face sends', () => {
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ url, close } = await listenOnLoopback(createServer((req, res) => void (serveCatalogOverNode(req, res) || res.writeHead(418).end()))));
  });
  afterAll(() => close());

  const SAME_HEADERS = ['content-type', 'cache-control', 'access-control-allow-origin', 'access-control-expose-headers', 'retry-after'];
  const viaNext = async (path: string) => {
    const [pathname = ''] = path.split('?');
    const id = pathname.split('/')[4];
    const request = new Request(`http://almanac.test${path}`);
    const response = id === undefined ? await listingGET(request) : await detailGET(request, { params: Promise.resolve({ kbId: decodeURIComponent(id) }) });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  it.each([
    ['the listing', '/api/marketplace/knowledge-bases?query=constit&pageSize=3'],
    ['a bad parameter', '/api/marketplace/knowledge-bases?page=0'],
    ['a control character', '/api/marketplace/knowledge-bases?query=a%00b'],
    ['the detail', '/api/marketplace/knowledge-bases/{kb}'],
    ['an unknown id', '/api/marketplace/knowledge-bases/kb_doesNotExist00'],
    ['an id with a control character', '/api/marketplace/knowledge-bases/kb_%01'],
  ])('%s', async (_name, template) => {
    const path = template.replace('{kb}', kbId);
    const next = await viaNext(path);
    const node = await fetch(`${url}${path}`);
    const text = await node.text();
    expect(node.status).toBe(next.status);
    for (const name of SAME_HEADERS) expect(node.headers.get(name), name).toBe(next.headers.get(name));
    const strip = (body: string) => body.replace(/req_[0-9A-Za-z]+/g, 'req_');
    expect(strip(text)).toBe(strip(next.text));
    expect(node.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('compresses for clients that accept gzip, and answers HEAD without a body', async () => {
    const path = '/api/marketplace/knowledge-bases?pageSize=50';
    const plain = await fetch(`${url}${path}`).then((r) => r.text());
    const zipped = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      import('node:http').then(({ get }) =>
        get(`${url}${path}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c)).on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject),
      );
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(zipped.body).toString('utf8')).toBe(plain);
    const head = await fetch(`${url}${path}`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(plain)));
    expect(await head.text()).toBe('');
  });

  it('leaves other methods and paths to Next', async () => {
    for (const [method, path] of [
      ['POST', '/api/marketplace/knowledge-bases'],
      ['OPTIONS', '/api/marketplace/knowledge-bases'],
      ['GET', '/api/marketplace/knowledge-bases/'],
      ['GET', `/api/marketplace/knowledge-bases/${kbId}/plans`],
      ['GET', '/api/marketplace/knowledge-bases/%ZZ'],
      ['GET', '/api/marketplace/knowledge-basesX'],
      ['GET', '/api/openapi.json'],
    ]) {
      expect((await fetch(`${url}${path}`, { method })).status, `${method} ${path}`).toBe(418);
    }
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GET as detailGET, OPTIONS as detailOPTIONS } from '@/app/api/marketplace/knowledge-bases/[kbId]/route';
import { GET as listingGET, HEAD as listingHEAD } from '@/app/api/marketplace/knowledge-bases/route';
import { GET as openApiGET } from '@/app/api/openapi.json/route';
import { sql } from 'drizzle-orm';
import { createRedisRateLimiter, getRateLimiter, type RateLimiter } from '@/lib/limits';
import { serveCatalogOverNode } from '@/lib/server/catalog-lane';
import { resetEnvForTesting } from '@/lib/platform/env';
import { PEER_HEADER, createFrontServer } from '@/lib/server/front-server.mjs';
import { randomBase62 } from '@/lib/platform/ids';
import { replaceProcessSingleton } from '@/lib/platform/singleton';
import { seedCatalog } from '@/lib/seed/catalog';
import { createTestDatabase, testDbKind } from '../support/db';
import { listenOnLoopback } from '../support/listen';
import { OpenApiChecker } from '../support/openapi-check';

/**
 * The per-client limit of the public endpoints (docs/api.md §2.8), on both faces: Next's route handlers (called
 * directly, with the peer header `npm start`'s front server would stamp) and the Node face in front of Next
 * (lib/server/catalog-lane.ts behind the real front server, over HTTP). Every test uses addresses of its own.
 */
const LIMIT = 5;
const FRONT = 'http://127.0.0.1:3000';
const PROXY = '10.9.8.7';
const BASE = 'http://almanac.test/api/marketplace/knowledge-bases';

let kbId: string;
let checker: OpenApiChecker;
let counter = 0;
/** A documentation-range address no other test uses. */
const newAddress = () => `198.51.${100 + Math.floor(++counter / 250)}.${counter % 250}`;

function setEnv(vars: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTesting();
}

beforeAll(async () => {
  const { db } = await createTestDatabase();
  await seedCatalog(db);
  kbId = ((await db.execute(sql`select id from knowledge_bases where status = 'published' order by id limit 1`)).rows[0] as { id: string }).id;
  checker = new OpenApiChecker();
  // As under `npm start`: the front server runs in front (so its peer header is believed) and trusts one proxy.
  setEnv({ ALMANAC_LISTEN_URL: FRONT, PUBLIC_RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUSTED_PROXIES: `${PROXY},127.0.0.1`, RATE_LIMIT_WINDOW_MS: '60000' });
});

afterAll(() => setEnv({ ALMANAC_LISTEN_URL: undefined, PUBLIC_RATE_LIMIT_PER_MINUTE: undefined, TRUSTED_PROXIES: undefined, RATE_LIMIT_WINDOW_MS: undefined }));

/** What Next's route handlers see behind the front server: the socket's address in the peer header. */
const fromPeer = (peer: string, extra: Record<string, string> = {}) => ({ headers: { [PEER_HEADER]: peer, ...extra } });

async function read(response: Response) {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const listing = (peer: string, qs = '', extra: Record<string, string> = {}) => listingGET(new Request(`${BASE}${qs}`, fromPeer(peer, extra))).then(read);
const detail = (peer: string, id = kbId) =>
  detailGET(new Request(`${BASE}/${encodeURIComponent(id)}`, fromPeer(peer)), { params: Promise.resolve({ kbId: id }) }).then(read);
const openApi = (peer: string) => openApiGET(new Request('http://almanac.test/api/openapi.json', fromPeer(peer))).then(read);

describe('the public limit on Next’s route handlers', () => {
  it(`allows exactly ${LIMIT} requests a minute per address, counting down in X-RateLimit-*`, async () => {
    const address = newAddress();
    for (let i = 1; i <= LIMIT; i++) {
      const r = await listing(address);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
      expect(r.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - i));
      expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      checker.expectConforms('/api/marketplace/knowledge-bases', 'GET', r);
    }
    const over = await listing(address);
    expect(over.status).toBe(429);
  });

  it('answers 429 rate_limit_exceeded with Retry-After, X-RateLimit-*, CORS, no-store and the JSON error body', async () => {
    const address = newAddress();
    for (let i = 0; i < LIMIT; i++) expect((await listing(address)).status).toBe(200);
    const r = await listing(address, '?query=constit');
    expect(r.status).toBe(429);
    expect(r.body).toEqual({
      error: 'rate_limit_exceeded',
      message: `Too many requests from this address: at most ${LIMIT} per minute on the public endpoints.`,
      request_id: r.headers.get('x-request-id'),
      retry_after: Number(r.headers.get('retry-after')),
    });
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(r.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    checker.expectConforms('/api/marketplace/knowledge-bases', 'GET', r);
  });

  it('gives the listing, the detail and the OpenAPI document one budget; 400s and 404s count too', async () => {
    const address = newAddress();
    expect((await listing(address)).status).toBe(200);
    expect((await detail(address)).status).toBe(200);
    expect((await openApi(address)).status).toBe(200);
    const bad = await listing(address, '?sort=oldest');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-ratelimit-remaining')).toBe('1');
    const missing = await detail(address, 'kb_doesNotExist00');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-ratelimit-remaining')).toBe('0');
    const limitedDetail = await detail(address);
    expect(limitedDetail.status).toBe(429);
    checker.expectConforms('/api/marketplace/knowledge-bases/{id}', 'GET', limitedDetail);
    const limitedDocument = await openApi(address);
    expect(limitedDocument.status).toBe(429);
    expect(limitedDocument.body.error).toBe('rate_limit_exceeded');
    expect(limitedDocument.headers.get('access-control-allow-origin')).toBe('*');
    expect(limitedDocument.headers.get('cache-control')).toBe('no-store');
    expect((await listing(address)).status).toBe(429);
  });

  it('counts HEAD like GET, and not the CORS preflight', async () => {
    const address = newAddress();
    for (let i = 0; i < LIMIT; i++) {
      const preflight = await detailOPTIONS(new Request(`${BASE}/${kbId}`, { method: 'OPTIONS', ...fromPeer(address) }));
      expect(preflight.status).toBe(204);
    }
    for (let i = 0; i < LIMIT; i++) expect((await listingHEAD(new Request(BASE, { method: 'HEAD', ...fromPeer(address) }))).status).toBe(200);
    expect((await listing(address)).status).toBe(429);
  });

  it('keeps addresses apart; an IPv4-mapped IPv6 peer is its IPv4 address', async () => {
    const [a, b] = [newAddress(), newAddress()];
    for (let i = 0; i < LIMIT; i++) expect((await listing(a)).status).toBe(200);
    expect((await listing(a)).status).toBe(429);
    expect((await listing(`::ffff:${a}`)).status).toBe(429);
    const other = await listing(b);
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));
  });

  it('behind a trusted proxy counts the address in X-Forwarded-For; from anyone else, the header is ignored', async () => {
    const [client, other] = [newAddress(), newAddress()];
    for (let i = 0; i < LIMIT; i++) expect((await listing(PROXY, '', { 'x-forwarded-for': `203.0.113.99, ${client}` })).status).toBe(200);
    expect((await listing(PROXY, '', { 'x-forwarded-for': client })).status).toBe(429);
    // The proxy's other clients, and the proxy itself, are not limited by this one.
    expect((await listing(PROXY, '', { 'x-forwarded-for': other })).status).toBe(200);
    expect((await listing(PROXY)).status).toBe(200);
    // An untrusted peer cannot spread itself over made-up addresses.
    const untrusted = newAddress();
    for (let i = 0; i < LIMIT; i++) expect((await listing(untrusted, '', { 'x-forwarded-for': newAddress() })).status).toBe(200);
    expect((await listing(untrusted, '', { 'x-forwarded-for': newAddress() })).status).toBe(429);
  });

  it('does not limit when no front server vouches for the address (bare next start, next dev)', async () => {
    setEnv({ ALMANAC_LISTEN_URL: undefined });
    try {
      const address = newAddress();
      for (let i = 0; i < LIMIT * 2; i++) {
        const r = await listing(address);
        expect(r.status).toBe(200);
        expect(r.headers.get('x-ratelimit-limit')).toBeNull();
      }
    } finally {
      setEnv({ ALMANAC_LISTEN_URL: FRONT });
    }
  });
});

describe('the public limit on the Node face (npm start’s front server)', () => {
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const server = createFrontServer((req, res) => {
      if (!serveCatalogOverNode(req, res)) res.writeHead(418).end();
    });
    ({ url, close } = await listenOnLoopback(server));
  });
  afterAll(() => close());

  // The front server stamps the socket's address, 127.0.0.1, which this file trusts as a proxy: the client is the
  // X-Forwarded-For address. A peer header sent by the client is replaced.
  const get = (path: string, client: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, { ...init, headers: { 'x-forwarded-for': client, [PEER_HEADER]: '203.0.113.1', ...(init.headers as Record<string, string>) } });

  it(`allows exactly ${LIMIT} requests per address, then 429 with the same body and headers`, async () => {
    const client = newAddress();
    for (let i = 1; i <= LIMIT; i++) {
      const r = await get('/api/marketplace/knowledge-bases?x=' + i, client);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - i));
      await r.arrayBuffer();
    }
    const over = await get(`/api/marketplace/knowledge-bases/${kbId}`, client);
    const body = await over.json();
    expect(over.status).toBe(429);
    expect(body).toMatchObject({
      error: 'rate_limit_exceeded',
      request_id: over.headers.get('x-request-id'),
      retry_after: Number(over.headers.get('retry-after')),
    });
    expect(over.headers.get('access-control-allow-origin')).toBe('*');
    expect(over.headers.get('cache-control')).toBe('no-store');
    checker.expectConforms('/api/marketplace/knowledge-bases/{id}', 'GET', { status: over.status, headers: over.headers, body });
    const other = await get('/api/marketplace/knowledge-bases', newAddress());
    expect(other.status).toBe(200);
    await other.arrayBuffer();
  });

  it('shares the budget with Next’s face: one limiter, one count per address', async () => {
    const client = newAddress();
    for (let i = 0; i < LIMIT - 1; i++) expect((await listing(PROXY, '', { 'x-forwarded-for': client })).status).toBe(200);
    const last = await get('/api/marketplace/knowledge-bases', client);
    expect(last.status).toBe(200);
    await last.arrayBuffer();
    expect((await get('/api/marketplace/knowledge-bases', client)).status).toBe(429);
  });
});

describe.runIf(testDbKind() === 'postgres')('the public limit on Redis, shared by two instances', () => {
  const limiters: RateLimiter[] = [];
  let original: RateLimiter;
  beforeAll(() => {
    original = getRateLimiter();
  });
  afterEach(() => replaceProcessSingleton('rate-limiter', original));
  afterAll(async () => {
    for (const limiter of limiters) await limiter.close();
  });

  it(`counts ${LIMIT} requests across two instances exactly`, async () => {
    const prefix = `almanac-test:${randomBase62(8)}:`;
    const instance = () => {
      const limiter = createRedisRateLimiter({ url: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', prefix });
      limiters.push(limiter);
      replaceProcessSingleton('rate-limiter', limiter);
    };
    const address = newAddress();
    instance();
    for (let i = 0; i < 3; i++) expect((await listing(address)).status).toBe(200);
    instance(); // a second process with its own connection to the same Redis
    for (let i = 0; i < LIMIT - 3; i++) expect((await listing(address)).status).toBe(200);
    const over = await listing(address);
    expect(over.status).toBe(429);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});

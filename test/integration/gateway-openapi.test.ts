import '../support/gateway-env';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as getOpenApi } from '@/app/api/openapi.json/route';
import { GET as getHealth, POST as postHealth } from '@/app/api/health/route';
import { GET as listKbs } from '@/app/api/marketplace/knowledge-bases/route';
import { GET as getKb } from '@/app/api/marketplace/knowledge-bases/[kbId]/route';
import { ERROR_STATUS } from '@/lib/platform/errors';
import { createTestDatabase } from '../support/db';
import { buyKey, createKnowledgeBase, createPublisher } from '../support/gateway-fixtures';
import { OpenApiChecker } from '../support/openapi-check';

/** The served OpenAPI document, checked for completeness and against real catalogue responses; the health route. */
let served: Record<string, any>;
let checker: OpenApiChecker;
let kbId: string;

const read = async (response: Response) => ({ status: response.status, headers: response.headers, body: await response.json() });

beforeAll(async () => {
  const { db } = await createTestDatabase();
  const pub = await createPublisher(db);
  kbId = await createKnowledgeBase(db, pub, { title: 'Tide Atlas' });
  await buyKey(db, kbId, { cap: 100 });
  const response = await getOpenApi(new Request('http://localhost/api/openapi.json'));
  expect(response.status).toBe(200);
  served = await response.json();
  checker = new OpenApiChecker(served);
});

describe('GET /api/openapi.json', () => {
  it('is OpenAPI 3.1 with servers from APP_URL and a bearer security scheme', () => {
    expect(served.openapi).toBe('3.1.0');
    expect(served.servers).toEqual([{ url: 'http://almanac.test' }]);
    expect(served.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(served.paths).sort()).toEqual([
      '/api/health',
      '/api/health/live',
      '/api/health/ready',
      '/api/marketplace/knowledge-bases',
      '/api/marketplace/knowledge-bases/{id}',
      '/api/openapi.json',
      '/dify/retrieval',
      '/kb/{kb_id}/mcp',
      '/kb/{kb_id}/query',
      '/kb/{kb_id}/search',
      '/kb/{kb_id}/usage',
    ]);
  });

  it('documents every status and error code of the query endpoint with its status', () => {
    const post = served.paths['/kb/{kb_id}/query'].post;
    expect(Object.keys(post.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '413', '422', '429', '500', '502', '504']);
    const codes: Record<string, string[]> = {};
    const collect = (status: string, node: any) => {
      const resolve = (n: any): any => (n.$ref ? served.components.schemas[n.$ref.split('/').pop()] : n);
      const schema = resolve(node);
      for (const alt of schema.oneOf ?? [schema]) {
        const error = resolve(alt).properties?.error;
        if (!error) continue;
        for (const code of error.enum ?? [error.const]) (codes[status] ??= []).push(code);
      }
    };
    for (const [status, response] of Object.entries<any>(post.responses)) {
      if (response.content) collect(status, response.content['application/json'].schema);
    }
    const expected = [
      'missing_api_key',
      'invalid_api_key',
      'key_revoked',
      'knowledge_base_not_found',
      'key_scope_mismatch',
      'forbidden',
      'rate_limit_exceeded',
      'invalid_query',
      'query_cap_exceeded',
      'publisher_error',
      'publisher_timeout',
      'internal_error',
      'payload_too_large',
    ];
    for (const code of expected) {
      const status = String(ERROR_STATUS[code as keyof typeof ERROR_STATUS]);
      expect(codes[status] ?? [], `${code} under ${status}`).toContain(code);
    }
    // Each path lists the operations it serves, nothing that only answers 405 (stated once, in info.description).
    for (const [route, item] of Object.entries<any>(served.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        if (method === 'parameters') continue;
        expect(
          Object.keys(operation.responses).some((status) => /^2/.test(status)),
          `${method} ${route} has no success`,
        ).toBe(true);
      }
    }
    expect(served.info.description).toContain('405 method_not_allowed');
  });
});

describe('catalogue responses conform to the document', () => {
  it('listing 200 and 400', async () => {
    const ok = await read(await listKbs(new Request('http://localhost/api/marketplace/knowledge-bases?pageSize=5'), { params: Promise.resolve({}) } as never));
    expect(ok.status).toBe(200);
    expect(ok.body.items.length).toBeGreaterThan(0);
    checker.expectConforms('/api/marketplace/knowledge-bases', 'GET', ok);
    const bad = await read(
      await listKbs(new Request('http://localhost/api/marketplace/knowledge-bases?sort=sideways'), { params: Promise.resolve({}) } as never),
    );
    expect(bad.status).toBe(400);
    checker.expectConforms('/api/marketplace/knowledge-bases', 'GET', bad);
  });

  it('detail 200 and 404', async () => {
    const ok = await read(await getKb(new Request(`http://localhost/api/marketplace/knowledge-bases/${kbId}`), { params: Promise.resolve({ kbId: kbId }) }));
    expect(ok.status).toBe(200);
    expect(ok.body.plans.length).toBe(1);
    checker.expectConforms('/api/marketplace/knowledge-bases/{id}', 'GET', ok);
    const missing = await read(
      await getKb(new Request('http://localhost/api/marketplace/knowledge-bases/kb_nope'), { params: Promise.resolve({ kbId: 'kb_nope' }) }),
    );
    expect(missing.status).toBe(404);
    checker.expectConforms('/api/marketplace/knowledge-bases/{id}', 'GET', missing);
  });
});

describe('GET /api/health', () => {
  it('reports database reachability, and a liveness probe without I/O', async () => {
    const ready = await read(await getHealth(new Request('http://localhost/api/health')));
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', database: { ok: true }, rateLimiter: 'memory', rateLimiterReachable: true });
    const live = await read(await getHealth(new Request('http://localhost/api/health?probe=live')));
    expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });
    const wrong = await read(await postHealth(new Request('http://localhost/api/health', { method: 'POST' })));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('Allow')).toBe('GET, HEAD');
    // The document describes all three answers, and itself.
    checker.expectConforms('/api/health', 'GET', ready);
    checker.expectConforms('/api/health', 'GET', live);
    checker.expectConforms('/api/health', 'POST', wrong);
    const document = await read(await getOpenApi(new Request('http://localhost/api/openapi.json')));
    checker.expectConforms('/api/openapi.json', 'GET', document);
  });
});

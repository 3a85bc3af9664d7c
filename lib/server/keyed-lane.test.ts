import { createServer } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetEnvForTesting } from '@/lib/platform/env';
import { securityHeaders } from '@/lib/platform/security-headers.mjs';
import { listenOnLoopback } from '@/test/support/listen';
import { acceptsGzip } from './content-encoding';
import { matchKeyedPath, matchQueryPath, serveQueryOverNode } from './keyed-lane';

describe('matchQueryPath', () => {
  it.each([
    ['/kb/kb_abc123/query', 'kb_abc123'],
    ['/kb/kb_abc123/query?trace=1', 'kb_abc123'],
    ['/kb/kb%5Fabc/query', 'kb_abc'],
    ['/kb/some%20thing/query', 'some thing'],
  ])('%s → %s', (url, kbId) => {
    expect(matchQueryPath(url)).toBe(kbId);
  });

  it.each([
    undefined,
    '/',
    '/kb/kb_abc/query/', // Next's: the trailing-slash redirect
    '/kb/kb_abc/query/more',
    '/kb/kb_abc/queries',
    '/kb//query',
    '/kb/a/b/query',
    '/KB/kb_abc/query',
    '//kb/kb_abc/query',
    '/api/kb/kb_abc/query',
    '/kb/kb_abc/query#x',
    '/kb/%E0%A4%A/query', // a malformed escape is Next's to answer
  ])('%s is not the gateway', (url) => {
    expect(matchQueryPath(url)).toBeNull();
  });
});

describe('matchKeyedPath', () => {
  it.each([
    ['/kb/kb_1/query', { endpoint: 'query', kbId: 'kb_1' }],
    ['/kb/kb_1/search', { endpoint: 'search', kbId: 'kb_1' }],
    ['/kb/kb_1/usage?x=1', { endpoint: 'usage', kbId: 'kb_1' }],
    ['/kb/kb_1/mcp', { endpoint: 'mcp', kbId: 'kb_1' }],
    ['/dify/retrieval', { endpoint: 'dify', kbId: '' }],
    // A base URL registered with a trailing slash (<base>/dify/ + /retrieval), and a trailing slash.
    ['/dify//retrieval', { endpoint: 'dify', kbId: '' }],
    ['/dify/retrieval/', { endpoint: 'dify', kbId: '' }],
  ])('%s → %o', (url, target) => {
    expect(matchKeyedPath(url)).toEqual(target);
  });

  it.each(['/kb/kb_1/answers', '/kb/kb_1/mcp/extra', '/dify', '/dify/retrieval/x', '/kb/%E0%A4%A/search'])('%s is not a keyed endpoint', (url) => {
    expect(matchKeyedPath(url)).toBeNull();
  });
});

describe('acceptsGzip', () => {
  it.each([
    ['gzip', true],
    ['GZIP', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.5', true],
    ['*', true],
    ['identity, *;q=0.1', true],
    ['gzip ; q=1', true],
    [undefined, false],
    ['', false],
    ['identity', false],
    ['br, deflate', false],
    ['gzip;q=0', false],
    ['gzip;q=0.000', false],
    ['*;q=0', false],
    ['*, gzip;q=0', false], // the named coding wins over the wildcard
    ['gzip;q=0, *', false],
    ['x-gzip', false],
  ])('%s → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe('fast-lane answers carry the security headers', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvForTesting();
  });

  async function answerTo(method: string): Promise<Response> {
    const server = createServer((req, res) => void serveQueryOverNode(req, res, 'kb_x'));
    const { url, close } = await listenOnLoopback(server);
    try {
      return await fetch(`${url}/kb/kb_x/query`, { method });
    } finally {
      await close();
    }
  }

  it('on every answer (a 405 here, which needs no database), with HSTS when APP_URL is https', async () => {
    vi.stubEnv('APP_URL', 'https://almanac.example.com');
    resetEnvForTesting();
    const res = await answerTo('GET');
    expect(res.status).toBe(405);
    for (const { key, value } of securityHeaders({ https: true })) expect(res.headers.get(key)).toBe(value);
    vi.stubEnv('APP_URL', 'http://localhost:3000');
    resetEnvForTesting();
    expect((await answerTo('GET')).headers.get('strict-transport-security')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { matchCatalogRequest } from './catalog-lane';

describe('matchCatalogRequest: what the Node face answers before Next', () => {
  it.each<[string, string, ReturnType<typeof matchCatalogRequest>]>([
    ['GET', '/api/marketplace/knowledge-bases', { kind: 'listing' }],
    ['HEAD', '/api/marketplace/knowledge-bases?query=law&x=1', { kind: 'listing' }],
    ['GET', '/api/marketplace/knowledge-bases?', { kind: 'listing' }],
    ['GET', '/api/marketplace/knowledge-bases/kb_abc', { kind: 'detail', id: 'kb_abc' }],
    ['GET', '/api/marketplace/knowledge-bases/kb_abc?x=1', { kind: 'detail', id: 'kb_abc' }],
    ['GET', '/api/marketplace/knowledge-bases/a%2Fb', { kind: 'detail', id: 'a/b' }],
    ['GET', '/api/marketplace/knowledge-bases/kb_%01', { kind: 'detail', id: 'kb_\u0001' }],
    // Everything else is Next's (or the front door's, which runs first).
    ['POST', '/api/marketplace/knowledge-bases', null],
    ['OPTIONS', '/api/marketplace/knowledge-bases/kb_abc', null],
    ['DELETE', '/api/marketplace/knowledge-bases/kb_abc', null],
    ['GET', '/api/marketplace/knowledge-bases/', null],
    ['GET', '/api/marketplace/knowledge-bases//kb_abc', null],
    ['GET', '/api/marketplace/knowledge-bases/kb_abc/plans', null],
    ['GET', '/api/marketplace/knowledge-bases/..', null],
    ['GET', '/api/marketplace/knowledge-bases/%2e%2E', null],
    ['GET', '/api/marketplace/knowledge-bases/.', null],
    ['GET', '/api/marketplace/knowledge-bases/%ZZ', null],
    ['GET', '/api/marketplace/knowledge-basesX', null],
    ['GET', '/api/marketplace/knowledge-bases.json', null],
    ['GET', '/api/openapi.json', null],
    ['GET', '/', null],
  ])('%s %s', (method, url, expected) => {
    expect(matchCatalogRequest(method, url)).toEqual(expected);
  });
});

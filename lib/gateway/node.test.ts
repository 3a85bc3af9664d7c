import { describe, expect, it } from 'vitest';
import { acceptsGzip, matchQueryPath } from './node';

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

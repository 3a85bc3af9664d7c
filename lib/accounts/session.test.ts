import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './session';

describe('safeReturnPath', () => {
  it.each([
    ['/account', '/account'],
    ['/knowledge-bases?category=legal&tags=a', '/knowledge-bases?category=legal&tags=a'],
    ['https://evil.example.test/', '/account'],
    ['//evil.example.test/path', '/account'],
    ['/\\evil.example.test', '/account'],
    ['javascript:alert(1)', '/account'],
    ['', '/account'],
    [undefined, '/account'],
    [42, '/account'],
  ])('%j → %s', (input, expected) => expect(safeReturnPath(input)).toBe(expected));

  // Open-redirect payloads and their relatives: each would leave the site once a browser reads the Location.
  it.each([
    '/\t/evil.example',
    '/\t\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\t//evil.example',
    '/\u0000/evil.example',
    '/\u007f/evil.example',
    '/\\evil.example',
    '/\\\\evil.example',
    '\\\\evil.example',
    '//evil.example',
    '///evil.example',
    'https://evil.example',
    'https:evil.example',
    'http:/evil.example',
    '/..//evil.example',
    '/.//evil.example',
    '/%2e%2e//evil.example',
    '/%2E//evil.example',
    'javascript:alert(1)',
    'data:text/html,hi',
    ' /account',
  ])('refuses %j', (input) => expect(safeReturnPath(input)).toBe('/account'));

  it.each([
    // Percent-encoded characters stay encoded in the path, where a browser cannot read them as a host.
    ['/%09/evil.example', '/%09/evil.example'],
    ['/%2F/evil.example', '/%2F/evil.example'],
    ['/%5Cevil.example', '/%5Cevil.example'],
    ['/account?next=//evil.example#top', '/account?next=//evil.example#top'],
    ['/knowledge-bases/../account', '/account'],
  ])('keeps the same-site path %j as %j', (input, expected) => expect(safeReturnPath(input)).toBe(expected));

  it('uses the given fallback', () => {
    expect(safeReturnPath('http://x.test', '/')).toBe('/');
  });
});

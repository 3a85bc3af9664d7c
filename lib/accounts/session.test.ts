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

  it('uses the given fallback', () => {
    expect(safeReturnPath('http://x.test', '/')).toBe('/');
  });
});

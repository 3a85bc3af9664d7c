import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, parseListingParams, type ListingParams } from './params';

const parse = (qs: string) => parseListingParams(new URLSearchParams(qs));
const ok = (qs: string): ListingParams => {
  const result = parse(qs);
  if (!result.ok) throw new Error(`expected ok for ${qs}: ${result.message}`);
  return result.params;
};

describe('parseListingParams: accepted input', () => {
  it('applies the defaults', () => {
    expect(ok('')).toEqual({ tags: [], sort: 'popular', page: 1, pageSize: DEFAULT_PAGE_SIZE });
  });

  it.each<[string, Partial<ListingParams>]>([
    ['query=%20%20constit%20%20', { query: 'constit' }],
    ['query=%20%20%20', {}],
    [`query=${'a'.repeat(200)}`, { query: 'a'.repeat(200) }],
    [`query=${'é'.repeat(200)}`, { query: 'é'.repeat(200) }],
    ['category=LEGAL', { category: 'legal' }],
    ['category=Health', { category: 'health' }],
    ['category=', {}],
    ['sort=new', { sort: 'new' }],
    ['sort=UPDATED', { sort: 'updated' }],
    ['page=3', { page: 3 }],
    ['page=007', { page: 7 }],
    ['pageSize=1', { pageSize: 1 }],
    ['pageSize=50', { pageSize: 50 }],
    ['pageSize=51', { pageSize: MAX_PAGE_SIZE }],
    ['pageSize=500', { pageSize: MAX_PAGE_SIZE }],
    ['pageSize=99999999999999999999999', { pageSize: MAX_PAGE_SIZE }],
    ['page=2&page=5', { page: 2 }],
  ])('%s', (qs, expected) => {
    expect(ok(qs)).toEqual({ tags: [], sort: 'popular', page: 1, pageSize: DEFAULT_PAGE_SIZE, ...expected });
  });

  it.each([
    ['tags=privacy&tags=Europe', ['privacy', 'europe']],
    ['tags=privacy,EUROPE', ['privacy', 'europe']],
    ['tags[]=privacy&tags[]=europe', ['privacy', 'europe']],
    ['tags=privacy&tags[]=europe,compliance', ['privacy', 'europe', 'compliance']],
    ['tags=%20privacy%20,,&tags=', ['privacy']],
    ['tags=privacy&tags=PRIVACY', ['privacy']],
  ])('tags %s', (qs, expected) => {
    expect(ok(qs).tags).toEqual(expected);
  });

  it('accepts exactly ten tags', () => {
    const tags = Array.from({ length: 10 }, (_, i) => `t${i}`);
    expect(ok(`tags=${tags.join(',')}`).tags).toEqual(tags);
  });

  it('reads the record shape Next.js gives pages', () => {
    expect(parseListingParams({ query: 'law', tags: ['a', 'b,c'], 'tags[]': 'd', page: '2', sort: undefined })).toEqual({
      ok: true,
      params: { query: 'law', tags: ['a', 'b', 'c', 'd'], sort: 'popular', page: 2, pageSize: DEFAULT_PAGE_SIZE },
    });
  });
});

describe('parseListingParams: rejected input names the parameter and what is allowed', () => {
  it.each<[string, string, RegExp]>([
    [`query=${'a'.repeat(201)}`, 'query', /"query".*200 characters/],
    ['category=science', 'category', /"category".*education, policy, health, research, legal/],
    ['sort=oldest', 'sort', /"sort".*popular, new, updated/],
    ['page=0', 'page', /"page".*integer from 1/],
    ['page=-1', 'page', /"page"/],
    ['page=1.5', 'page', /"page"/],
    ['page=abc', 'page', /"page"/],
    ['page=1e3', 'page', /"page"/],
    ['page=99999999999', 'page', /"page"/],
    ['pageSize=0', 'pageSize', /"pageSize".*at least 1.*clamped to 50/],
    ['pageSize=-5', 'pageSize', /"pageSize"/],
    ['pageSize=2.5', 'pageSize', /"pageSize"/],
    ['pageSize=ten', 'pageSize', /"pageSize"/],
    [`tags=${Array.from({ length: 11 }, (_, i) => `t${i}`).join(',')}`, 'tags', /"tags".*at most 10/],
    [`tags=${'x'.repeat(65)}`, 'tags', /"tags".*64 characters/],
  ])('%s', (qs, parameter, message) => {
    const result = parse(qs);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.parameter).toBe(parameter);
    expect(result.message).toMatch(message);
  });
});

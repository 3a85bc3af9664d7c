import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, parseListingParams, parseListingSearch, type ListingParams } from './params';

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
    ['language=es', { language: 'es' }],
    ['language=DE', { language: 'de' }],
    ['language=pt-BR', { language: 'pt' }],
    ['language=', {}],
    ['sort=new', { sort: 'new' }],
    ['sort=UPDATED', { sort: 'updated' }],
    ['sort=Relevance', { sort: 'relevance' }],
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
    ['sort=oldest', 'sort', /"sort".*popular, new, updated, relevance/],
    ['language=english', 'language', /"language".*en, es, de, fr or pt-BR/],
    ['language=e', 'language', /"language"/],
    ['page=0', 'page', /"page".*integer from 1/],
    ['page=-1', 'page', /"page"/],
    ['page=1.5', 'page', /"page"/],
    ['page=abc', 'page', /"page"/],
    ['page=+2', 'page', /"page"/], // "+" decodes to a space: not digits
    ['page=2%20', 'page', /"page"/],
    ['pageSize=+5', 'pageSize', /"pageSize"/],
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

describe('parseListingParams: the text rule (docs/api.md §7.2)', () => {
  it.each<[string, string]>([
    ['query=a%00b', 'query'],
    ['query=a%1Bb', 'query'],
    ['query=a%7Fb', 'query'],
    ['tags=a%00', 'tags'],
    ['tags[]=%0Aa', 'tags[]'],
    ['category=%00', 'category'],
    ['sort=new%00', 'sort'],
    ['page=%00', 'page'],
    ['pageSize=1%09', 'pageSize'],
  ])('%s is refused as a control character or invalid Unicode', (qs, parameter) => {
    const result = parseListingSearch(`?${qs}`);
    expect(result).toEqual({
      ok: false,
      parameter,
      message: expect.stringMatching(new RegExp(`^Invalid "${parameter.replace(/[[\]]/g, '\\$&')}": it (contains a control character|is not valid)`)),
    });
  });

  it('refuses a lone surrogate in the record shape pages get', () => {
    expect(parseListingParams({ query: 'a\ud800' })).toMatchObject({ ok: false, parameter: 'query' });
  });

  it('allows tab and line breaks in the search text, and ignores parameters it does not read', () => {
    expect(parseListingSearch('?query=a%09b%0Ac&utm_source=%00').ok).toBe(true);
  });

  it.each(['query=%ZZ', 'query=%', 'query=%C3%28', 'query=%ED%A0%80', 'tags=%FF'])('refuses the undecodable query string %s', (qs) => {
    expect(parseListingSearch(`?${qs}`)).toMatchObject({ ok: false, message: expect.stringMatching(/not valid percent-encoded UTF-8/) });
  });
});

import { describe, expect, it } from 'vitest';
import { catalogHref, defaultSort, EMPTY_CATALOG_STATE as base, isFiltered, pageWindow, sortOptions, toggleTag, withChange } from './catalog-url';

describe('catalogHref', () => {
  it('leaves defaults out', () => {
    expect(base).toEqual({ query: '', category: null, language: null, tags: [], sort: 'popular', page: 1 });
    expect(catalogHref(base)).toBe('/knowledge-bases');
  });

  it('encodes every part of the state', () => {
    expect(catalogHref({ query: ' état civil ', category: 'legal', language: 'fr', tags: ['open-data', 'k-12'], sort: 'new', page: 3 })).toBe(
      '/knowledge-bases?query=%C3%A9tat+civil&category=legal&language=fr&tags=open-data&tags=k-12&sort=new&page=3',
    );
  });
});

describe('state changes', () => {
  it('a filter change resets the page', () => {
    expect(withChange({ ...base, page: 4 }, { category: 'health' })).toEqual({ ...base, category: 'health', page: 1 });
    expect(withChange({ ...base, page: 4 }, { language: 'es' })).toEqual({ ...base, language: 'es', page: 1 });
  });

  it('toggles tags on and off, keeping order', () => {
    const one = toggleTag({ ...base, page: 2 }, 'a');
    expect(one).toEqual({ ...base, tags: ['a'] });
    expect(toggleTag(toggleTag(one, 'b'), 'a').tags).toEqual(['b']);
  });

  it('knows when anything filters the list', () => {
    expect(isFiltered(base)).toBe(false);
    expect(isFiltered({ ...base, sort: 'new', page: 2 })).toBe(false);
    expect(isFiltered({ ...base, query: 'x' })).toBe(true);
    expect(isFiltered({ ...base, tags: ['x'] })).toBe(true);
    expect(isFiltered({ ...base, language: 'de' })).toBe(true);
  });
});

describe('pageWindow', () => {
  it.each([
    [1, 0, []],
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 10, [1, 2, null, 10]],
    [6, 20, [1, null, 5, 6, 7, null, 20]],
    [3, 20, [1, 2, 3, 4, null, 20]],
    [20, 20, [1, null, 19, 20]],
  ])('page %i of %i', (current, total, expected) => expect(pageWindow(current, total)).toEqual(expected));
});

describe('relevance is the default order while a search term is set', () => {
  it.each<[string, string, string]>([
    ['', 'popular', '/knowledge-bases'],
    ['', 'relevance', '/knowledge-bases?sort=relevance'],
    ['law', 'relevance', '/knowledge-bases?query=law'],
    ['law', 'popular', '/knowledge-bases?query=law&sort=popular'],
    ['law', 'new', '/knowledge-bases?query=law&sort=new'],
  ])('query %j, sort %s → %s', (query, sort, href) => {
    expect(catalogHref({ ...base, query, sort: sort as typeof base.sort })).toBe(href);
  });

  it('offers "Best match" first with a search term, and not at all without one', () => {
    expect(defaultSort('  ')).toBe('popular');
    expect(sortOptions(base).map((o) => o.value)).toEqual(['popular', 'new', 'updated']);
    expect(sortOptions({ ...base, query: 'law' }).map((o) => o.value)).toEqual(['relevance', 'popular', 'new', 'updated']);
  });
});

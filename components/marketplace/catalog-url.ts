// The catalogue keeps all of its state in the URL (shareable, back button, works without JavaScript); these build its
// links (docs/api.md §2.2).
import type { Category } from '@/lib/catalog';
import { DEFAULT_LISTING_PARAMS, SORTS, type ListingSort } from '@/lib/catalog';

export interface CatalogState {
  query: string;
  category: Category | null;
  /** Primary subtag (`en`, `pt`); null for every language. */
  language: string | null;
  /** Lower-case, AND-combined. */
  tags: string[];
  sort: ListingSort;
  page: number;
}

export const EMPTY_CATALOG_STATE: CatalogState = { query: '', category: null, language: null, tags: [], sort: DEFAULT_LISTING_PARAMS.sort, page: 1 };

const CATALOG_PATH = '/knowledge-bases';

const SORT_LABELS: Record<ListingSort, string> = {
  relevance: 'Best match',
  popular: 'Most popular',
  new: 'Newest',
  updated: 'Recently updated',
};

const SORT_OPTIONS: { value: ListingSort; label: string }[] = SORTS.map((value) => ({ value, label: SORT_LABELS[value] }));

/** The page's default differs from the API's (`popular`): `relevance` while a search term is set. */
export function defaultSort(query: string): ListingSort {
  return query.trim() ? 'relevance' : EMPTY_CATALOG_STATE.sort;
}

/** Without a search term `relevance` is `popular`, so it is offered only with one. */
export function sortOptions(state: CatalogState): { value: ListingSort; label: string }[] {
  const options = SORT_OPTIONS.filter((o) => o.value !== 'relevance' || state.query.trim());
  return state.query.trim() ? [...options.filter((o) => o.value === 'relevance'), ...options.filter((o) => o.value !== 'relevance')] : options;
}

/** Defaults are left out so equal states have equal URLs. */
export function catalogHref(state: CatalogState, path = CATALOG_PATH): string {
  const params = new URLSearchParams();
  if (state.query.trim()) params.set('query', state.query.trim());
  if (state.category) params.set('category', state.category);
  if (state.language) params.set('language', state.language);
  for (const tag of state.tags) params.append('tags', tag);
  if (state.sort !== defaultSort(state.query)) params.set('sort', state.sort);
  if (state.page > 1) params.set('page', String(state.page));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export function withChange(state: CatalogState, change: Partial<Omit<CatalogState, 'page'>>): CatalogState {
  return { ...state, ...change, page: 1 };
}

export function toggleTag(state: CatalogState, tag: string): CatalogState {
  const tags = state.tags.includes(tag) ? state.tags.filter((t) => t !== tag) : [...state.tags, tag];
  return withChange(state, { tags });
}

export function isFiltered(state: CatalogState): boolean {
  return state.query.trim() !== '' || state.category !== null || state.language !== null || state.tags.length > 0;
}

/** null is a gap: 1 … 4 5 [6] 7 8 … 20. */
export function pageWindow(current: number, total: number, radius = 1): (number | null)[] {
  if (total <= 0) return [];
  const pages = new Set<number>([1, total]);
  for (let p = current - radius; p <= current + radius; p++) if (p >= 1 && p <= total) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  for (const p of sorted) {
    const last = out[out.length - 1];
    if (typeof last === 'number' && p - last === 2) out.push(last + 1);
    else if (typeof last === 'number' && p - last > 2) out.push(null);
    out.push(p);
  }
  return out;
}

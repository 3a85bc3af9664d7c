/** The public listing's query parameters (docs/api.md §2.2); mistakes are values the route turns into 400 `invalid_parameter`. */

import { CATEGORIES, isCategory, type Category } from './categories';
import { decodeQueryString, describeTextProblem, idProblem, textProblem } from '@/lib/platform/text-input';

export { CATEGORIES, type Category };

export const SORTS = ['popular', 'new', 'updated', 'relevance'] as const;
export type ListingSort = (typeof SORTS)[number];

export const DEFAULT_PAGE_SIZE = 12;
export const MAX_PAGE_SIZE = 50;
export const MAX_QUERY_LENGTH = 200;
export const MAX_TAGS = 10;
export const MAX_TAG_LENGTH = 64;
/** Pages beyond this cannot exist (offset stays a safe integer); a larger number is a malformed request. */
export const MAX_PAGE = 1_000_000_000;

export interface ListingParams {
  query?: string;
  category?: Category;
  language?: string;
  tags: string[];
  sort: ListingSort;
  page: number;
  pageSize: number;
}

export type ListingParamsResult = { ok: true; params: ListingParams } | { ok: false; parameter: string; message: string };

export type SearchParamsRecord = Record<string, string | string[] | undefined>;

export const DEFAULT_LISTING_PARAMS: ListingParams = { tags: [], sort: 'popular', page: 1, pageSize: DEFAULT_PAGE_SIZE };

function toEntries(input: URLSearchParams | SearchParamsRecord): [string, string][] {
  if (input instanceof URLSearchParams) return [...input.entries()];
  const entries: [string, string][] = [];
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) entries.push([key, v]);
  }
  return entries;
}

const fail = (parameter: string, message: string): ListingParamsResult => ({ ok: false, parameter, message });
/** The parameters the listing reads; any other is ignored, whatever it holds. */
const LISTING_PARAMETERS = new Set(['query', 'category', 'language', 'tags', 'tags[]', 'sort', 'page', 'pageSize']);
const DIGITS = /^[0-9]+$/;
const LANGUAGE_TAG = /^([a-z]{2,3})(?:-[a-z]{2})?$/;

export function parseListingParams(input: URLSearchParams | SearchParamsRecord): ListingParamsResult {
  const entries = toEntries(input);
  for (const [key, value] of entries) {
    if (!LISTING_PARAMETERS.has(key)) continue;
    const problem = key === 'query' ? textProblem(value) : idProblem(value);
    if (problem) return fail(key, `Invalid "${key}": ${describeTextProblem(problem, key === 'query' ? 'text' : 'id')}.`);
  }
  const first = (name: string): string | undefined => {
    const found = entries.find(([key]) => key === name);
    const value = found?.[1].trim();
    return value === undefined || value === '' ? undefined : value;
  };
  // Numbers are read as sent: "page=+2" arrives as " 2" (a "+" in a query string is a space), which is not digits.
  const number = (name: string): string | undefined => {
    const value = entries.find(([key]) => key === name)?.[1];
    return value === undefined || value === '' ? undefined : value;
  };
  const params: ListingParams = { ...DEFAULT_LISTING_PARAMS, tags: [] };

  const query = first('query');
  if (query !== undefined) {
    if ([...query].length > MAX_QUERY_LENGTH) {
      return fail('query', `Invalid "query": at most ${MAX_QUERY_LENGTH} characters are allowed (got ${[...query].length}).`);
    }
    params.query = query;
  }

  const category = first('category');
  if (category !== undefined) {
    const normalised = category.toLowerCase();
    if (!isCategory(normalised)) {
      return fail('category', `Invalid "category": expected one of ${CATEGORIES.join(', ')}.`);
    }
    params.category = normalised;
  }

  const language = first('language');
  if (language !== undefined) {
    const match = LANGUAGE_TAG.exec(language.toLowerCase());
    if (!match) return fail('language', 'Invalid "language": expected a language code such as en, es, de, fr or pt-BR.');
    params.language = match[1];
  }

  const tags = new Set<string>();
  for (const [key, value] of entries) {
    if (key !== 'tags' && key !== 'tags[]') continue;
    for (const part of value.split(',')) {
      const tag = part.trim().toLowerCase();
      if (tag === '') continue;
      if (tag.length > MAX_TAG_LENGTH) return fail('tags', `Invalid "tags": each tag is at most ${MAX_TAG_LENGTH} characters.`);
      tags.add(tag);
    }
  }
  if (tags.size > MAX_TAGS) {
    return fail('tags', `Invalid "tags": at most ${MAX_TAGS} tags are allowed (got ${tags.size}); pass them as tags=a&tags=b, tags=a,b or tags[]=a.`);
  }
  params.tags = [...tags];

  const sort = first('sort');
  if (sort !== undefined) {
    const normalised = sort.toLowerCase();
    if (!(SORTS as readonly string[]).includes(normalised)) return fail('sort', `Invalid "sort": expected one of ${SORTS.join(', ')}.`);
    params.sort = normalised as ListingSort;
  }

  const page = number('page');
  if (page !== undefined) {
    const n = DIGITS.test(page) ? Number(page) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE) {
      return fail('page', `Invalid "page": expected an integer from 1 to ${MAX_PAGE} (default 1).`);
    }
    params.page = n;
  }

  const pageSize = number('pageSize');
  if (pageSize !== undefined) {
    const n = DIGITS.test(pageSize) ? Number(pageSize) : NaN;
    if (Number.isNaN(n) || n < 1) {
      return fail(
        'pageSize',
        `Invalid "pageSize": expected an integer of at least 1 (default ${DEFAULT_PAGE_SIZE}; values above ${MAX_PAGE_SIZE} are clamped to ${MAX_PAGE_SIZE}).`,
      );
    }
    params.pageSize = Math.min(n, MAX_PAGE_SIZE);
  }

  return { ok: true, params };
}

export function parseListingSearch(search: string): ListingParamsResult {
  const decoded = decodeQueryString(search);
  if (!decoded.ok) return fail(decoded.name, `Invalid "${decoded.name}": the value is not valid percent-encoded UTF-8.`);
  return parseListingParams(decoded.params);
}

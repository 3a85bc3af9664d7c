import type { Executor } from '@/db/client';
import { getDatabaseHandle } from '@/lib/platform/db';
import { queryFacets, type CatalogFacets } from './facets';
import { toCard, withCardFacts, type KnowledgeBaseCard } from './cards';
import { completeRelevancePage, envelope, queryPage, resolveListingSearch, withSearchPlanner, type Listing } from './listing';
import type { ListingParams } from './params';
import { catalogServing } from './public-answers';
import { searchSomeWords, wordsWithMatches } from './some-words';
import { suggestSearch } from './suggest';

/** The catalog page's search: cards, facets, "Did you mean" and most-words results; the API answers exactly what was asked. */
const THIN_RESULTS = 3;

export interface CatalogSearch extends Listing<KnowledgeBaseCard> {
  facets: CatalogFacets;
  suggestion: string | null;
  /** True when the search as typed found nothing and items, totals and facets are the suggestion's. */
  showingSuggestion: boolean;
  /** Nothing matched every word: the items match most of the words, and the facets stay the search's own. */
  showingSomeWords: boolean;
  someWords: string[];
}

type FacetLoader = (params: ListingParams, load: () => Promise<CatalogFacets>) => Promise<CatalogFacets>;

const facetsCacheKey = (params: ListingParams) =>
  JSON.stringify(['facets', params.query ?? null, params.category ?? null, params.language ?? null, [...params.tags].sort()]);

async function loadCatalogPage(executor: Executor, params: ListingParams, facetsFor: FacetLoader) {
  const search = await resolveListingSearch(executor, params.query);
  const [rows, facets] = await Promise.all([
    queryPage(executor, params, search),
    facetsFor(params, () => withSearchPlanner(executor, search, (tx) => queryFacets(tx, params, search))),
  ]);
  const complete = await completeRelevancePage(executor, params, search, rows, facets.total);
  return { search, listing: envelope(await withCardFacts(executor, complete.map(toCard)), facets.total, params), facets };
}

export async function searchCatalog(params: ListingParams, db?: Executor): Promise<CatalogSearch> {
  let executor = db;
  let facetsFor: FacetLoader = (_params, load) => load();
  if (!executor) {
    const handle = await getDatabaseHandle();
    const cache = catalogServing(handle).cache;
    executor = handle.db;
    facetsFor = async (p, load) => {
      const body = await cache.get(facetsCacheKey(p), async () => ({ bytes: Buffer.from(JSON.stringify(await load()), 'utf8') }));
      return JSON.parse(body!.bytes.toString('utf8')) as CatalogFacets;
    };
  }
  const asTyped = await loadCatalogPage(executor, params, facetsFor);
  const answer = (page: typeof asTyped, suggestion: string | null, showingSuggestion = false): CatalogSearch => ({
    ...page.listing,
    facets: page.facets,
    suggestion,
    showingSuggestion,
    showingSomeWords: false,
    someWords: [],
  });
  const someWords = async (): Promise<CatalogSearch> => {
    const matching = await wordsWithMatches(executor, terms!);
    if (matching.length === 0) return answer(asTyped, null);
    if (matching.length === 1) {
      const alone = await loadCatalogPage(executor, { ...params, query: matching[0] }, facetsFor);
      if (alone.facets.total > 0) return { ...answer(alone, null), showingSomeWords: true, someWords: matching };
    }
    const found = await searchSomeWords(executor, params, terms!);
    if (found.total === 0) return answer(asTyped, null);
    const listing = envelope(await withCardFacts(executor, found.rows.map(toCard)), found.total, params);
    return { ...listing, facets: asTyped.facets, suggestion: null, showingSuggestion: false, showingSomeWords: true, someWords: matching };
  };
  const terms = asTyped.search?.terms;
  if (!terms || asTyped.facets.total >= THIN_RESULTS) return answer(asTyped, null);
  const suggestion = await suggestSearch(executor, terms);
  if (asTyped.facets.total > 0) return answer(asTyped, suggestion);
  if (!suggestion) return someWords();
  const corrected = await loadCatalogPage(executor, { ...params, query: suggestion }, facetsFor);
  return corrected.facets.total > 0 ? answer(corrected, suggestion, true) : someWords();
}

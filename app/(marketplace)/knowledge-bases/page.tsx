import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import Link from 'next/link';
import { CategoryTabs, LanguageForm, SearchForm, SortForm, TagChips } from '@/components/marketplace/catalog-controls';
import { catalogHref, defaultSort, EMPTY_CATALOG_STATE, isFiltered, type CatalogState } from '@/components/marketplace/catalog-url';
import { CategoryIcon } from '@/components/marketplace/category-icon';
import { categoryLabel, languageName } from '@/components/marketplace/format';
import { plural } from '@/lib/platform/format';
import { KnowledgeBaseGrid } from '@/components/marketplace/knowledge-base-card';
import { Pagination } from '@/components/marketplace/pagination';
import { friendlyListingError, pagePosition } from '@/components/marketplace/listing-error';
import { Alert } from '@/components/ui/alert';
import { ButtonLink } from '@/components/ui/button';
import { CATEGORIES, parseListingParams, searchCatalog, type ListingParams, type SearchParamsRecord } from '@/lib/catalog';

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const parsed = parseListingParams(await searchParams);
  if (!parsed.ok) return { title: 'Knowledge bases' };
  const { query, category, language, page } = parsed.params;
  const parts = [
    query ? `“${query}”` : null,
    category ? categoryLabel(category) : null,
    language ? `in ${languageName(language)}` : null,
    page > 1 ? `page ${page}` : null,
  ].filter(Boolean);
  return { title: parts.length ? `Knowledge bases: ${parts.join(', ')}` : 'Browse knowledge bases' };
}

function pageParams(params: ListingParams, raw: SearchParamsRecord): ListingParams {
  const sortGiven = [raw.sort ?? []].flat().some((value) => value.trim() !== '');
  return sortGiven ? params : { ...params, sort: defaultSort(params.query ?? '') };
}

function toState(params: ListingParams): CatalogState {
  return {
    query: params.query ?? '',
    category: params.category ?? null,
    language: params.language ?? null,
    tags: params.tags,
    sort: params.sort,
    page: params.page,
  };
}

/** Even when the params fail validation, so the controls keep what was typed. */
function lenientState(raw: Record<string, string | string[] | undefined>): CatalogState {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
  return { ...EMPTY_CATALOG_STATE, query: first(raw.query).slice(0, 200) };
}

function describeResults(total: number, state: CatalogState): string {
  const parts: string[] = [];
  if (state.query) parts.push(`for “${state.query}”`);
  if (state.category) parts.push(`in ${categoryLabel(state.category)}`);
  if (state.language) parts.push(`written in ${languageName(state.language)}`);
  if (state.tags.length) parts.push(`tagged ${state.tags.join(' + ')}`);
  return [plural(total, 'knowledge base'), ...parts].join(' ');
}

export default async function CatalogPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = await searchParams;
  const parsed = parseListingParams(raw);
  const params = parsed.ok ? pageParams(parsed.params, raw) : null;
  const state = params ? toState(params) : lenientState(raw);
  const listing = params ? await searchCatalog(params) : null;
  // Refused filters: no search ran, so the tabs are shown without counts rather than with zeros.
  const counts = listing?.facets.categories ?? CATEGORIES.map((category) => ({ category, count: null }));

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
      {/* The page's first focusable element: past the search, category tabs and tag chips straight to the results. */}
      <a href="#results" className="sr-only rounded-md bg-white px-4 py-2 font-semibold text-brand-700 shadow focus:not-sr-only focus:mb-4 focus:inline-block">
        Skip to results
      </a>
      <div className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight text-slate-900">Knowledge bases</h1>
          <p className="mt-1 text-slate-700">Curated sources you can query through one API, with citations in every answer.</p>
        </div>
        <div className="w-full md:max-w-md">
          <SearchForm state={state} />
        </div>
      </div>

      <div className="mt-6 space-y-5">
        <CategoryTabs state={state} counts={counts} />
        <TagChips state={state} facets={listing?.facets.tags ?? []} />
      </div>

      {!parsed.ok || !listing ? (
        <Alert tone="error" title="These filters could not be applied" className="mt-8">
          <p>{parsed.ok ? 'Something went wrong.' : friendlyListingError(parsed.parameter)}</p>
          <p className="mt-2">
            <Link prefetch={false} href="/knowledge-bases" className="font-semibold underline">
              Show all knowledge bases
            </Link>
          </p>
        </Alert>
      ) : (
        <>
          <div className="mt-8 flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4">
            <p role="status" className="text-sm text-slate-700">
              <span className="font-semibold text-slate-900">
                {describeResults(listing.total, listing.showingSuggestion && listing.suggestion ? { ...state, query: listing.suggestion } : state)}
              </span>
              {pagePosition(listing.page, listing.totalPages) ? ` · ${pagePosition(listing.page, listing.totalPages)}` : null}
            </p>
            <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
              {isFiltered(state) ? (
                <Link
                  prefetch={false}
                  href={catalogHref({ ...EMPTY_CATALOG_STATE, sort: state.sort === 'relevance' ? EMPTY_CATALOG_STATE.sort : state.sort })}
                  className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
                >
                  Clear filters
                </Link>
              ) : null}
              <LanguageForm state={state} facets={listing.facets.languages} />
              <SortForm state={state} />
            </div>
          </div>

          {/* The target of "Skip to results": the next Tab reaches the suggestion, else the first result. */}
          <section id="results" tabIndex={-1} aria-label="Results" className="focus:outline-none">
            {listing.suggestion ? <DidYouMean state={state} suggestion={listing.suggestion} showing={listing.showingSuggestion} /> : null}
            {listing.showingSomeWords ? (
              <p className="mt-5 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-slate-800" data-testid="some-words">
                No knowledge base matches every word of “{state.query}”. Showing results for {listing.someWords.map((w) => `“${w}”`).join(', ')}
                {listing.someWords.length > 1 ? ', those matching most of them first' : ''}.
              </p>
            ) : null}
            {listing.items.length > 0 ? (
              <div className="mt-5">
                <h2 className="sr-only">Results</h2>
                <KnowledgeBaseGrid items={listing.items} />
                <Pagination state={state} totalPages={listing.totalPages} />
              </div>
            ) : listing.total > 0 ? (
              <EmptyState title={`There is no page ${listing.page}`} body={`These results end at page ${listing.totalPages}.`}>
                <ButtonLink href={catalogHref({ ...state, page: listing.totalPages })}>Go to the last page</ButtonLink>
              </EmptyState>
            ) : !isFiltered(state) ? (
              <EmptyState title="Nothing is published yet" body="Knowledge bases appear here as soon as publishers release them.">
                <ButtonLink href="/" variant="secondary">
                  Back to the home page
                </ButtonLink>
              </EmptyState>
            ) : (
              <EmptyState title="No knowledge bases match" body="Try fewer tags, another category or language, or different words.">
                {state.language ? (
                  <ButtonLink href={catalogHref({ ...state, language: null, page: 1 })} variant="secondary">
                    Show every language
                  </ButtonLink>
                ) : null}
                {state.tags.length > 1 ? (
                  <ButtonLink href={catalogHref({ ...state, tags: state.tags.slice(0, -1), page: 1 })} variant="secondary">
                    Remove the tag “{state.tags[state.tags.length - 1]}”
                  </ButtonLink>
                ) : null}
                <ButtonLink href="/knowledge-bases">Clear all filters</ButtonLink>
                {state.query ? <BrowseCategories /> : null}
              </EmptyState>
            )}
          </section>
        </>
      )}
    </div>
  );
}

function DidYouMean({ state, suggestion, showing }: { state: CatalogState; suggestion: string; showing: boolean }) {
  const href = catalogHref({ ...state, query: suggestion, sort: state.sort === defaultSort(state.query) ? defaultSort(suggestion) : state.sort, page: 1 });
  return (
    <div className="mt-5 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-slate-800">
      <p>
        Did you mean{' '}
        <Link prefetch={false} href={href} className="font-semibold text-brand-700 underline underline-offset-2">
          {suggestion}
        </Link>
        ?
      </p>
      {showing ? (
        <p className="mt-1">
          Nothing matches “{state.query}”, so these are the results for “{suggestion}”.
        </p>
      ) : null}
    </div>
  );
}

function BrowseCategories() {
  return (
    <nav aria-labelledby="browse-categories-heading" className="mt-4 w-full">
      <h3 id="browse-categories-heading" className="text-sm font-medium text-slate-700">
        Or browse a category
      </h3>
      <ul className="mt-2 flex flex-wrap justify-center gap-2">
        {CATEGORIES.map((category) => (
          <li key={category}>
            <ButtonLink href={catalogHref({ ...EMPTY_CATALOG_STATE, category })} variant="secondary" size="sm">
              <CategoryIcon category={category} className="h-4 w-4" />
              {categoryLabel(category)}
            </ButtonLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function EmptyState({ title, body, children }: { title: string; body: string; children: ReactNode }) {
  return (
    <div className="mt-6 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <p className="mt-1 text-sm text-slate-700">{body}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">{children}</div>
    </div>
  );
}

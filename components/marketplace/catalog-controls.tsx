import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { catalogHref, defaultSort, sortOptions, toggleTag, withChange, type CatalogState } from './catalog-url';
import type { Category } from '@/lib/catalog';
import { categoryLabel, languageName } from './format';
import { formatInteger, plural } from '@/lib/platform/format';
import { AutoSubmitSelect } from './auto-submit-select';
import { ScrollRow } from '@/components/ui/scroll-row';

function StateInputs({ state, omit }: { state: CatalogState; omit: ('query' | 'sort' | 'language')[] }) {
  return (
    <>
      {!omit.includes('query') && state.query ? <input type="hidden" name="query" value={state.query} /> : null}
      {state.category ? <input type="hidden" name="category" value={state.category} /> : null}
      {!omit.includes('language') && state.language ? <input type="hidden" name="language" value={state.language} /> : null}
      {state.tags.map((t) => (
        <input key={t} type="hidden" name="tags" value={t} />
      ))}
      {/* The sort travels only when it is not the default of the state (relevance with a search, else popular). */}
      {!omit.includes('sort') && state.sort !== defaultSort(state.query) ? <input type="hidden" name="sort" value={state.sort} /> : null}
    </>
  );
}

export function SearchForm({ state, action = '/knowledge-bases', size = 'md' }: { state: CatalogState; action?: string; size?: 'md' | 'lg' }) {
  return (
    <form role="search" action={action} method="get" className="flex w-full gap-2">
      <label htmlFor="catalog-search" className="sr-only">
        Search knowledge bases
      </label>
      <input
        id="catalog-search"
        type="search"
        name="query"
        defaultValue={state.query}
        maxLength={200}
        placeholder="Topic, title or publisher…"
        className={cx(
          'block w-full rounded-lg border border-slate-300 bg-white px-3 text-slate-900 shadow-sm placeholder:text-slate-500',
          size === 'lg' ? 'py-3 text-base' : 'py-2 text-sm',
        )}
      />
      <StateInputs state={state} omit={['query']} />
      <Button type="submit" size={size}>
        Search
      </Button>
    </form>
  );
}

/** A count of null: the search could not run (filters refused), so the tabs name the categories without counting. */
export function CategoryTabs({ state, counts }: { state: CatalogState; counts: readonly { category: Category; count: number | null }[] }) {
  const known = counts.every((c) => c.count !== null);
  const tabs: { value: Category | null; label: string; count: number | null }[] = [
    { value: null, label: 'All', count: known ? counts.reduce((sum, c) => sum + (c.count ?? 0), 0) : null },
    ...counts.map(({ category, count }) => ({ value: category, label: categoryLabel(category), count })),
  ];
  // relative: clips the tabs' sr-only text (position: absolute), which would otherwise widen the page on a phone.
  return (
    <ScrollRow label="Categories" className="relative -mx-1 overflow-x-auto">
      <ul className="flex min-w-max gap-1 border-b border-slate-200 px-1">
        {tabs.map((tab) => {
          const active = state.category === tab.value;
          const body = (
            <>
              {tab.label}
              {tab.count === null ? null : (
                <span className={cx('rounded-full px-1.5 text-xs', active ? 'bg-brand-50 text-brand-700' : 'bg-slate-100 text-slate-600')}>
                  {formatInteger(tab.count)}
                </span>
              )}
            </>
          );
          const tabClass = 'relative -mb-px inline-flex items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium';
          return (
            <li key={tab.label}>
              {tab.count === 0 && !active ? (
                <span aria-disabled="true" className={cx(tabClass, 'border-transparent text-slate-500')}>
                  {body}
                  <span className="sr-only"> (no results)</span>
                </span>
              ) : (
                <Link
                  prefetch={false}
                  href={catalogHref(withChange(state, { category: tab.value }))}
                  aria-current={active ? 'page' : undefined}
                  className={cx(
                    tabClass,
                    active ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900',
                  )}
                >
                  {body}
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </ScrollRow>
  );
}

const VISIBLE_TAGS = 12;
/** So that the first result shows without scrolling. */
const VISIBLE_TAGS_PHONE = 5;

/** The rest open under "More tags", a <details>, so no JavaScript is needed. */
export function TagChips({ state, facets }: { state: CatalogState; facets: readonly { tag: string; count: number }[] }) {
  const selected = state.tags.map((tag) => ({ tag, count: facets.find((f) => f.tag === tag)?.count ?? 0 }));
  const others = facets.filter((f) => !state.tags.includes(f.tag));
  if (selected.length === 0 && others.length === 0) return null;
  const shown = [...selected, ...others.slice(0, Math.max(0, VISIBLE_TAGS - selected.length))];
  const more = others.slice(shown.length - selected.length);
  const phoneCut = Math.max(selected.length, VISIBLE_TAGS_PHONE);
  const chips = (list: { tag: string; count: number }[], itemClass: (index: number) => string | undefined = () => undefined) => (
    <ul className="mt-2 flex flex-wrap gap-1.5">
      {list.map((facet, i) => (
        <li key={facet.tag} className={itemClass(i)}>
          <TagChip state={state} {...facet} />
        </li>
      ))}
    </ul>
  );
  const phoneMore = shown.slice(phoneCut);
  return (
    <nav aria-labelledby="tag-filter-heading">
      <h2 id="tag-filter-heading" className="text-xs font-semibold uppercase tracking-wide text-slate-600">
        Filter by tags <span className="font-normal normal-case tracking-normal">(all selected tags must match)</span>
      </h2>
      {chips(shown, (i) => (i >= phoneCut ? 'hidden sm:block' : undefined))}
      {more.length + phoneMore.length > 0 ? (
        <details className={cx('mt-2', more.length === 0 && 'sm:hidden')}>
          <summary className="cursor-pointer text-sm font-medium text-brand-700">
            More tags <span className="sm:hidden">({more.length + phoneMore.length})</span>
            <span className="hidden sm:inline">({more.length})</span>
          </summary>
          {chips([...phoneMore, ...more], (i) => (i < phoneMore.length ? 'sm:hidden' : undefined))}
        </details>
      ) : null}
    </nav>
  );
}

function TagChip({ state, tag, count }: { state: CatalogState; tag: string; count: number }) {
  const selected = state.tags.includes(tag);
  const chip = 'relative inline-flex items-center gap-1 whitespace-nowrap rounded-full border px-2.5 py-1 text-xs font-medium';
  // The sr-only text reads the count in words; the digits are for the eye.
  const number = (
    <span aria-hidden="true" className={cx('tabular-nums', selected ? 'text-brand-50' : 'text-slate-500')}>
      {formatInteger(count)}
    </span>
  );
  if (!selected && count === 0) {
    return (
      <span aria-disabled="true" className={cx(chip, 'border-dashed border-slate-300 bg-slate-50 text-slate-500')}>
        {tag} {number}
        <span className="sr-only"> (no knowledge bases with the selected tags)</span>
      </span>
    );
  }
  return (
    <Link
      prefetch={false}
      href={catalogHref(toggleTag(state, tag))}
      aria-current={selected ? 'true' : undefined}
      className={cx(
        chip,
        // No colour transition: a chip changes colour when the page behind it changes, and a half-faded chip
        // (white text on a paler blue) is what an accessibility scan taken right after the click measured.
        selected
          ? 'border-brand-600 bg-brand-600 text-white hover:bg-brand-700'
          : 'border-slate-300 bg-white text-slate-700 hover:border-slate-400 hover:bg-slate-50',
      )}
    >
      {selected ? <span aria-hidden="true">✓</span> : null}
      {tag} {number}
      <span className="sr-only">{selected ? ' (selected; activate to remove)' : ` (${plural(count, 'knowledge base')})`}</span>
    </Link>
  );
}

export function SortForm({ state }: { state: CatalogState }) {
  return (
    <form action="/knowledge-bases" method="get" className="flex items-center gap-2">
      <StateInputs state={state} omit={['sort']} />
      <label htmlFor="catalog-sort" className="text-sm text-slate-700">
        Sort by
      </label>
      <AutoSubmitSelect
        id="catalog-sort"
        name="sort"
        defaultValue={state.sort}
        className="rounded-lg border border-slate-300 bg-white py-1.5 pl-2 pr-8 text-sm text-slate-900 shadow-sm"
        options={sortOptions(state)}
      />
      <noscript>
        <Button type="submit" variant="secondary" size="sm">
          Apply
        </Button>
      </noscript>
    </form>
  );
}

/** A chosen language that no longer gives anything stays listed, with 0, so the select always shows the URL's state. */
export function LanguageForm({ state, facets }: { state: CatalogState; facets: readonly { language: string; count: number }[] | null }) {
  const listed = facets ?? [];
  const all = listed.reduce((n, f) => n + f.count, 0);
  const languages = state.language && !listed.some((f) => f.language === state.language) ? [...listed, { language: state.language, count: 0 }] : listed;
  const withCount = (label: string, count: number) => (facets ? `${label} (${formatInteger(count)})` : label);
  return (
    <form action="/knowledge-bases" method="get" className="flex items-center gap-2">
      <StateInputs state={{ ...state, page: 1 }} omit={['language']} />
      <label htmlFor="catalog-language" className="text-sm text-slate-700">
        Language
      </label>
      <AutoSubmitSelect
        id="catalog-language"
        name="language"
        defaultValue={state.language ?? ''}
        className="rounded-lg border border-slate-300 bg-white py-1.5 pl-2 pr-8 text-sm text-slate-900 shadow-sm"
        options={[
          { value: '', label: withCount('Any language', all) },
          ...languages.map((f) => ({ value: f.language, label: withCount(languageName(f.language), f.count) })),
        ]}
      />
      <noscript>
        <Button type="submit" variant="secondary" size="sm">
          Apply<span className="sr-only"> language</span>
        </Button>
      </noscript>
    </form>
  );
}

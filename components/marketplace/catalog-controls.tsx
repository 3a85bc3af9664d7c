import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { catalogHref, SORT_OPTIONS, toggleTag, withChange, type CatalogState } from './catalog-url';
import type { Category } from '@/lib/catalog';
import { categoryLabel } from './format';
import { formatInteger } from '@/components/ui/format';
import { AutoSubmitSelect } from './auto-submit-select';

/** Hidden inputs that carry the rest of the state through a GET form. */
function StateInputs({ state, omit }: { state: CatalogState; omit: ('query' | 'sort')[] }) {
  return (
    <>
      {!omit.includes('query') && state.query ? <input type="hidden" name="query" value={state.query} /> : null}
      {state.category ? <input type="hidden" name="category" value={state.category} /> : null}
      {state.tags.map((t) => (
        <input key={t} type="hidden" name="tags" value={t} />
      ))}
      {!omit.includes('sort') && state.sort !== 'popular' ? <input type="hidden" name="sort" value={state.sort} /> : null}
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
        placeholder="Search by topic, title or publisher…"
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

/** One tab per category, in the order of `counts` (lib's categoryCounts: every category, empty ones with 0). */
export function CategoryTabs({ state, counts }: { state: CatalogState; counts: readonly { category: Category; count: number }[] }) {
  const tabs: { value: Category | null; label: string; count: number }[] = [
    { value: null, label: 'All', count: counts.reduce((sum, c) => sum + c.count, 0) },
    ...counts.map(({ category, count }) => ({ value: category, label: categoryLabel(category), count })),
  ];
  return (
    <nav aria-label="Categories" className="-mx-1 overflow-x-auto">
      <ul className="flex min-w-max gap-1 border-b border-slate-200 px-1">
        {tabs.map((tab) => {
          const active = state.category === tab.value;
          return (
            <li key={tab.label}>
              <Link
                href={catalogHref(withChange(state, { category: tab.value }))}
                aria-current={active ? 'page' : undefined}
                className={cx(
                  '-mb-px inline-flex items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium',
                  active ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900',
                )}
              >
                {tab.label}
                <span className={cx('rounded-full px-1.5 text-xs', active ? 'bg-brand-50 text-brand-700' : 'bg-slate-100 text-slate-600')}>
                  {formatInteger(tab.count)}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function TagChips({ state, vocabulary }: { state: CatalogState; vocabulary: { tag: string; count: number }[] }) {
  if (vocabulary.length === 0) return null;
  return (
    <nav aria-labelledby="tag-filter-heading">
      <h2 id="tag-filter-heading" className="text-xs font-semibold uppercase tracking-wide text-slate-600">
        Filter by tags <span className="font-normal normal-case tracking-normal">(all selected tags must match)</span>
      </h2>
      {/* One scrolling row on phones (results stay above the fold), wrapped rows from the small breakpoint up. */}
      <ul className="-mx-4 mt-2 flex gap-1.5 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0 sm:pb-0">
        {vocabulary.map(({ tag, count }) => {
          const selected = state.tags.includes(tag);
          return (
            <li key={tag}>
              <Link
                // Thirty-odd filter links: prefetching them all would cost a request each on every catalogue view.
                prefetch={false}
                href={catalogHref(toggleTag(state, tag))}
                aria-current={selected ? 'true' : undefined}
                className={cx(
                  'inline-flex items-center gap-1 whitespace-nowrap rounded-full border px-2.5 py-1 text-xs font-medium transition-colors',
                  selected ? 'border-brand-600 bg-brand-600 text-white hover:bg-brand-700' : 'border-slate-300 bg-white text-slate-700 hover:border-slate-400 hover:bg-slate-50',
                )}
              >
                {selected ? <span aria-hidden="true">✓</span> : null}
                {tag}
                <span className="sr-only">{selected ? ' (selected; activate to remove)' : ` (${count} knowledge bases)`}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
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
        options={SORT_OPTIONS}
      />
      <noscript>
        <Button type="submit" variant="secondary" size="sm">
          Apply
        </Button>
      </noscript>
    </form>
  );
}

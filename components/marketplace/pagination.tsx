import Link from 'next/link';
import { cx } from '@/components/ui/cx';
import { catalogueHref, pageWindow, type CatalogueState } from './catalogue-url';

export function Pagination({ state, totalPages }: { state: CatalogueState; totalPages: number }) {
  if (totalPages <= 1) return null;
  const href = (page: number) => catalogueHref({ ...state, page });
  const edge = 'inline-flex items-center gap-1 rounded-lg border px-3 py-1.5 text-sm font-medium';
  return (
    <nav aria-label="Pagination" className="mt-8 flex flex-wrap items-center justify-center gap-1">
      {state.page > 1 ? (
        <Link href={href(state.page - 1)} rel="prev" className={cx(edge, 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50')}>
          <span aria-hidden="true">←</span> Previous
        </Link>
      ) : (
        <span className={cx(edge, 'border-slate-200 text-slate-500')} aria-disabled="true">
          <span aria-hidden="true">←</span> Previous
        </span>
      )}
      <ul className="flex items-center gap-1">
        {pageWindow(state.page, totalPages).map((page, i) =>
          page === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-slate-500">
              …
            </li>
          ) : (
            <li key={page}>
              <Link
                href={href(page)}
                aria-label={`Page ${page}`}
                aria-current={page === state.page ? 'page' : undefined}
                className={cx(
                  'inline-flex min-w-9 justify-center rounded-lg px-2.5 py-1.5 text-sm font-medium',
                  page === state.page ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-100',
                )}
              >
                {page}
              </Link>
            </li>
          ),
        )}
      </ul>
      {state.page < totalPages ? (
        <Link href={href(state.page + 1)} rel="next" className={cx(edge, 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50')}>
          Next <span aria-hidden="true">→</span>
        </Link>
      ) : (
        <span className={cx(edge, 'border-slate-200 text-slate-500')} aria-disabled="true">
          Next <span aria-hidden="true">→</span>
        </span>
      )}
    </nav>
  );
}

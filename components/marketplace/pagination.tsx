import Link from 'next/link';
import { ButtonLink, buttonClasses } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { catalogHref, pageWindow, type CatalogState } from './catalog-url';

export function Pagination({ state, totalPages }: { state: CatalogState; totalPages: number }) {
  if (totalPages <= 1) return null;
  const href = (page: number) => catalogHref({ ...state, page });
  // Previous and Next are buttons; at either end the one that leads nowhere stays in place, dimmed, as plain text.
  const edge = { variant: 'secondary', size: 'sm' } as const;
  const dead = buttonClasses(edge, 'pointer-events-none opacity-60');
  return (
    <nav aria-label="Pagination" className="mt-8 flex flex-wrap items-center justify-center gap-1">
      {state.page > 1 ? (
        <ButtonLink href={href(state.page - 1)} rel="prev" {...edge}>
          <span aria-hidden="true">←</span> Previous
        </ButtonLink>
      ) : (
        <span className={dead} aria-disabled="true">
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
                prefetch={false}
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
        <ButtonLink href={href(state.page + 1)} rel="next" {...edge}>
          Next <span aria-hidden="true">→</span>
        </ButtonLink>
      ) : (
        <span className={dead} aria-disabled="true">
          Next <span aria-hidden="true">→</span>
        </span>
      )}
    </nav>
  );
}

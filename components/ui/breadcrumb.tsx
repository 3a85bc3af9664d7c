import Link from 'next/link';

export interface Crumb {
  label: string;
  /** Omitted for the current page. */
  href?: string;
}

/** Each separator ends its parent's item, so a trail that wraps on a phone never starts a line with one. */
export function Breadcrumb({ items }: { items: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
      <ol className="flex flex-wrap items-center gap-1.5">
        {items.map((item, index) => (
          <li key={`${index}-${item.label}`} className="flex items-center gap-1.5">
            {item.href ? (
              <Link prefetch={false} href={item.href} className="text-brand-700 underline-offset-2 hover:text-slate-900 hover:underline">
                {item.label}
              </Link>
            ) : (
              <span aria-current="page" className="truncate font-medium text-slate-800">
                {item.label}
              </span>
            )}
            {index < items.length - 1 && <span aria-hidden="true">/</span>}
          </li>
        ))}
      </ol>
    </nav>
  );
}

import Link from 'next/link';
import { cx } from '@/components/ui/cx';
import { publishPaths } from '@/lib/site/paths';

export type ListingSection = 'listing' | 'plans' | 'content' | 'analytics';

const SECTIONS: { key: ListingSection; label: string; href: (kbId: string) => string }[] = [
  { key: 'listing', label: 'Listing', href: publishPaths.listing },
  { key: 'plans', label: 'Plans', href: publishPaths.plans },
  { key: 'content', label: 'Content', href: publishPaths.content },
  { key: 'analytics', label: 'Analytics', href: publishPaths.listingAnalytics },
];

export function ListingNav({ kbId, current }: { kbId: string; current: ListingSection }) {
  return (
    <nav aria-label="This listing" className="mt-4 border-b border-slate-200">
      <ul className="-mb-px flex gap-1 overflow-x-auto text-sm font-medium">
        {SECTIONS.map((s) => (
          <li key={s.key}>
            <Link
              href={s.href(kbId)}
              aria-current={s.key === current ? 'page' : undefined}
              className={cx(
                'inline-block whitespace-nowrap border-b-2 px-3 py-2',
                s.key === current ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900',
              )}
            >
              {s.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

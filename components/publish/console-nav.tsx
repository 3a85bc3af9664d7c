'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cx } from '@/components/ui/cx';
import { publishPaths } from '@/lib/site/paths';

const LINKS = [
  { href: publishPaths.overview, label: 'Listings', match: (p: string) => p === '/publish' || p.startsWith('/publish/listings') },
  { href: publishPaths.profile, label: 'Profile', match: (p: string) => p.startsWith('/publish/profile') },
  { href: publishPaths.analytics, label: 'Analytics', match: (p: string) => p.startsWith('/publish/analytics') },
  { href: publishPaths.earnings, label: 'Earnings', match: (p: string) => p.startsWith('/publish/earnings') },
];

/** The console's own navigation, under the site header on every /publish page. */
export function ConsoleNav() {
  const pathname = usePathname() ?? '';
  return (
    <nav aria-label="Publisher console">
      <ul className="flex flex-wrap gap-1 text-sm font-medium">
        {LINKS.map((l) => {
          const current = l.match(pathname);
          return (
            <li key={l.href}>
              <Link
                href={l.href}
                aria-current={current ? 'page' : undefined}
                className={cx(
                  'inline-block rounded-md px-3 py-1.5',
                  current ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
                )}
              >
                {l.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

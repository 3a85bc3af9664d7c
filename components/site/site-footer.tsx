import Link from 'next/link';

const LINKS = [
  { href: '/knowledge-bases', label: 'Browse' },
  { href: '/docs', label: 'API reference' },
  { href: '/account', label: 'Your account' },
  // The operator's texts (LEGAL_DIR, lib/platform/legal.ts).
  { href: '/terms', label: 'Terms' },
  { href: '/privacy', label: 'Privacy' },
  { href: '/refunds', label: 'Refunds' },
];

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>Almanac — open-source marketplace for knowledge bases with a metered query API.</p>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-4 gap-y-2">
            {LINKS.map((link) => (
              <li key={link.href}>
                <Link prefetch={false} href={link.href} className="hover:text-slate-900 hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}

import Link from 'next/link';

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>Almanac — open-source marketplace for knowledge bases with a metered query API.</p>
        <nav aria-label="Footer">
          <ul className="flex gap-4">
            <li>
              <Link href="/knowledge-bases" className="hover:text-slate-900 hover:underline">
                Browse
              </Link>
            </li>
            <li>
              <Link href="/docs" className="hover:text-slate-900 hover:underline">
                API reference
              </Link>
            </li>
            <li>
              <Link href="/account" className="hover:text-slate-900 hover:underline">
                Your account
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}

import Link from 'next/link';
import { Button, ButtonLink } from '@/components/ui/button';
import type { SessionUser } from '@/lib/accounts';

/** The site's header; the layout hands it the sign-out action, so components never import from app/. */
export function SiteHeader({ user, signOutAction }: { user: SessionUser | null; signOutAction: () => Promise<void> }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-3 sm:px-6">
        <div className="flex items-center gap-3 sm:gap-6">
          <Link prefetch={false} href="/" className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-900">
            <span aria-hidden="true" className="grid h-8 w-8 place-items-center rounded-lg bg-brand-600 text-sm font-bold text-white">
              A
            </span>
            Almanac
          </Link>
          <nav aria-label="Main">
            <ul className="flex items-center gap-1 text-sm font-medium">
              <li>
                <Link prefetch={false} href="/knowledge-bases" className="rounded-md px-2 py-2 text-slate-700 sm:px-3 hover:bg-slate-100 hover:text-slate-900">
                  <span className="sm:hidden">Browse</span>
                  <span className="hidden sm:inline">Knowledge bases</span>
                </Link>
              </li>
              <li>
                <Link prefetch={false} href="/docs" className="rounded-md px-2 py-2 text-slate-700 sm:px-3 hover:bg-slate-100 hover:text-slate-900">
                  <span className="sm:hidden">API</span>
                  <span className="hidden sm:inline">API reference</span>
                </Link>
              </li>
              <li>
                {/* For everyone: signed out, /publish sends to sign-in and comes back. */}
                <Link prefetch={false} href="/publish" className="rounded-md px-2 py-2 text-slate-700 sm:px-3 hover:bg-slate-100 hover:text-slate-900">
                  Publish
                </Link>
              </li>
            </ul>
          </nav>
        </div>
        <div className="flex items-center gap-2 text-sm">
          {user ? (
            <>
              <span className="hidden max-w-[16rem] truncate text-slate-700 sm:inline" title={user.email}>
                {user.email}
              </span>
              <ButtonLink href="/account" variant="secondary" size="sm">
                Account
              </ButtonLink>
              <form action={signOutAction}>
                <Button type="submit" variant="ghost" size="sm">
                  Sign out
                </Button>
              </form>
            </>
          ) : (
            <>
              <ButtonLink href="/signin" variant="ghost" size="sm">
                Sign in
              </ButtonLink>
              <ButtonLink href="/signup" size="sm">
                Sign up
              </ButtonLink>
            </>
          )}
        </div>
      </div>
    </header>
  );
}

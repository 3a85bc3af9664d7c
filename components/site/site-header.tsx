import Link from 'next/link';
import { Button, ButtonLink } from '@/components/ui/button';
import type { SessionUser } from '@/lib/accounts';
import { HeaderMenu } from './header-menu';

const navLink = 'block rounded-md px-3 py-2 text-slate-700 hover:bg-slate-100 hover:text-slate-900';

/** The layout hands it the sign-out action, so components never import from app/. */
export function SiteHeader({ user, signOutAction }: { user: SessionUser | null; signOutAction: () => Promise<void> }) {
  return (
    <header className="relative border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-3 md:justify-start md:gap-6 sm:px-6">
        <Link prefetch={false} href="/" className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-900">
          <span aria-hidden="true" className="grid h-8 w-8 place-items-center rounded-lg bg-brand-600 text-sm font-bold text-white">
            A
          </span>
          Almanac
        </Link>
        <HeaderMenu>
          <nav aria-label="Main">
            <ul className="flex flex-col gap-1 text-base font-medium md:flex-row md:items-center md:text-sm">
              <li>
                <Link prefetch={false} href="/knowledge-bases" className={navLink}>
                  Knowledge bases
                </Link>
              </li>
              <li>
                <Link prefetch={false} href="/docs" className={navLink}>
                  API reference
                </Link>
              </li>
              <li>
                {/* For everyone: signed out, /publish sends to sign-in and comes back. */}
                <Link prefetch={false} href="/publish" className={navLink}>
                  Publish
                </Link>
              </li>
            </ul>
          </nav>
          <div className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-3 text-sm md:border-0 md:pt-0">
            {user ? (
              <>
                <span className="w-full truncate text-slate-700 md:hidden lg:inline lg:w-auto lg:max-w-[16rem]" title={user.email}>
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
        </HeaderMenu>
      </div>
    </header>
  );
}

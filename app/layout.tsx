import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { SiteFooter } from '@/components/site/site-footer';
import { SiteHeader } from '@/components/site/site-header';
import { SampleDataNotice } from '@/components/site/sample-data-notice';
import { getSessionUser, isEmailVerified } from '@/lib/accounts';
import { baseUrl } from '@/lib/platform/base-url';
import { getDb } from '@/lib/platform/db';
import { VerifyEmailBanner } from '@/components/site/verify-email-banner';
import { sampleDataNoticeShown } from '@/lib/seed';
import { signOutAction } from './(auth)/actions';
import { resendVerificationAction } from './account/settings/actions';
import './globals.css';

/** metadataBase: the social preview images (Open Graph) are absolute URLs on this deployment's public address. */
export function generateMetadata(): Metadata {
  return {
    metadataBase: new URL(baseUrl()),
    title: { default: 'Almanac — knowledge bases with a query API', template: '%s · Almanac' },
    description: 'Browse, buy and query curated knowledge bases in education, policy, health, research and law.',
  };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [user, sampleData] = await Promise.all([getSessionUser(), sampleDataNoticeShown()]);
  const unverified = user ? !(await isEmailVerified(await getDb(), user.id)) : false;
  return (
    <html lang="en">
      <body className="flex min-h-screen flex-col font-sans">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-white px-4 py-2 font-semibold text-brand-700 shadow focus:not-sr-only focus:absolute focus:left-4 focus:top-4"
        >
          Skip to content
        </a>
        <SiteHeader user={user} signOutAction={signOutAction} />
        {user && unverified ? <VerifyEmailBanner email={user.email} resendVerificationAction={resendVerificationAction} /> : null}
        {sampleData ? <SampleDataNotice /> : null}
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          {children}
        </main>
        <SiteFooter />
      </body>
    </html>
  );
}

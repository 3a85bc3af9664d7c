import type { Metadata } from 'next';
import Link from 'next/link';
import { publishFlash } from '@/components/publish/flash';
import { FlashMessage } from '@/components/ui/flash-message';
import { marketplacePaths, publishPaths } from '@/lib/site/paths';
import { ProfileForm } from '@/components/publish/profile-form';
import { ListingStatusBadge } from '@/components/publish/status-badge';
import { ButtonLink } from '@/components/ui/button';
import { formatDate, formatInteger } from '@/lib/platform/format';
import { Alert } from '@/components/ui/alert';
import { requireSessionUser } from '@/lib/accounts';
import { findPublisherForUser, listPublisherListings, PROFILE_LIMITS } from '@/lib/publishing';
import { getDb } from '@/lib/platform/db';
import { newFormToken } from '@/lib/platform/form-submissions';
import { createProfileAction } from './actions';

// The publisher console's overview (docs/api.md §9.1): the profile, or the offer to create one, and every listing.

export const metadata: Metadata = { title: 'Publisher console' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function PublishOverviewPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireSessionUser(publishPaths.overview);
  const flash = publishFlash.read((await searchParams).flash);
  const db = await getDb();
  const publisher = await findPublisherForUser(db, user.id);

  if (!publisher) {
    return (
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Become a publisher</h1>
        <p className="mt-2 max-w-2xl text-slate-700">
          List a knowledge base, price it, and let buyers query it with an API key. Start with a publisher profile: one per account.
        </p>
        <div className="mt-6">
          <FlashMessage message={flash} />
          <ProfileForm
            action={createProfileAction}
            formToken={newFormToken()}
            initial={{ name: user.name ?? '', slug: '', websiteUrl: '', bio: '', contactEmail: user.email }}
            submitLabel="Create publisher profile"
            limits={PROFILE_LIMITS}
          />
        </div>
      </div>
    );
  }

  const listings = await listPublisherListings(db, publisher.id);
  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Your listings</h1>
          <p className="mt-1 text-sm text-slate-700">
            Publishing as <span className="font-medium text-slate-900">{publisher.name}</span> ·{' '}
            <Link href={marketplacePaths.publisher(publisher.slug)} className="font-medium text-brand-700 underline underline-offset-2">
              public page
            </Link>
          </p>
        </div>
        <ButtonLink href={publishPaths.newListing}>New listing</ButtonLink>
      </div>
      <div className="mt-6">
        <FlashMessage message={flash} />
        {publisher.suspendedAt ? (
          <Alert tone="error" title="This publisher is suspended by the operator" className="mb-6">
            Your listings are out of the catalogue and their keys are refused. {publisher.suspensionReason ? `Reason: ${publisher.suspensionReason}` : ''}
          </Alert>
        ) : null}
      </div>
      {listings.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
          <p className="text-slate-700">You have no listings yet.</p>
          <ButtonLink href={publishPaths.newListing} className="mt-4">
            Create your first listing
          </ButtonLink>
        </div>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2" aria-label="Your listings">
          {listings.map((l) => (
            <li key={l.id} className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <ListingStatusBadge status={l.status} />
                <span className="text-xs text-slate-600">
                  Edited <time dateTime={l.updatedAt}>{formatDate(l.updatedAt)}</time>
                </span>
              </div>
              <h2 className="mt-3 text-base font-semibold text-slate-900">
                <Link href={publishPaths.listing(l.id)} className="underline-offset-2 hover:underline">
                  {l.title}
                </Link>
              </h2>
              <p className="mt-1 line-clamp-2 text-sm text-slate-700">{l.summary}</p>
              <dl className="mt-4 grid grid-cols-3 gap-2 border-t border-slate-100 pt-3 text-xs text-slate-600">
                <div>
                  <dt>Subscribers</dt>
                  <dd className="text-sm font-semibold text-slate-900">{formatInteger(l.subscribersCount)}</dd>
                </div>
                <div>
                  <dt>Active plans</dt>
                  <dd className="text-sm font-semibold text-slate-900">{formatInteger(l.activePlans)}</dd>
                </div>
                <div>
                  <dt>Backend</dt>
                  <dd className="text-sm font-semibold text-slate-900">{l.backendKind === 'hosted' ? `Hosted · ${l.documentsCount} docs` : 'Your endpoint'}</dd>
                </div>
              </dl>
              <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
                <Link href={publishPaths.plans(l.id)} className="font-medium text-brand-700 underline underline-offset-2">
                  Plans<span className="sr-only"> of {l.title}</span>
                </Link>
                <Link href={publishPaths.content(l.id)} className="font-medium text-brand-700 underline underline-offset-2">
                  Content<span className="sr-only"> of {l.title}</span>
                </Link>
                <Link href={publishPaths.listingAnalytics(l.id)} className="font-medium text-brand-700 underline underline-offset-2">
                  Analytics<span className="sr-only"> of {l.title}</span>
                </Link>
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { categoryLabel } from '@/components/marketplace/format';
import { publishPaths } from '@/lib/site/paths';
import { ListingForm } from '@/components/publish/listing-form';
import { NEW_LISTING_VALUES } from '@/components/publish/new-listing';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { requireSessionUser } from '@/lib/accounts';
import { CATEGORIES, listTagVocabulary } from '@/lib/catalog';
import { findPublisherForUser, LISTING_LIMITS } from '@/lib/publishing';
import { getDb } from '@/lib/platform/db';
import { newFormToken } from '@/lib/platform/form-submissions';
import { createListingAction } from '../../actions';

export const metadata: Metadata = { title: 'New listing' };

export default async function NewListingPage() {
  const user = await requireSessionUser(publishPaths.newListing);
  const db = await getDb();
  const publisher = await findPublisherForUser(db, user.id);
  if (!publisher) redirect(publishPaths.overview);
  const vocabulary = await listTagVocabulary(db);
  return (
    <div>
      <Breadcrumb items={[{ label: 'Your listings', href: publishPaths.overview }, { label: 'New listing' }]} />
      <h1 className="mt-3 text-2xl font-semibold tracking-tight text-slate-900">New listing</h1>
      <p className="mt-1 text-sm text-slate-700">It starts as a draft: nobody sees it until you add a plan and publish it.</p>
      <div className="mt-6">
        <ListingForm
          action={createListingAction}
          formToken={newFormToken()}
          publisherName={publisher.name}
          categories={CATEGORIES.map((c) => ({ value: c, label: categoryLabel(c) }))}
          knownTags={vocabulary.map((t) => t.tag)}
          limits={LISTING_LIMITS}
          initial={NEW_LISTING_VALUES}
          submitLabel="Create draft"
          updatedAt={new Date().toISOString()}
        />
      </div>
    </div>
  );
}

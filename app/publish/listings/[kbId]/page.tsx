import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { categoryLabel } from '@/components/marketplace/format';
import { publishFlash } from '@/components/publish/flash';
import { FlashMessage } from '@/components/ui/flash-message';
import { ListingNav } from '@/components/publish/listing-nav';
import { marketplacePaths, publishPaths } from '@/lib/site/paths';
import { ListingForm } from '@/components/publish/listing-form';
import { ListingStatusBadge } from '@/components/publish/status-badge';
import { Alert } from '@/components/ui/alert';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { SubmitButton } from '@/components/ui/submit-button';
import { requireSessionUser } from '@/lib/accounts';
import { CATEGORIES, listTagVocabulary } from '@/lib/catalog';
import { LISTING_LIMITS, listPlansForConsole, requireOwnedKnowledgeBase } from '@/lib/publishing';
import { getDb } from '@/lib/platform/db';
import { deleteDraftListingAction, publishListingAction, unpublishListingAction, updateListingAction } from '../../actions';

type Params = Promise<{ kbId: string }>;

const load = cache(async (kbId: string) => {
  const user = await requireSessionUser(publishPaths.listing(kbId));
  return requireOwnedKnowledgeBase(await getDb(), user.id, kbId);
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const owned = await load(decodeURIComponent((await params).kbId));
  return { title: owned.ok ? `Edit ${owned.kb.title}` : 'Listing not found' };
}

export default async function ListingEditorPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const kbId = decodeURIComponent((await params).kbId);
  const owned = await load(kbId);
  if (!owned.ok) notFound();
  const { kb, publisher } = owned;
  const db = await getDb();
  const [vocabulary, plans] = await Promise.all([listTagVocabulary(db), listPlansForConsole(db, kb.id)]);
  const activePlans = plans.filter((p) => p.active).length;
  const subscribers = plans.reduce((n, p) => n + p.subscribers, 0);
  // Unpublishing stops renewals at once: the publisher says so knowingly (a second click is no accident to undo).
  const unpublishWarning =
    subscribers === 0
      ? 'Unpublish this listing? It leaves the catalogue and cannot be bought until you publish it again.'
      : `Unpublish this listing? It leaves the catalogue. Its ${subscribers === 1 ? 'subscriber keeps' : `${subscribers} subscribers keep`} access until the end of their current period, and no subscription renews unless you publish it again before then.`;

  return (
    <div>
      <Breadcrumb items={[{ label: 'Your listings', href: publishPaths.overview }, { label: kb.title }]} />
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{kb.title}</h1>
        <ListingStatusBadge status={kb.status} />
      </div>
      <ListingNav kbId={kb.id} current="listing" />
      <div className="mt-6">
        <FlashMessage message={publishFlash.read((await searchParams).flash)} />
      </div>

      <section aria-labelledby="state-heading" className="mb-8 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="state-heading" className="text-lg font-semibold text-slate-900">
          Availability
        </h2>
        {kb.status === 'suspended' ? (
          <Alert tone="error" title="Suspended by the operator" className="mt-3">
            The listing is out of the catalogue and its keys are refused (403). {kb.suspensionReason ? `Reason: ${kb.suspensionReason}` : ''}
          </Alert>
        ) : kb.status === 'published' ? (
          <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-slate-700">
              In the catalogue and for sale.{' '}
              <Link href={marketplacePaths.knowledgeBase(kb.id)} className="font-medium text-brand-700 underline underline-offset-2">
                View its public page
              </Link>
            </p>
            <form action={unpublishListingAction}>
              <input type="hidden" name="kbId" value={kb.id} />
              <SubmitButton variant="secondary" pendingLabel="Unpublishing…" confirm={unpublishWarning}>
                Unpublish
              </SubmitButton>
            </form>
          </div>
        ) : (
          <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-slate-700">
              {kb.status === 'unpublished'
                ? 'Unpublished: not in the catalogue, not for sale; existing subscribers keep access until their period ends, and their subscriptions renew again if you publish before then.'
                : 'Draft: only you can see it.'}{' '}
              {activePlans === 0 ? (
                <>
                  Publishing needs at least one plan:{' '}
                  <Link href={publishPaths.plans(kb.id)} className="font-medium text-brand-700 underline underline-offset-2">
                    add a plan
                  </Link>
                  .
                </>
              ) : (
                `${activePlans} active plan${activePlans === 1 ? '' : 's'}.`
              )}
            </p>
            <div className="flex flex-wrap gap-2">
              <form action={publishListingAction}>
                <input type="hidden" name="kbId" value={kb.id} />
                <SubmitButton pendingLabel="Publishing…">Publish</SubmitButton>
              </form>
              {kb.status === 'draft' ? (
                <form action={deleteDraftListingAction}>
                  <input type="hidden" name="kbId" value={kb.id} />
                  <SubmitButton
                    variant="danger"
                    pendingLabel="Deleting…"
                    confirm={`Delete the draft “${kb.title}” with its plans and documents? This cannot be undone.`}
                  >
                    Delete draft
                  </SubmitButton>
                </form>
              ) : null}
            </div>
          </div>
        )}
      </section>

      <ListingForm
        action={updateListingAction}
        kbId={kb.id}
        publisherName={publisher.name}
        categories={CATEGORIES.map((c) => ({ value: c, label: categoryLabel(c) }))}
        knownTags={vocabulary.map((t) => t.tag)}
        limits={LISTING_LIMITS}
        initial={{
          title: kb.title,
          summary: kb.summary,
          description: kb.description,
          category: kb.category,
          tags: kb.tags.join(', '),
          language: kb.language,
          licence: kb.licence,
          sampleQuestions: kb.sampleQuestions.join('\n'),
          previewsEnabled: kb.previewsEnabled ? 'true' : 'false',
          backendKind: kb.backendKind,
        }}
        submitLabel="Save listing"
        updatedAt={kb.updatedAt.toISOString()}
      />
    </div>
  );
}

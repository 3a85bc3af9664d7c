import type { Metadata } from 'next';
import Link from 'next/link';
import { publishFlash } from '@/components/publish/flash';
import { FlashMessage } from '@/components/ui/flash-message';
import { ListingStatusBadge } from '@/components/publish/status-badge';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { plural } from '@/lib/platform/format';
import { SubmitButton } from '@/components/ui/submit-button';
import { requireAdmin } from '@/lib/accounts';
import { listPublishersForModeration } from '@/lib/publishing';
import { getDb } from '@/lib/platform/db';
import { restoreAction, suspendAction } from './actions';
import { marketplacePaths } from '@/lib/site/paths';

export const metadata: Metadata = { title: 'Listings and publishers' };
export const dynamic = 'force-dynamic';

/** Suspend or restore a listing or a whole publisher, with a reason that goes into the audit log (docs/api.md §9.1). */
export default async function AdminListingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireAdmin();
  const publishers = await listPublishersForModeration(await getDb());
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <Breadcrumb items={[{ label: 'Operator tools', href: '/admin' }, { label: 'Listings and publishers' }]} />
      <h1 className="mt-3 text-2xl font-semibold tracking-tight text-slate-900">Listings and publishers</h1>
      <p className="mt-1 max-w-3xl text-sm text-slate-700">
        A suspended listing leaves the catalogue and its keys answer 403 forbidden. Suspending a publisher suspends all its listings. Restoring returns each to
        the state it had. Every change is audited with its reason.
      </p>
      <div className="mt-6">
        <FlashMessage message={publishFlash.read((await searchParams).flash)} />
      </div>
      <ul className="grid gap-6" aria-label="Publishers">
        {publishers.map((p) => (
          <li key={p.id} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0">
                <h2 className="text-lg font-semibold text-slate-900">
                  <Link href={marketplacePaths.publisher(p.slug)} className="underline-offset-2 hover:underline">
                    {p.name}
                  </Link>{' '}
                  {p.suspended ? <ListingStatusBadge status="suspended" /> : null}
                </h2>
                <p className="break-words text-sm text-slate-700">
                  {p.contactEmail ? `Contact: ${p.contactEmail}` : 'No contact email'}
                  {p.ownerEmail ? ` · Account: ${p.ownerEmail}` : ' · Operator-managed'}
                </p>
                {p.suspensionReason ? <p className="text-sm text-red-800">Reason: {p.suspensionReason}</p> : null}
              </div>
              <ModerationForm target="publisher" id={p.id} name={p.name} suspended={p.suspended} />
            </div>
            {p.listings.length > 0 ? (
              <ul className="mt-4 divide-y divide-slate-100 border-t border-slate-100" aria-label={`Listings of ${p.name}`}>
                {p.listings.map((kb) => (
                  <li key={kb.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
                    <div className="min-w-0">
                      <p className="font-medium text-slate-900">
                        {kb.title} <ListingStatusBadge status={kb.status} />
                      </p>
                      <p className="text-xs text-slate-600">
                        <code>{kb.id}</code> · {plural(kb.subscribersCount, 'subscriber')}
                        {kb.suspensionReason ? ` · Reason: ${kb.suspensionReason}` : ''}
                        {kb.suspendedWithPublisher ? ' · suspended with its publisher' : ''}
                      </p>
                    </div>
                    {kb.suspendedWithPublisher ? null : <ModerationForm target="listing" id={kb.id} name={kb.title} suspended={kb.status === 'suspended'} />}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-3 text-sm text-slate-600">No listings.</p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ModerationForm({ target, id, name, suspended }: { target: 'listing' | 'publisher'; id: string; name: string; suspended: boolean }) {
  const fieldId = `reason-${target}-${id}`;
  return (
    <form action={suspended ? restoreAction : suspendAction} className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="target" value={target} />
      <input type="hidden" name="id" value={id} />
      <div>
        <label htmlFor={fieldId} className="block text-xs font-medium text-slate-700">
          Reason<span className="sr-only"> ({name})</span>
        </label>
        <input id={fieldId} name="reason" maxLength={500} required={!suspended} className="mt-0.5 w-48 rounded-md border border-slate-300 px-2 py-1 text-sm" />
      </div>
      <SubmitButton size="sm" variant={suspended ? 'secondary' : 'danger'} pendingLabel={suspended ? 'Restoring…' : 'Suspending…'}>
        {`${suspended ? 'Restore' : 'Suspend'} ${target}`}
      </SubmitButton>
    </form>
  );
}

import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AnalyticsPanel } from '@/components/publish/analytics-view';
import { publishPaths } from '@/lib/site/paths';
import { DataTable, type DataColumn } from '@/components/ui/data-table';
import { formatInteger } from '@/lib/platform/format';
import { Section } from '@/components/ui/section';
import { requireSessionUser } from '@/lib/accounts';
import { getDb } from '@/lib/platform/db';
import { analyticsMonths, getPublisherAnalytics, parseAnalyticsPeriod, type ListingOutcomes } from '@/lib/publishing';

// The publisher's analytics across all listings (docs/api.md §9.4); one listing's are under its own page.

export const metadata: Metadata = { title: 'Analytics · Publisher console' };

const PER_LISTING: DataColumn<ListingOutcomes>[] = [
  {
    header: 'Listing',
    cell: (kb) => (
      <Link href={publishPaths.listingAnalytics(kb.id)} className="font-medium text-brand-700 underline">
        {kb.title}
      </Link>
    ),
  },
  { header: 'Answered', cell: (kb) => formatInteger(kb.answered), numeric: true },
  { header: 'Abstained', cell: (kb) => formatInteger(kb.abstained), numeric: true },
  { header: 'Previews', cell: (kb) => formatInteger(kb.previews), numeric: true },
  { header: 'Refused', cell: (kb) => formatInteger(kb.refused), numeric: true },
  { header: 'Errors', cell: (kb) => formatInteger(kb.errors), numeric: true },
];

export default async function PublisherAnalyticsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireSessionUser(publishPaths.analytics);
  const period = parseAnalyticsPeriod(await searchParams);
  const result = await getPublisherAnalytics(await getDb(), user.id, { period });
  if (!result.ok) redirect(publishPaths.overview);
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Analytics</h1>
      <p className="mt-1 text-sm text-slate-700">All your listings together. Open a listing for its own figures.</p>
      <div className="mt-6">
        <AnalyticsPanel view={result.analytics} title="All listings" basePath={publishPaths.analytics} months={analyticsMonths(new Date())} />
      </div>
      <Section id="per-listing-heading" title="By listing" size="lg" className="mt-10">
        {result.perKnowledgeBase.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">No listings yet.</p>
        ) : (
          <DataTable caption="Queries by listing" columns={PER_LISTING} rows={result.perKnowledgeBase} rowKey={(kb) => kb.id} className="mt-3 max-w-3xl" />
        )}
      </Section>
    </div>
  );
}

import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AnalyticsPanel } from '@/components/publish/analytics-view';
import { publishPaths } from '@/components/publish/listing-nav';
import { formatInteger } from '@/components/ui/format';
import { Section } from '@/components/ui/section';
import { requireSessionUser } from '@/lib/accounts';
import { getDb } from '@/lib/platform/db';
import { analyticsDays, getPublisherAnalytics } from '@/lib/publishing';

export const metadata: Metadata = { title: 'Analytics · Publisher console' };

export default async function PublisherAnalyticsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireSessionUser(publishPaths.analytics);
  const days = analyticsDays((await searchParams).days);
  const result = await getPublisherAnalytics(await getDb(), user.id, { days });
  if (!result.ok) redirect(publishPaths.overview);
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Analytics</h1>
      <p className="mt-1 text-sm text-slate-700">All your listings together. Open a listing for its own figures.</p>
      <div className="mt-6">
        <AnalyticsPanel view={result.analytics} title="All listings" basePath={publishPaths.analytics} csvHref={`${publishPaths.analytics}/export?days=${days}`} />
      </div>
      <Section id="per-listing-heading" title="By listing" size="lg" className="mt-10">
        {result.perKnowledgeBase.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">No listings yet.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="mt-3 w-full max-w-3xl text-left text-sm">
              <thead>
                <tr className="border-b border-slate-200">
                  <th scope="col" className="py-2 pr-3 font-medium">Listing</th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">Answered</th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">Abstained</th>
                  <th scope="col" className="py-2 text-right font-medium">Errors</th>
                </tr>
              </thead>
              <tbody>
                {result.perKnowledgeBase.map((kb) => (
                  <tr key={kb.id} className="border-b border-slate-100">
                    <td className="py-2 pr-3">
                      <Link href={publishPaths.listingAnalytics(kb.id)} className="font-medium text-brand-700 underline">
                        {kb.title}
                      </Link>
                    </td>
                    <td className="py-2 pr-3 text-right tabular-nums">{formatInteger(kb.answered)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{formatInteger(kb.abstained)}</td>
                    <td className="py-2 text-right tabular-nums">{formatInteger(kb.errors)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </div>
  );
}

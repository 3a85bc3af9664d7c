import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { AnalyticsPanel } from '@/components/publish/analytics-view';
import { ListingNav } from '@/components/publish/listing-nav';
import { publishPaths } from '@/lib/site/paths';
import { Breadcrumb } from '@/components/ui/breadcrumb';
import { requireSessionUser } from '@/lib/accounts';
import { getDb } from '@/lib/platform/db';
import { analyticsMonths, getKnowledgeBaseAnalytics, parseAnalyticsPeriod, type AnalyticsPeriod } from '@/lib/publishing';

type Params = Promise<{ kbId: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

// `cache` compares arguments by identity: the period travels as its query string.
const load = cache(async (kbId: string, periodKey: string) => {
  const user = await requireSessionUser(publishPaths.listingAnalytics(kbId));
  const period = JSON.parse(periodKey) as AnalyticsPeriod;
  return getKnowledgeBaseAnalytics(await getDb(), user.id, kbId, { period });
});

export async function generateMetadata({ params, searchParams }: { params: Params; searchParams: Search }): Promise<Metadata> {
  const result = await load(decodeURIComponent((await params).kbId), JSON.stringify(parseAnalyticsPeriod(await searchParams)));
  return { title: result.ok ? `Analytics · ${result.kb.title}` : 'Listing not found' };
}

export default async function ListingAnalyticsPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const kbId = decodeURIComponent((await params).kbId);
  const result = await load(kbId, JSON.stringify(parseAnalyticsPeriod(await searchParams)));
  if (!result.ok) notFound();
  const path = publishPaths.listingAnalytics(result.kb.id);
  return (
    <div>
      <Breadcrumb
        items={[
          { label: 'Your listings', href: publishPaths.overview },
          { label: result.kb.title, href: publishPaths.listing(result.kb.id) },
          { label: 'Analytics' },
        ]}
      />
      <h1 className="mt-3 text-2xl font-semibold tracking-tight text-slate-900">Analytics · {result.kb.title}</h1>
      <ListingNav kbId={result.kb.id} current="analytics" />
      <div className="mt-6">
        <AnalyticsPanel view={result.analytics} title={result.kb.title} basePath={path} months={analyticsMonths(new Date())} />
      </div>
    </div>
  );
}

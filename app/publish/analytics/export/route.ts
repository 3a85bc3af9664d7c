import { denialResponse, withSessionRoute } from '@/lib/accounts';
import { getDb } from '@/lib/platform/db';
import { analyticsCsv, parseAnalyticsPeriod, getPublisherAnalytics } from '@/lib/publishing';
import { routeMethods } from '@/lib/platform/route-methods';

/** All of the publisher's listings' daily analytics together, as CSV. */
const exportCsv = withSessionRoute(async (request, { requestId, userId }) => {
  const search = new URL(request.url).searchParams;
  const period = parseAnalyticsPeriod({ days: search.get('days') ?? undefined, month: search.get('month') ?? undefined });
  const result = await getPublisherAnalytics(await getDb(), userId, { period });
  if (!result.ok) return denialResponse(result, requestId);
  return new Response(analyticsCsv(result.analytics, 'All listings'), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="almanac-analytics-${result.analytics.from}-${result.analytics.to}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: exportCsv });

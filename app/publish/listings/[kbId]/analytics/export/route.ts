import { denialResponse, withSessionRoute } from '@/lib/accounts';
import { getDb } from '@/lib/platform/db';
import { analyticsCsv, parseAnalyticsPeriod, getKnowledgeBaseAnalytics } from '@/lib/publishing';
import { routeMethods } from '@/lib/platform/route-methods';

/** The listing's daily analytics as CSV (the Export button). */
const exportCsv = withSessionRoute<{ kbId: string }>(async (request, { params, requestId, userId }) => {
  const search = new URL(request.url).searchParams;
  const period = parseAnalyticsPeriod({ days: search.get('days') ?? undefined, month: search.get('month') ?? undefined });
  const result = await getKnowledgeBaseAnalytics(await getDb(), userId, params.kbId, { period });
  if (!result.ok) return denialResponse(result, requestId);
  return new Response(analyticsCsv(result.analytics, result.kb.title), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="almanac-${result.kb.id}-${result.analytics.from}-${result.analytics.to}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: exportCsv });

import { checkHealth } from '@/lib/health';
import { jsonResponse, withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/**
 * GET /api/health — readiness: the app answers and the database is reachable (503 when it is not).
 * GET /api/health?probe=live — liveness only: no I/O at all (also the benchmark's framework floor).
 */
export const dynamic = 'force-dynamic';

const health = withApiRoute(async (request) => {
  const live = new URL(request.url).searchParams.get('probe') === 'live';
  if (live) return jsonResponse({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
  const health = await checkHealth();
  return jsonResponse(health, { status: health.status === 'ok' ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: health });

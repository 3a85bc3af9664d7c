import { checkHealth } from '@/lib/health';
import { jsonResponse, withApiRoute, methodNotAllowed } from '@/lib/platform/http';

/**
 * GET /api/health — readiness: the app answers and the database is reachable (503 when it is not).
 * GET /api/health?probe=live — liveness only: no I/O at all (also the benchmark's framework floor).
 */
export const dynamic = 'force-dynamic';

export const GET = withApiRoute(async (request) => {
  const live = new URL(request.url).searchParams.get('probe') === 'live';
  if (live) return jsonResponse({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
  const health = await checkHealth();
  return jsonResponse(health, { status: health.status === 'ok' ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
});

const notAllowed = methodNotAllowed(['GET']);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;

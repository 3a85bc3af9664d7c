import { livenessResponse, readinessResponse } from '@/lib/health';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/**
 * GET /api/health — readiness, as /api/health/ready (503 while the database or the job queue cannot be read).
 * GET /api/health?probe=live — liveness, as /api/health/live: no I/O at all (also the benchmark's framework floor).
 */
export const dynamic = 'force-dynamic';

const health = withApiRoute(async (request) => (new URL(request.url).searchParams.get('probe') === 'live' ? livenessResponse() : readinessResponse()));

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: health });

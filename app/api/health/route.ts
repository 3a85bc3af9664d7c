import { livenessResponse, readinessResponse } from '@/lib/health';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

// Readiness, or with `?probe=live` liveness without any I/O (docs/api.md §2.11).
export const dynamic = 'force-dynamic';

const health = withApiRoute(async (request) => (new URL(request.url).searchParams.get('probe') === 'live' ? livenessResponse() : readinessResponse()));

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: health });

import { livenessResponse } from '@/lib/health';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/** GET /api/health/live — liveness for orchestrators: always 200 while the process answers (docs/api.md §2.11). */
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: withApiRoute(async () => livenessResponse()) });

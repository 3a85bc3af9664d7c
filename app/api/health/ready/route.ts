import { readinessResponse } from '@/lib/health';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/** GET /api/health/ready — readiness for load balancers: database, job queue, limiter store (docs/api.md §2.11). */
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: withApiRoute(() => readinessResponse()) });

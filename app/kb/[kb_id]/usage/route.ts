import { handleUsageRequest, serveKeyed } from '@/lib/gateway';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/** GET /kb/{kb_id}/usage — where the key's subscription stands; never counted (docs/api.md §10.5). */
export const dynamic = 'force-dynamic';

const usage = withApiRoute<{ kb_id: string }>((request, { requestId, params }) => serveKeyed(request, params.kb_id, requestId, handleUsageRequest));

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: usage });

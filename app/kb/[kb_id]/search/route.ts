import { handleSearchRequest, serveKeyed } from '@/lib/gateway';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/** POST /kb/{kb_id}/search — passages only, metered like a query (docs/api.md §10.2). */
export const dynamic = 'force-dynamic';

const search = withApiRoute<{ kb_id: string }>((request, { requestId, params }) => serveKeyed(request, params.kb_id, requestId, handleSearchRequest));

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: search }, { bodyLimit: 'own' });

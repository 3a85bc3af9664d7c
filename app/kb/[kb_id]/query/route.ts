import { serveQueryRequest } from '@/lib/gateway';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/** POST /kb/{kb_id}/query — the keyed query gateway (docs/api.md §3). All checks live in lib/gateway/pipeline.ts. */
export const dynamic = 'force-dynamic';

const query = withApiRoute<{ kb_id: string }>((request, { requestId, params }) => serveQueryRequest(request, params.kb_id, requestId));

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: query }, { bodyLimit: 'own' });

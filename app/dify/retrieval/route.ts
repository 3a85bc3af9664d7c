import { difyReply, handleDifyRetrieval, toGatewayRequest } from '@/lib/gateway';
import { jsonResponse, withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/** POST /dify/retrieval — Dify's External Knowledge API over the search endpoint (docs/api.md §10.3). */
export const dynamic = 'force-dynamic';

const retrieval = withApiRoute(async (request, { requestId }) => {
  const keyed = toGatewayRequest(request, '', requestId);
  const reply = difyReply(await handleDifyRetrieval(keyed), requestId, keyed.authorization);
  return jsonResponse(reply.body, { status: reply.status, headers: reply.headers });
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: retrieval }, { bodyLimit: 'own' });

import { knowledgeBaseOfResourcePath, protectedResourceMetadata } from '@/lib/oauth';
import { errorResponse, jsonResponse, withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

// RFC 9728 protected-resource metadata (docs/api.md §10.7), for `…/kb/{kb_id}/mcp` and `…/kb/{kb_id}`.
export const dynamic = 'force-dynamic';

const metadata = withApiRoute<{ resource: string[] }>(async (_request, { requestId, params }) => {
  const path = `/${params.resource.map(encodeURIComponent).join('/')}`;
  if (knowledgeBaseOfResourcePath(path) === null) {
    return errorResponse('not_found', 'Protected resources are /kb/<kb_id>/mcp and /kb/<kb_id>.', requestId, {
      headers: { 'Access-Control-Allow-Origin': '*' },
    });
  }
  return jsonResponse(protectedResourceMetadata(path), { headers: { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=300' } });
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: metadata });

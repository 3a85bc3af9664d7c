import { knowledgeBaseOfResourcePath, protectedResourceMetadata } from '@/lib/oauth';
import { errorResponse, jsonResponse, withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/**
 * RFC 9728 metadata of a protected resource (docs/api.md §10.7): `/.well-known/oauth-protected-resource/kb/{kb_id}/mcp`
 * for the MCP endpoint and `…/kb/{kb_id}` for the REST faces; public, readable from any origin.
 */
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

import { serveMcpRequest } from '@/lib/gateway';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/** /kb/{kb_id}/mcp — the knowledge base as a remote MCP server over Streamable HTTP (docs/api.md §10.1). */
export const dynamic = 'force-dynamic';

const mcp = withApiRoute<{ kb_id: string }>((request, { requestId, params }) => serveMcpRequest(request, params.kb_id, requestId));

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: mcp, POST: mcp, DELETE: mcp });

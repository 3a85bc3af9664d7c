import { MAX_BODY_BYTES, serveMcpRequest } from '@/lib/gateway';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/** /kb/{kb_id}/mcp — the knowledge base as a remote MCP server over Streamable HTTP (docs/api.md §10.1). */
export const dynamic = 'force-dynamic';

const mcp = withApiRoute<{ kb_id: string }>((request, { requestId, params }) => serveMcpRequest(request, params.kb_id, requestId));

// POST only: a stateless server has no stream to offer on GET (the SDK's transport would open one and close it at
// once, and an MCP client reconnects to it every second) and no session to end on DELETE. A 405 is how the
// Streamable HTTP specification says so, and clients then carry on without a server stream. Its body is bounded as
// the fast lane bounds it (docs/api.md §3.9), before the key is checked.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: mcp }, { bodyLimit: MAX_BODY_BYTES });

import { keyedRoute } from '@/lib/gateway';

/** /kb/{kb_id}/mcp — the knowledge base as a remote MCP server over Streamable HTTP (docs/api.md §10.1). */
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = keyedRoute('mcp');

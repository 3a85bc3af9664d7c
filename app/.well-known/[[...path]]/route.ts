import { unknownPathMethods } from '@/lib/platform/route-methods';

/**
 * Any path under /.well-known that no other route serves: a JSON 404 `not_found` on every method, not Next's HTML
 * page, so that an OAuth or MCP client probing for metadata reads a clear answer (docs/api.md §7.1).
 */
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = unknownPathMethods();

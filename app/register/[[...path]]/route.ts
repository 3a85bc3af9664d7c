import { unknownPathMethods } from '@/lib/platform/route-methods';

/**
 * /register (and below it), where MCP clients of the 2025-03-26 revision look for dynamic client registration when a server
 * publishes no authorization metadata: a JSON 404 `not_found`, not Next's HTML page (docs/api.md §7.1).
 */
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = unknownPathMethods();

import { unknownPathMethods } from '@/lib/platform/route-methods';

// A client probing for metadata gets a JSON 404, not Next's HTML page (docs/api.md §7.1).
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = unknownPathMethods();

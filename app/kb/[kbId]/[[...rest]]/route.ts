import { unknownPathMethods } from '@/lib/platform/route-methods';

/** Any path here that no other route serves: a JSON 404 `not_found` on every method (docs/api.md §7.1). */
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = unknownPathMethods();

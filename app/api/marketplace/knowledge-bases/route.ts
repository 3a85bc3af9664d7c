import { catalogJson, catalogMethodNotAllowed, catalogPreflight, listKnowledgeBases, parseListingSearch, withCatalogHeaders } from '@/lib/catalog';
import { ApiError } from '@/lib/platform/errors';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/** Public listing of published knowledge bases (docs/api.md §2.1). Always rendered per request, never at build. */
export const dynamic = 'force-dynamic';

const listing = withCatalogHeaders(
  withApiRoute(async (request) => {
    const parsed = parseListingSearch(new URL(request.url).search);
    if (!parsed.ok) throw new ApiError('invalid_parameter', parsed.message);
    return catalogJson(await listKnowledgeBases(parsed.params));
  }),
);

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: listing, OPTIONS: withApiRoute(catalogPreflight()) }, catalogMethodNotAllowed);

import { listKnowledgeBases, parseListingParams } from '@/lib/catalog';
import { catalogJson, catalogMethodNotAllowed, catalogPreflight, withCatalogHeaders } from '@/lib/catalog';
import { ApiError } from '@/lib/platform/errors';
import { withApiRoute } from '@/lib/platform/http';

/** Public listing of published knowledge bases (docs/api.md §2.1). Always rendered per request, never at build. */
export const dynamic = 'force-dynamic';

export const GET = withCatalogHeaders(
  withApiRoute(async (request) => {
    const parsed = parseListingParams(new URL(request.url).searchParams);
    if (!parsed.ok) throw new ApiError('invalid_parameter', parsed.message);
    return catalogJson(await listKnowledgeBases(parsed.params));
  }),
);

export const OPTIONS = withApiRoute(catalogPreflight());
export const POST = catalogMethodNotAllowed();
export const PUT = catalogMethodNotAllowed();
export const PATCH = catalogMethodNotAllowed();
export const DELETE = catalogMethodNotAllowed();

import { catalogJson, withCatalogHeaders, withPublicEndpoint } from '@/lib/catalog';
import { baseUrl } from '@/lib/platform/base-url';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';
import { buildOpenApiDocument } from '@/lib/openapi';

/**
 * GET /api/openapi.json — the OpenAPI 3.1 document of the public API (lib/openapi/; docs/api.md §2.10). Public like
 * the catalogue: readable from any origin and under the same per-client limit (§2.8).
 */
export const dynamic = 'force-dynamic';

/** The document changes only with the base URL, so it is serialised once per base URL. */
let serialised: { base: string; body: string } | undefined;
function documentBody(): string {
  const base = baseUrl();
  if (serialised?.base !== base) serialised = { base, body: JSON.stringify(buildOpenApiDocument(base)) };
  return serialised.body;
}

const document = withCatalogHeaders(withApiRoute(withPublicEndpoint(async () => catalogJson(documentBody()))), { cacheControl: 'public, max-age=300' });

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: document });

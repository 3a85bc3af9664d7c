import { catalogJson, withCatalogHeaders, withPublicEndpoint } from '@/lib/catalog';
import { baseUrl } from '@/lib/platform/base-url';
import { withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';
import { buildOpenApiDocument } from '@/lib/openapi';

// The OpenAPI 3.1 document (docs/api.md §2.10): public like the catalogue, under the same per-client limit.
export const dynamic = 'force-dynamic';

/** The document changes only with the base URL. */
let serialised: { base: string; body: string } | undefined;
function documentBody(): string {
  const base = baseUrl();
  if (serialised?.base !== base) serialised = { base, body: JSON.stringify(buildOpenApiDocument(base)) };
  return serialised.body;
}

const document = withCatalogHeaders(withApiRoute(withPublicEndpoint(async () => catalogJson(documentBody()))), { cacheControl: 'public, max-age=300' });

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: document });

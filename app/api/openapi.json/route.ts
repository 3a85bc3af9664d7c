import { jsonResponse, withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';
import { buildOpenApiDocument } from '@/lib/openapi';

/** GET /api/openapi.json — the OpenAPI 3.1 document of the public API (lib/openapi.ts). */
export const dynamic = 'force-dynamic';

const document = withApiRoute(async () =>
  jsonResponse(buildOpenApiDocument(), { headers: { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' } }),
);

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: document });

import { jsonResponse, methodNotAllowed, withApiRoute } from '@/lib/platform/http';
import { buildOpenApiDocument } from '@/lib/openapi';

/** GET /api/openapi.json — the OpenAPI 3.1 document of the public API (lib/openapi.ts). */
export const dynamic = 'force-dynamic';

export const GET = withApiRoute(async () =>
  jsonResponse(buildOpenApiDocument(), { headers: { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' } }),
);

const notAllowed = methodNotAllowed(['GET']);
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;

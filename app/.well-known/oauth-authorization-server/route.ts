import { authorizationServerMetadata } from '@/lib/oauth';
import { jsonResponse, withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/** RFC 8414 metadata of Almanac's authorization server (docs/api.md §10.7); public, readable from any origin. */
export const dynamic = 'force-dynamic';

const metadata = withApiRoute(async () =>
  jsonResponse(authorizationServerMetadata(), { headers: { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=300' } }),
);

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: metadata });

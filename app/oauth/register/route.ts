import { registerClient } from '@/lib/oauth';
import { getDb } from '@/lib/platform/db';
import { jsonResponse, withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

/** RFC 7591 dynamic client registration (docs/api.md §10.7): public clients, exact redirect URIs. */
export const dynamic = 'force-dynamic';

const NO_STORE = { 'Cache-Control': 'no-store' };

const register = withApiRoute(async (request) => {
  let metadata: unknown;
  try {
    metadata = await request.json();
  } catch {
    return jsonResponse(
      { error: 'invalid_client_metadata', error_description: 'The body must be a JSON object of client metadata.' },
      { status: 400, headers: NO_STORE },
    );
  }
  const result = await registerClient(await getDb(), metadata);
  if (!result.ok) return jsonResponse({ error: result.error, error_description: result.description }, { status: 400, headers: NO_STORE });
  return jsonResponse(result.client, { status: 201, headers: NO_STORE });
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: register });

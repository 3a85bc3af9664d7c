import { exchangeCode, refreshTokens } from '@/lib/oauth';
import { getDb } from '@/lib/platform/db';
import { jsonResponse, withApiRoute } from '@/lib/platform/http';
import { routeMethods } from '@/lib/platform/route-methods';

// The token endpoint (docs/api.md §10.7). Errors are OAuth's `{error, error_description}`, not Almanac's error body.
export const dynamic = 'force-dynamic';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
const oauthError = (error: string, description: string) => jsonResponse({ error, error_description: description }, { status: 400, headers: NO_STORE });

const token = withApiRoute(async (request) => {
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return oauthError('invalid_request', 'Send the token request as application/x-www-form-urlencoded.');
  }
  const form = new URLSearchParams(await request.text());
  const clientId = form.get('client_id') ?? '';
  const resource = form.get('resource');
  const db = await getDb();
  let result;
  switch (form.get('grant_type')) {
    case 'authorization_code':
      result = await exchangeCode(db, {
        code: form.get('code') ?? '',
        clientId,
        redirectUri: form.get('redirect_uri') ?? '',
        codeVerifier: form.get('code_verifier') ?? '',
        resource,
      });
      break;
    case 'refresh_token':
      result = await refreshTokens(db, { refreshToken: form.get('refresh_token') ?? '', clientId, resource });
      break;
    default:
      return oauthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
  }
  if (!result.ok) return oauthError(result.error, result.description);
  return jsonResponse(result.tokens, { headers: NO_STORE });
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: token });

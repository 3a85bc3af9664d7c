import { siteUrl } from '@/lib/platform/base-url';
import { OAUTH_SCOPE } from './tokens';

/**
 * Discovery (docs/api.md §10.7): RFC 8414 metadata of the authorization server (Almanac itself, its base URL the
 * issuer) and RFC 9728 metadata of each protected resource: a knowledge base's MCP endpoint and its REST faces.
 */
export function authorizationServerMetadata(): Record<string, unknown> {
  return {
    issuer: siteUrl('/').replace(/\/$/, ''),
    authorization_endpoint: siteUrl('/oauth/authorize'),
    token_endpoint: siteUrl('/oauth/token'),
    registration_endpoint: siteUrl('/oauth/register'),
    scopes_supported: [OAUTH_SCOPE],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  };
}

const RESOURCE_PATH = /^\/kb\/([^/]+)(\/mcp)?$/;

export function knowledgeBaseOfResourcePath(path: string): string | null {
  const match = RESOURCE_PATH.exec(path);
  return match ? decodeURIComponent(match[1]!) : null;
}

/** The knowledge base a `resource` URL (RFC 8707) names on this site, or null. */
export function knowledgeBaseOfResource(resource: string): string | null {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return null;
  }
  if (url.origin !== new URL(siteUrl('/')).origin || url.search || url.hash) return null;
  return knowledgeBaseOfResourcePath(url.pathname);
}

function protectedResourceMetadataUrl(resourcePath: string): string {
  return siteUrl(`/.well-known/oauth-protected-resource${resourcePath}`);
}

export function protectedResourceMetadata(resourcePath: string): Record<string, unknown> {
  return {
    resource: siteUrl(resourcePath),
    authorization_servers: [siteUrl('/').replace(/\/$/, '')],
    scopes_supported: [OAUTH_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'Almanac knowledge base',
  };
}

/** The challenge of a 401 on a protected resource (RFC 9728 §5.1, RFC 6750 §3). */
export function bearerChallenge(resourcePath: string, tokenSent: boolean): string {
  return `Bearer realm="almanac", resource_metadata="${protectedResourceMetadataUrl(resourcePath)}", scope="${OAUTH_SCOPE}"${tokenSent ? ', error="invalid_token"' : ''}`;
}

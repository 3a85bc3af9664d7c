import { getEnv } from '@/lib/platform/env';
/** Building blocks of the OpenAPI document (lib/openapi/index.ts): references, error bodies, header sets. */
export type Json = Record<string, unknown>;

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

export function errorSchema(codes: string[], extras: Json = {}, requiredExtras: string[] = []): Json {
  return {
    type: 'object',
    required: ['error', 'message', 'request_id', ...requiredExtras],
    properties: {
      error: codes.length === 1 ? { type: 'string', const: codes[0] } : { type: 'string', enum: codes },
      message: { type: 'string', minLength: 1 },
      request_id: { type: 'string', pattern: '^req_[0-9A-Za-z]+$' },
      ...extras,
    },
    additionalProperties: false,
  };
}

export const json = (schema: Json) => ({ 'application/json': { schema } });

const RATE_HEADERS = {
  'X-Request-Id': headerRef('XRequestId'),
  'X-RateLimit-Limit': headerRef('XRateLimitLimit'),
  'X-RateLimit-Remaining': headerRef('XRateLimitRemaining'),
  'X-RateLimit-Reset': headerRef('XRateLimitReset'),
};
const USAGE_HEADERS = {
  'X-Usage-Used': headerRef('XUsageUsed'),
  'X-Usage-Cap': headerRef('XUsageCap'),
  'X-Usage-Remaining': headerRef('XUsageRemaining'),
};
export const KEYED_HEADERS = { ...RATE_HEADERS, ...USAGE_HEADERS };
export const ID_ONLY = { 'X-Request-Id': headerRef('XRequestId') };
/**
 * Every catalogue answer: CORS, and the per-client limit's state (docs/api.md §2.8), which is present only where the
 * server knows the client's address (`npm start`), hence not required.
 */
export const CATALOG_HEADERS = {
  ...ID_ONLY,
  'Access-Control-Allow-Origin': headerRef('CorsAny'),
  'X-RateLimit-Limit': headerRef('PublicRateLimitLimit'),
  'X-RateLimit-Remaining': headerRef('PublicRateLimitRemaining'),
  'X-RateLimit-Reset': headerRef('PublicRateLimitReset'),
};

/** The catalogue's answers to load: the per-client limit (429) and a full load queue (503); neither is cached. */
export const catalogLoadResponses = () => ({
  '429': {
    // The limit this deployment applies, named so that the /docs page can say it without the variable's name.
    description: `This client address made more than PUBLIC_RATE_LIMIT_PER_MINUTE requests (${getEnv().PUBLIC_RATE_LIMIT_PER_MINUTE}) to the public endpoints in the last minute`,
    headers: {
      ...CATALOG_HEADERS,
      'X-RateLimit-Limit': headerRef('XRateLimitLimit'),
      'X-RateLimit-Remaining': headerRef('XRateLimitRemaining'),
      'X-RateLimit-Reset': headerRef('XRateLimitReset'),
      'Retry-After': headerRef('RetryAfterRequired'),
    },
    content: json(ref('RateLimitError')),
  },
  '503': {
    description: 'Too many catalogue loads are waiting for the database; retry after a second',
    headers: { ...CATALOG_HEADERS, 'Retry-After': headerRef('RetryAfterRequired') },
    content: json(ref('ServiceUnavailableError')),
  },
});

/** The catalogue answers CORS preflights (204) so that browsers may GET it from any origin. */
export function catalogPreflight(operationId: string): Json {
  return {
    tags: ['catalogue'],
    operationId: `${operationId}_preflight`,
    summary: 'CORS preflight',
    security: [],
    responses: {
      '204': { description: 'Any origin may GET', headers: { 'Access-Control-Allow-Origin': headerRef('CorsAny'), Allow: headerRef('AllowCatalog') } },
    },
  };
}

export const intHeader = (description: string) => ({ description, required: true, schema: { type: 'string', pattern: '^[0-9]+$' } });

/** A refusal that may come before the key is looked at (a body read first, an Origin check): X-RateLimit-* only once it is. */
export const KEY_IF_KNOWN_HEADERS = {
  ...ID_ONLY,
  'X-RateLimit-Limit': {
    ...intHeader('Requests allowed per minute for this key; absent when the request was refused before the key was looked at.'),
    required: false,
  },
  'X-RateLimit-Remaining': { ...intHeader('Requests left in the current sliding window (where X-RateLimit-Limit is sent).'), required: false },
  'X-RateLimit-Reset': { ...intHeader('Unix time (seconds) when the next request slot frees (where X-RateLimit-Limit is sent).'), required: false },
  ...USAGE_HEADERS,
};

/** Rows 1–3 of docs/api.md §3.2, answered alike by every keyed endpoint: no usable key, a key that may not ask, no such knowledge base. */
export const keyAccessErrors = (): Json => ({
  '401': {
    description: 'No key, or a key that is malformed or unknown',
    headers: { ...ID_ONLY, 'WWW-Authenticate': headerRef('WwwAuthenticate') },
    content: json(ref('AuthenticationError')),
  },
  '403': {
    description: 'Key revoked, issued for another knowledge base, subscription not active or knowledge base suspended',
    headers: KEYED_HEADERS,
    content: json(ref('ForbiddenError')),
  },
  '404': { description: 'No published knowledge base has this id', headers: KEYED_HEADERS, content: json(ref('KnowledgeBaseNotFoundError')) },
});

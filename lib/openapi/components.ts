import { CATEGORIES } from '@/lib/catalog';
import { MAX_QUERY_CHARS } from '@/lib/gateway';
import { errorSchema, intHeader, ref, type Json } from './shared';

/** The OpenAPI document's components: the security scheme, the headers and every schema. */
const listingItem = {
  type: 'object',
  required: ['id', 'title', 'publisher', 'summary', 'category', 'tags', 'subscribersCount', 'queryVolume', 'updatedAt'],
  properties: {
    id: { type: 'string', pattern: '^kb_' },
    title: { type: 'string' },
    publisher: { type: 'string', description: 'The publisher’s display name.' },
    summary: { type: 'string' },
    category: ref('Category'),
    tags: { type: 'array', items: { type: 'string' } },
    subscribersCount: { type: 'integer', minimum: 0, description: 'Subscriptions active now.' },
    queryVolume: { type: 'integer', minimum: 0, description: 'Successful (200) queries ever.' },
    updatedAt: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC, e.g. 2026-01-31T12:00:00.000Z' },
  },
  additionalProperties: false,
};

export function openApiComponents(): Json {
  return {
    securitySchemes: {
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'alm_sk_live_<32 base62><6 base62 checksum>',
        description: 'The key issued with the subscription: "Authorization: Bearer alm_sk_live_…" (scheme case-insensitive).',
      },
      oauth: {
        type: 'oauth2',
        description:
          'OAuth 2.1 for agent platforms (docs/api.md §10.7): authorization code with PKCE S256, the resource parameter naming <base>/kb/<kb_id>/mcp or <base>/kb/<kb_id>; ' +
          'clients register at /oauth/register (RFC 7591); metadata at /.well-known/oauth-authorization-server and /.well-known/oauth-protected-resource/kb/<kb_id>/mcp. ' +
          'The access token ("Bearer alm_at_…", one hour) acts as a key of the subscription the buyer chose.',
        flows: {
          authorizationCode: {
            authorizationUrl: '/oauth/authorize',
            tokenUrl: '/oauth/token',
            refreshUrl: '/oauth/token',
            scopes: { 'kb:query': 'Query one knowledge base under one of your subscriptions, metered like its key.' },
          },
        },
      },
    },
    headers: {
      XRequestId: { description: 'Correlation id of this request (quote it to support).', required: true, schema: { type: 'string', pattern: '^req_' } },
      WwwAuthenticate: {
        description: 'The scheme to authenticate with (RFC 6750); error="invalid_token" when the key sent is malformed or unknown.',
        required: true,
        schema: { type: 'string', enum: ['Bearer realm="almanac"', 'Bearer realm="almanac", error="invalid_token"'] },
      },
      McpWwwAuthenticate: {
        description: 'The scheme, and where the resource’s OAuth metadata is (RFC 9728): agent platforms sign in from there; error="invalid_token" when the key or token sent is malformed, unknown, expired or revoked.',
        required: true,
        schema: { type: 'string', pattern: '^Bearer realm="almanac", resource_metadata="[^"]+/\\.well-known/oauth-protected-resource/kb/[^"]+/mcp", scope="kb:query"(, error="invalid_token")?$' },
      },
      XRateLimitLimit: intHeader('Requests allowed per minute: for this key (query), or for this client address (the public endpoints).'),
      XRateLimitRemaining: intHeader('Requests left in the current sliding window.'),
      XRateLimitReset: intHeader('Unix time (seconds) when the next request slot frees.'),
      // Not required: a streamed answer learns its count only at the end (it is in the `done` event, docs/api.md §10.4),
      // and a request refused while its body is read (400, 413) is answered before the usage is looked up.
      XUsageUsed: { ...intHeader('Queries used in the current billing period, after counting this request. Absent on a streamed answer (see its done event) and on a body refused as it is read.'), required: false },
      XUsageCap: { ...intHeader('Queries included in the current billing period (absent where X-Usage-Used is).'), required: false },
      XUsageRemaining: { ...intHeader('Queries left in the current billing period (absent where X-Usage-Used is).'), required: false },
      IdempotentReplayed: { description: '"true" when this is the stored answer of an earlier request with the same Idempotency-Key.', required: false, schema: { type: 'string', const: 'true' } },
      PublicRateLimitLimit: { description: 'Requests this client address may make to the public endpoints per minute (when the server knows the address).', required: false, schema: { type: 'string', pattern: '^[0-9]+$' } },
      PublicRateLimitRemaining: { description: 'Requests left to this client address in the current sliding window.', required: false, schema: { type: 'string', pattern: '^[0-9]+$' } },
      PublicRateLimitReset: { description: 'Unix time (seconds) when the next request slot of this client address frees.', required: false, schema: { type: 'string', pattern: '^[0-9]+$' } },
      RetryAfterRequired: { description: 'Whole seconds (≥ 1) to wait before retrying.', required: true, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
      RetryAfter: { description: 'Whole seconds (≥ 1) to wait: rate_limit_exceeded and idempotency_key_in_progress.', required: false, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
      AllowCatalogue: { description: 'Methods the catalogue serves.', required: true, schema: { type: 'string', const: 'GET, HEAD, OPTIONS' } },
      CorsAny: { description: 'The catalogue is public.', required: true, schema: { type: 'string', const: '*' } },
      PublicCache: { description: 'public, max-age=30, stale-while-revalidate=300', required: true, schema: { type: 'string' } },
      DocumentCache: { description: 'public, max-age=300', required: true, schema: { type: 'string', const: 'public, max-age=300' } },
      NoStore: { description: 'Never cached.', required: true, schema: { type: 'string', const: 'no-store' } },
    },
    schemas: {
      Category: { type: 'string', enum: [...CATEGORIES] },
      KnowledgeBaseListItem: listingItem,
      KnowledgeBaseList: {
        type: 'object',
        required: ['items', 'total', 'page', 'pageSize', 'totalPages'],
        properties: {
          items: { type: 'array', items: ref('KnowledgeBaseListItem') },
          total: { type: 'integer', minimum: 0 },
          page: { type: 'integer', minimum: 1 },
          pageSize: { type: 'integer', minimum: 1, maximum: 50 },
          totalPages: { type: 'integer', minimum: 0, description: 'ceil(total / pageSize); 0 when nothing matches.' },
        },
        additionalProperties: false,
      },
      Plan: {
        type: 'object',
        required: ['id', 'name', 'priceCents', 'currency', 'queriesPerPeriod', 'requestsPerMinute'],
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          priceCents: { type: 'integer', minimum: 0 },
          currency: { type: 'string' },
          queriesPerPeriod: { type: 'integer', minimum: 0 },
          requestsPerMinute: { type: 'integer', minimum: 1 },
        },
        additionalProperties: false,
      },
      KnowledgeBaseDetail: {
        description: 'The nine listing fields plus description, plans, document count, language, licence and sample questions.',
        type: 'object',
        required: [...(listingItem.required as string[]), 'description', 'plans', 'documentsCount', 'language', 'licence', 'sampleQuestions'],
        properties: {
          ...(listingItem.properties as Json),
          description: { type: 'string' },
          plans: { type: 'array', items: ref('Plan') },
          documentsCount: { type: 'integer', minimum: 0 },
          language: { type: 'string' },
          licence: { type: 'string' },
          sampleQuestions: { type: 'array', items: { type: 'string' } },
        },
        additionalProperties: false,
      },
      QueryRequest: {
        type: 'object',
        required: ['query'],
        properties: { query: { type: 'string', minLength: 1, maxLength: MAX_QUERY_CHARS, description: `Trimmed; not blank; at most ${MAX_QUERY_CHARS} characters.` } },
      },
      Citation: {
        type: 'object',
        required: ['document_id', 'title', 'excerpt', 'page'],
        properties: {
          document_id: { type: 'string', minLength: 1 },
          title: { type: 'string' },
          excerpt: { type: 'string' },
          page: { type: ['integer', 'null'], minimum: 1, description: '1-based page where the source has pages; null where it has none.' },
        },
        additionalProperties: false,
      },
      QueryAnswer: {
        type: 'object',
        required: ['answer', 'citations', 'tokens_used'],
        properties: {
          answer: { type: 'string' },
          citations: { type: 'array', items: ref('Citation') },
          tokens_used: { type: 'integer', minimum: 0 },
        },
        additionalProperties: false,
      },
      SearchRequest: {
        type: 'object',
        required: ['query'],
        properties: {
          query: { type: 'string', minLength: 1, maxLength: MAX_QUERY_CHARS },
          top_k: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
        },
      },
      SearchResult: {
        type: 'object',
        required: ['document_id', 'title', 'excerpt', 'page', 'score'],
        properties: {
          document_id: { type: 'string', minLength: 1 },
          title: { type: 'string' },
          excerpt: { type: 'string' },
          page: { type: ['integer', 'null'], minimum: 1 },
          score: { type: 'number', exclusiveMinimum: 0, maximum: 1, description: 'The first passage scores 1; the others in proportion to their ranking score, never above the passage before them.' },
        },
        additionalProperties: false,
      },
      SearchResults: {
        type: 'object',
        required: ['results'],
        properties: { results: { type: 'array', items: ref('SearchResult'), maxItems: 20 } },
        additionalProperties: false,
      },
      UsageReport: {
        type: 'object',
        required: ['used', 'cap', 'remaining', 'resets_at', 'rate_limit'],
        properties: {
          used: { type: 'integer', minimum: 0 },
          cap: { type: 'integer', minimum: 0 },
          remaining: { type: 'integer', minimum: 0 },
          resets_at: { type: 'string', format: 'date-time' },
          rate_limit: {
            type: 'object',
            required: ['limit', 'remaining', 'reset'],
            properties: { limit: { type: 'integer', minimum: 1 }, remaining: { type: 'integer', minimum: 0 }, reset: { type: 'integer', description: 'Unix seconds.' } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
      DifyRetrievalRequest: {
        type: 'object',
        required: ['knowledge_id', 'query'],
        properties: {
          knowledge_id: { type: 'string', minLength: 1, description: 'The knowledge base id.' },
          query: { type: 'string', minLength: 1, maxLength: MAX_QUERY_CHARS },
          retrieval_setting: {
            type: 'object',
            properties: { top_k: { type: 'integer', minimum: 1, maximum: 20 }, score_threshold: { type: 'number', minimum: 0, maximum: 1 } },
          },
          metadata_condition: { type: 'object', description: 'Accepted and ignored: Almanac keeps no document metadata to filter on.' },
        },
      },
      DifyRecords: {
        type: 'object',
        required: ['records'],
        properties: {
          records: {
            type: 'array',
            items: {
              type: 'object',
              required: ['content', 'score', 'title', 'metadata'],
              properties: {
                content: { type: 'string' },
                score: { type: 'number', minimum: 0, maximum: 1 },
                title: { type: 'string' },
                metadata: {
                  type: 'object',
                  required: ['document_id', 'page'],
                  properties: { document_id: { type: 'string' }, page: { type: ['integer', 'null'] } },
                },
              },
            },
          },
        },
      },
      InvalidParameterError: errorSchema(['invalid_parameter']),
      InvalidQueryError: errorSchema(['invalid_query']),
      InvalidRequestError: errorSchema(['invalid_request']),
      IdempotencyInProgressError: errorSchema(['idempotency_key_in_progress']),
      IdempotencyReusedError: errorSchema(['idempotency_key_reused']),
      AuthenticationError: errorSchema(['missing_api_key', 'invalid_api_key']),
      ForbiddenError: errorSchema(['key_revoked', 'key_scope_mismatch', 'forbidden']),
      KnowledgeBaseNotFoundError: errorSchema(['knowledge_base_not_found']),
      MethodNotAllowedError: errorSchema(['method_not_allowed']),
      PayloadTooLargeError: errorSchema(['payload_too_large']),
      RateLimitError: errorSchema(['rate_limit_exceeded'], { retry_after: { type: 'integer', minimum: 1 } }, ['retry_after']),
      QueryCapError: errorSchema(
        ['query_cap_exceeded'],
        {
          usage: {
            type: 'object',
            required: ['used', 'cap'],
            properties: { used: { type: 'integer', minimum: 0 }, cap: { type: 'integer', minimum: 0 } },
            additionalProperties: false,
          },
          resets_at: { type: 'string', format: 'date-time', description: 'When the next billing period starts.' },
          upgrade_url: { type: 'string', format: 'uri', description: 'The dashboard page of this subscription.' },
        },
        ['usage', 'resets_at', 'upgrade_url'],
      ),
      PublisherError: errorSchema(['publisher_error']),
      PublisherTimeoutError: errorSchema(['publisher_timeout']),
      ServiceUnavailableError: errorSchema(['service_unavailable']),
      InternalError: errorSchema(['internal_error']),
      Health: {
        type: 'object',
        required: ['status', 'database', 'rateLimiter', 'rateLimiterReachable', 'queue'],
        properties: {
          status: { type: 'string', enum: ['ok', 'degraded'] },
          database: {
            type: 'object',
            required: ['ok'],
            properties: { ok: { type: 'boolean' }, kind: { type: 'string', enum: ['pglite', 'postgres'] }, latencyMs: { type: 'integer', minimum: 0 } },
            additionalProperties: false,
          },
          rateLimiter: { type: 'string', enum: ['memory', 'redis', 'upstash'] },
          rateLimiterReachable: {
            type: 'boolean',
            description: 'False while the limiter store (Redis, Upstash) cannot be reached: every rate limit then passes until it is back.',
          },
          queue: {
            type: 'object',
            required: ['ok'],
            description: 'The background job queue (a table of the same database): whether it can be read, and its jobs waiting or running.',
            properties: { ok: { type: 'boolean' }, depth: { type: 'integer', minimum: 0 } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
      Liveness: {
        type: 'object',
        required: ['status'],
        properties: { status: { type: 'string', const: 'ok' } },
        additionalProperties: false,
      },
    },
  };
}

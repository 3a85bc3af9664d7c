import { z } from 'zod';
import {
  CATALOG_CACHE_CONTROL,
  categorySchema,
  knowledgeBaseDetailSchema,
  knowledgeBaseListItemSchema,
  knowledgeBaseListSchema,
  listingParametersSchema,
  planSchema,
} from '@/lib/catalog';
import {
  difyRecordsSchema,
  difyRetrievalRequestSchema,
  queryRequestSchema,
  searchRequestSchema,
  searchResultSchema,
  searchResultsSchema,
  usageReportSchema,
} from '@/lib/gateway';
import { citationSchema, queryAnswerSchema } from '@/lib/query-answer';
import { errorSchema, intHeader, type Json } from './shared';

/**
 * The OpenAPI document's components: the security scheme, the headers and every schema. The schemas of the public
 * inputs and outputs are generated from the zod schemas the server parses and answers with, so a limit is stated once.
 */

/** Named zod schemas as components; a named schema used inside another becomes a $ref to it. */
function fromZod(io: 'input' | 'output', named: Record<string, z.ZodType>): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, uri: (id) => `#/components/schemas/${id}` });
  // Each component is a schema of the document's dialect (jsonSchemaDialect), not a resource of its own.
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, withoutImplicitBounds(schema) as Json]));
}

export function jsonSchemaOf(io: 'input' | 'output', schema: z.ZodType): Json {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io });
  return withoutImplicitBounds(json) as Json;
}

/**
 * zod bounds every integer by ±(2^53 − 1), JavaScript's safe range; a client in another language reads those as
 * limits of the API, which they are not, so they are left out (a stated bound of the API is kept). Likewise an open
 * object's `additionalProperties: {}`.
 */
function withoutImplicitBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutImplicitBounds);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node).filter(
    ([key, value]) =>
      !((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) &&
      // An object open to other members is what JSON Schema means by default; `{}` only clutters generated clients.
      !(key === 'additionalProperties' && typeof value === 'object' && value !== null && Object.keys(value).length === 0),
  );
  return Object.fromEntries(entries.map(([key, value]) => [key, withoutImplicitBounds(value)]));
}

/** The listing's query parameters, from the zod schema of what a client sends (each description on its parameter). */
export function listingParameters(): Json[] {
  const { properties } = jsonSchemaOf('input', listingParametersSchema) as { properties: Record<string, Json> };
  return Object.entries(properties).map(([name, { description, ...schema }]) => ({
    name,
    in: 'query',
    // tags=a&tags=b (the other two spellings are in the description)
    ...(schema.type === 'array' ? { style: 'form', explode: true } : {}),
    schema,
    ...(description === undefined ? {} : { description }),
  }));
}

/** Requests are described as clients send them: a field with a default may be left out. */
const requestSchemas = () =>
  fromZod('input', { QueryRequest: queryRequestSchema, SearchRequest: searchRequestSchema, DifyRetrievalRequest: difyRetrievalRequestSchema });

const responseSchemas = () =>
  fromZod('output', {
    Category: categorySchema,
    KnowledgeBaseListItem: knowledgeBaseListItemSchema,
    KnowledgeBaseList: knowledgeBaseListSchema,
    Plan: planSchema,
    KnowledgeBaseDetail: knowledgeBaseDetailSchema,
    Citation: citationSchema,
    QueryAnswer: queryAnswerSchema,
    SearchResult: searchResultSchema,
    SearchResults: searchResultsSchema,
    UsageReport: usageReportSchema,
    DifyRecords: difyRecordsSchema,
  });

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
        description:
          'The scheme, and where the resource’s OAuth metadata is (RFC 9728): agent platforms sign in from there; error="invalid_token" when the key or token sent is malformed, unknown, expired or revoked.',
        required: true,
        schema: {
          type: 'string',
          pattern:
            '^Bearer realm="almanac", resource_metadata="[^"]+/\\.well-known/oauth-protected-resource/kb/[^"]+/mcp", scope="kb:query"(, error="invalid_token")?$',
        },
      },
      XRateLimitLimit: intHeader('Requests allowed per minute: for this key (query), or for this client address (the public endpoints).'),
      XRateLimitRemaining: intHeader('Requests left in the current sliding window.'),
      XRateLimitReset: intHeader('Unix time (seconds) when the next request slot frees.'),
      // Not required: a streamed answer learns its count only at the end (it is in the `done` event, §10.4),
      // and a request refused while its body is read (400, 413) is answered before the usage is looked up.
      XUsageUsed: {
        ...intHeader(
          'Queries used in the current billing period, after counting this request. Absent on a streamed answer (see its done event) and on a body refused as it is read.',
        ),
        required: false,
      },
      XUsageCap: { ...intHeader('Queries included in the current billing period (absent where X-Usage-Used is).'), required: false },
      XUsageRemaining: { ...intHeader('Queries left in the current billing period (absent where X-Usage-Used is).'), required: false },
      IdempotentReplayed: {
        description: '"true" when this is the stored answer of an earlier request with the same Idempotency-Key.',
        required: false,
        schema: { type: 'string', const: 'true' },
      },
      PublicRateLimitLimit: {
        description: 'Requests this client address may make to the public endpoints per minute (when the server knows the address).',
        required: false,
        schema: { type: 'string', pattern: '^[0-9]+$' },
      },
      PublicRateLimitRemaining: {
        description: 'Requests left to this client address in the current sliding window.',
        required: false,
        schema: { type: 'string', pattern: '^[0-9]+$' },
      },
      PublicRateLimitReset: {
        description: 'Unix time (seconds) when the next request slot of this client address frees.',
        required: false,
        schema: { type: 'string', pattern: '^[0-9]+$' },
      },
      RetryAfterRequired: { description: 'Whole seconds (≥ 1) to wait before retrying.', required: true, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
      RetryAfter: {
        description: 'Whole seconds (≥ 1) to wait: rate_limit_exceeded and idempotency_key_in_progress.',
        required: false,
        schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
      },
      AllowCatalog: { description: 'Methods the catalogue serves.', required: true, schema: { type: 'string', const: 'GET, HEAD, OPTIONS' } },
      CorsAny: { description: 'The catalogue is public.', required: true, schema: { type: 'string', const: '*' } },
      PublicCache: { description: CATALOG_CACHE_CONTROL, required: true, schema: { type: 'string', const: CATALOG_CACHE_CONTROL } },
      DocumentCache: { description: 'public, max-age=300', required: true, schema: { type: 'string', const: 'public, max-age=300' } },
      NoStore: { description: 'Never cached.', required: true, schema: { type: 'string', const: 'no-store' } },
    },
    schemas: {
      ...responseSchemas(),
      ...requestSchemas(),
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

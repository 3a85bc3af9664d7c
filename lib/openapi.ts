import { CATEGORIES } from '@/lib/catalog';
import { baseUrl } from '@/lib/platform/base-url';
import { MAX_BODY_BYTES, MAX_QUERY_CHARS } from '@/lib/gateway';

/**
 * The OpenAPI 3.1 description of the two public endpoints (docs/api.md §2, §3): the catalogue listing + detail and the
 * keyed query gateway, with every status, error code, header and schema. Served at /api/openapi.json; the gateway
 * integration tests validate every response they assert against it (ajv, JSON Schema 2020-12).
 */
type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

function errorSchema(codes: string[], extras: Json = {}, requiredExtras: string[] = []): Json {
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

const json = (schema: Json) => ({ 'application/json': { schema } });

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
const KEYED_HEADERS = { ...RATE_HEADERS, ...USAGE_HEADERS };
const ID_ONLY = { 'X-Request-Id': headerRef('XRequestId') };

/** The catalogue answers CORS preflights (204) and 405 for writes, both with CORS so browsers can read them. */
function catalogueExtraMethods(operationId: string): Json {
  const notAllowed = (method: string) => ({
    tags: ['catalogue'],
    operationId: `${operationId}_${method}`,
    summary: 'Not allowed: the catalogue is read-only',
    security: [],
    responses: {
      '405': {
        description: 'Method not allowed',
        headers: { ...ID_ONLY, Allow: headerRef('AllowCatalogue'), 'Access-Control-Allow-Origin': headerRef('CorsAny') },
        content: json(ref('MethodNotAllowedError')),
      },
    },
  });
  return {
    options: {
      tags: ['catalogue'],
      operationId: `${operationId}_preflight`,
      summary: 'CORS preflight',
      security: [],
      responses: {
        '204': { description: 'Any origin may GET', headers: { 'Access-Control-Allow-Origin': headerRef('CorsAny'), Allow: headerRef('AllowCatalogue') } },
      },
    },
    post: notAllowed('post'),
    put: notAllowed('put'),
    patch: notAllowed('patch'),
    delete: notAllowed('delete'),
  };
}

const intHeader = (description: string) => ({ description, required: true, schema: { type: 'string', pattern: '^[0-9]+$' } });

export function buildOpenApiDocument(appUrl: string = baseUrl()): Json {
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

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Almanac public API',
      version: '1.0.0',
      description:
        'The public catalogue of knowledge bases and the keyed, metered query endpoint. Every response carries X-Request-Id; ' +
        'every error body is {error, message, request_id} plus the extras named per error. The query endpoint sends no CORS ' +
        'headers: API keys are for servers, not browsers. A method a path does not serve is answered 405 method_not_allowed ' +
        'with an Allow header.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: appUrl.replace(/\/+$/, '') }],
    tags: [
      { name: 'catalogue', description: 'The public catalogue of published knowledge bases: no key, CORS *, cacheable.' },
      { name: 'query', description: 'The keyed, metered API of one knowledge base: Authorization: Bearer <the key of a subscription to it>.' },
    ],
    paths: {
      '/api/marketplace/knowledge-bases': {
        get: {
          tags: ['catalogue'],
          operationId: 'listKnowledgeBases',
          summary: 'List published knowledge bases (public, cacheable for 30 s, CORS *)',
          security: [],
          parameters: [
            { name: 'query', in: 'query', schema: { type: 'string', maxLength: 200 }, description: 'Full-text search (stemmed, accent- and case-insensitive, last word as prefix).' },
            { name: 'category', in: 'query', schema: ref('Category'), description: 'Case-insensitive.' },
            {
              name: 'tags',
              in: 'query',
              style: 'form',
              explode: true,
              schema: { type: 'array', items: { type: 'string' }, maxItems: 10 },
              description: 'All must match; repeated (tags=a&tags=b), comma-separated (tags=a,b) or tags[]=a; case-insensitive.',
            },
            { name: 'sort', in: 'query', schema: { type: 'string', enum: ['popular', 'new', 'updated'], default: 'popular' } },
            { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
            { name: 'pageSize', in: 'query', schema: { type: 'integer', minimum: 1, default: 12 }, description: 'Values above 50 are clamped to 50.' },
          ],
          responses: {
            '200': {
              description: 'One page of results',
              headers: { ...ID_ONLY, 'Access-Control-Allow-Origin': headerRef('CorsAny'), 'Cache-Control': headerRef('PublicCache') },
              content: json(ref('KnowledgeBaseList')),
            },
            '400': {
              description: 'A parameter is invalid; the message names it and its allowed values',
              headers: { ...ID_ONLY, 'Access-Control-Allow-Origin': headerRef('CorsAny') },
              content: json(ref('InvalidParameterError')),
            },
            '500': { description: 'A fault of our own', headers: ID_ONLY, content: json(ref('InternalError')) },
          },
        },
        ...catalogueExtraMethods('listKnowledgeBases'),
      },
      '/api/marketplace/knowledge-bases/{id}': {
        // On the path item, so the operations that only answer 405 define {id} too (Redocly: path-parameters-defined).
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'The knowledge base id (kb_…).' }],
        get: {
          tags: ['catalogue'],
          operationId: 'getKnowledgeBase',
          summary: 'One published knowledge base with its plans (public)',
          security: [],
          responses: {
            '200': { description: 'The knowledge base', headers: { ...ID_ONLY, 'Access-Control-Allow-Origin': headerRef('CorsAny') }, content: json(ref('KnowledgeBaseDetail')) },
            '400': {
              description: 'The id contains a control character or is not valid Unicode (docs/api.md §7.2)',
              headers: { ...ID_ONLY, 'Access-Control-Allow-Origin': headerRef('CorsAny') },
              content: json(ref('InvalidParameterError')),
            },
            '404': {
              description: 'No published knowledge base has this id',
              headers: { ...ID_ONLY, 'Access-Control-Allow-Origin': headerRef('CorsAny') },
              content: json(ref('KnowledgeBaseNotFoundError')),
            },
            '500': { description: 'A fault of our own', headers: ID_ONLY, content: json(ref('InternalError')) },
          },
        },
        ...catalogueExtraMethods('getKnowledgeBase'),
      },
      '/kb/{kb_id}/query': {
        parameters: [{ name: 'kb_id', in: 'path', required: true, schema: { type: 'string' } }],
        post: {
          tags: ['query'],
          operationId: 'queryKnowledgeBase',
          summary: 'Ask a knowledge base a question (API key required; metered)',
          description:
            'Checks run in this order and the first failure answers: 401 missing_api_key; 401 invalid_api_key (scheme, shape, ' +
            'checksum or unknown; malformed keys never reach the database); 403 key_revoked; 404 knowledge_base_not_found; ' +
            '403 key_scope_mismatch; 403 forbidden (subscription not active, or knowledge base suspended); 429 rate_limit_exceeded; ' +
            `400 invalid_query (413 payload_too_large for bodies over ${MAX_BODY_BYTES} bytes); 429 query_cap_exceeded; ` +
            '502 publisher_error; 504 publisher_timeout. Only a 200 with at least one citation counts against the cap: a unit is ' +
            'reserved before routing and given back when the answer fails or abstains (no citations). Every authenticated request that reaches the rate-limit step counts against ' +
            'the per-minute limit. From the revoked-key check on, responses carry X-RateLimit-* (the limiter state; steps before ' +
            'the limit do not consume) and X-Usage-* (the period usage after counting this request).',
          security: [{ apiKey: [] }],
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: 'Makes a retry safe: the first request with this key is answered and stored for 24 hours; the same request again gets the stored answer (Idempotent-Replayed: true) and is not counted.',
              schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$' },
            },
          ],
          requestBody: { required: true, content: json(ref('QueryRequest')) },
          responses: {
            '200': { description: 'The answer (or, for a retry with an Idempotency-Key, the stored answer)', headers: { ...KEYED_HEADERS, 'Idempotent-Replayed': headerRef('IdempotentReplayed') }, content: json(ref('QueryAnswer')) },
            '400': {
              description:
                'Content-Type not application/json, a body that is not UTF-8 or not a JSON object, query missing/blank/too long or with control characters, or a kb_id with control characters (invalid_query); a malformed Idempotency-Key (invalid_request)',
              headers: KEYED_HEADERS,
              content: json({ oneOf: [ref('InvalidQueryError'), ref('InvalidRequestError')] }),
            },
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
            '409': {
              description: 'A request with this Idempotency-Key is still being answered (retry after a second)',
              headers: { ...KEYED_HEADERS, 'Retry-After': { ...headerRef('RetryAfter') } },
              content: json(ref('IdempotencyInProgressError')),
            },
            '422': { description: 'This Idempotency-Key was used with a different request', headers: KEYED_HEADERS, content: json(ref('IdempotencyReusedError')) },
            '413': { description: `Body over ${MAX_BODY_BYTES} bytes (counted on the stream)`, headers: KEYED_HEADERS, content: json(ref('PayloadTooLargeError')) },
            '429': {
              description: 'Per-key rate limit (with Retry-After) or the subscription’s cap for the period',
              headers: { ...KEYED_HEADERS, 'Retry-After': { ...headerRef('RetryAfter') } },
              content: json({ oneOf: [ref('RateLimitError'), ref('QueryCapError')] }),
            },
            '500': { description: 'A fault of our own (the query is not counted)', headers: ID_ONLY, content: json(ref('InternalError')) },
            '502': { description: 'The publisher’s backend failed (connection, non-2xx, over 1 MiB or schema-breaking); not counted', headers: KEYED_HEADERS, content: json(ref('PublisherError')) },
            '504': { description: 'The publisher did not answer within the knowledge base’s timeout; not counted', headers: KEYED_HEADERS, content: json(ref('PublisherTimeoutError')) },
          },
        },
        ...Object.fromEntries(
          ['get', 'put', 'patch', 'delete', 'options', 'head'].map((method) => [
            method,
            {
              tags: ['query'],
              operationId: `queryKnowledgeBase_${method}`,
              summary: 'Not allowed: only POST is served',
              security: [],
              responses: {
                '405': {
                  description: 'Method not allowed',
                  headers: { ...ID_ONLY, Allow: headerRef('AllowPost') },
                  ...(method === 'head' ? {} : { content: json(ref('MethodNotAllowedError')) }),
                },
              },
            },
          ]),
        ),
      },
    },
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'alm_sk_live_<32 base62><6 base62 checksum>',
          description: 'The key issued with the subscription: "Authorization: Bearer alm_sk_live_…" (scheme case-insensitive).',
        },
      },
      headers: {
        XRequestId: { description: 'Correlation id of this request (quote it to support).', required: true, schema: { type: 'string', pattern: '^req_' } },
        WwwAuthenticate: {
          description: 'The scheme to authenticate with (RFC 6750); error="invalid_token" when the key sent is malformed or unknown.',
          required: true,
          schema: { type: 'string', enum: ['Bearer realm="almanac"', 'Bearer realm="almanac", error="invalid_token"'] },
        },
        XRateLimitLimit: intHeader('Requests allowed per minute for this key.'),
        XRateLimitRemaining: intHeader('Requests left in the current sliding window.'),
        XRateLimitReset: intHeader('Unix time (seconds) when the next request slot frees.'),
        XUsageUsed: intHeader('Queries used in the current billing period, after counting this request.'),
        XUsageCap: intHeader('Queries included in the current billing period.'),
        XUsageRemaining: intHeader('Queries left in the current billing period.'),
        IdempotentReplayed: { description: '"true" when this is the stored answer of an earlier request with the same Idempotency-Key.', required: false, schema: { type: 'string', const: 'true' } },
        RetryAfter: { description: 'Whole seconds (≥ 1) to wait: rate_limit_exceeded and idempotency_key_in_progress.', required: false, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
        AllowPost: { description: 'The only method served.', required: true, schema: { type: 'string', const: 'POST' } },
        AllowCatalogue: { description: 'Methods the catalogue serves.', required: true, schema: { type: 'string', const: 'GET, HEAD, OPTIONS' } },
        CorsAny: { description: 'The catalogue is public.', required: true, schema: { type: 'string', const: '*' } },
        PublicCache: { description: 'public, max-age=30, stale-while-revalidate=300', required: true, schema: { type: 'string' } },
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
        InternalError: errorSchema(['internal_error']),
      },
    },
  };
}

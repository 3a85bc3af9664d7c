import { baseUrl } from '@/lib/platform/base-url';
import { idempotencyKeySchema, MAX_BODY_BYTES } from '@/lib/gateway';
import { jsonSchemaOf, listingParameters, openApiComponents } from './components';
import { agentPaths, servicePaths } from './paths';
import { catalogPreflight, catalogLoadResponses, CATALOG_HEADERS, headerRef, ID_ONLY, json, KEYED_HEADERS, keyAccessErrors, ref, type Json } from './shared';

/**
 * The OpenAPI 3.1 description of the public API (docs/api.md §2, §3, §10), served at /api/openapi.json; the integration
 * tests validate every response they assert against it (ajv, JSON Schema 2020-12).
 */
export function buildOpenApiDocument(appUrl: string = baseUrl()): Json {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Almanac public API',
      version: '1.0.0',
      description:
        'The public catalogue of knowledge bases and the keyed, metered query endpoint. Every response carries X-Request-Id; ' +
        'every error body is {error, message, request_id} plus the extras named per error. The query endpoint sends no CORS ' +
        'headers: API keys are for servers, not browsers. Each path lists only the methods it serves (HEAD with GET); any ' +
        'other method is answered 405 method_not_allowed with an Allow header naming the served ones and the error body ' +
        '(schema MethodNotAllowedError), and a method outside the seven of HTTP/1.1 with 501 not_implemented.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: appUrl.replace(/\/+$/, '') }],
    tags: [
      { name: 'catalogue', description: 'The public catalogue of published knowledge bases: no key, CORS *, cacheable.' },
      {
        name: 'query',
        description: 'The keyed, metered API of one knowledge base, called with the key of a subscription to it ("Authorization: Bearer alm_sk_…").',
      },
      { name: 'service', description: 'This document, and the health probe for operators and load balancers.' },
    ],
    paths: {
      '/api/marketplace/knowledge-bases': {
        get: {
          tags: ['catalogue'],
          operationId: 'listKnowledgeBases',
          summary: 'List published knowledge bases (public, cacheable for 30 s, CORS *, limited per client address)',
          security: [],
          parameters: listingParameters(),
          responses: {
            '200': {
              description: 'One page of results (at most CATALOG_CACHE_TTL_MS old: answers are cached by their canonical parameters)',
              headers: { ...CATALOG_HEADERS, 'Cache-Control': headerRef('PublicCache') },
              content: json(ref('KnowledgeBaseList')),
            },
            '400': {
              description: 'A parameter is invalid; the message names it and its allowed values',
              headers: CATALOG_HEADERS,
              content: json(ref('InvalidParameterError')),
            },
            ...catalogLoadResponses(),
            '500': { description: 'A fault of our own', headers: ID_ONLY, content: json(ref('InternalError')) },
          },
        },
        options: catalogPreflight('listKnowledgeBases'),
      },
      '/api/marketplace/knowledge-bases/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'The knowledge base id (kb_…).' }],
        get: {
          tags: ['catalogue'],
          operationId: 'getKnowledgeBase',
          summary: 'One published knowledge base with its plans (public, cacheable for 30 s, CORS *, limited per client address)',
          security: [],
          responses: {
            '200': {
              description: 'The knowledge base',
              headers: { ...CATALOG_HEADERS, 'Cache-Control': headerRef('PublicCache') },
              content: json(ref('KnowledgeBaseDetail')),
            },
            '400': {
              description: 'The id contains a control character or is not valid Unicode (docs/api.md §7.2)',
              headers: CATALOG_HEADERS,
              content: json(ref('InvalidParameterError')),
            },
            '404': {
              description: 'No published knowledge base has this id',
              headers: CATALOG_HEADERS,
              content: json(ref('KnowledgeBaseNotFoundError')),
            },
            ...catalogLoadResponses(),
            '500': { description: 'A fault of our own', headers: ID_ONLY, content: json(ref('InternalError')) },
          },
        },
        options: catalogPreflight('getKnowledgeBase'),
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
          security: [{ apiKey: [] }, { oauth: ['kb:query'] }],
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description:
                'Makes a retry safe: the first request with this key is answered and stored for 24 hours; the same request again gets the stored answer (Idempotent-Replayed: true) and is not counted.',
              schema: jsonSchemaOf('input', idempotencyKeySchema),
            },
          ],
          requestBody: { required: true, content: json(ref('QueryRequest')) },
          responses: {
            '200': {
              description:
                'The answer (or, for a retry with an Idempotency-Key, the stored answer). With "Accept: text/event-stream" the answer streams as Server-Sent Events once the cap unit is reserved: citations, delta ({text}) pieces, then done ({tokens_used, usage}) or error (an error body); counted at done.',
              headers: { ...KEYED_HEADERS, 'Idempotent-Replayed': headerRef('IdempotentReplayed') },
              content: {
                ...json(ref('QueryAnswer')),
                'text/event-stream': {
                  schema: {
                    type: 'string',
                    description: 'event: citations | delta | done | error, each with one line of JSON data; comment heartbeats every 15 s.',
                  },
                },
              },
            },
            '400': {
              description:
                'Content-Type not application/json, a body that is not UTF-8 or not a JSON object, query missing/blank/too long or with control characters, or a kb_id with control characters (invalid_query); a malformed Idempotency-Key (invalid_request)',
              headers: KEYED_HEADERS,
              content: json({ oneOf: [ref('InvalidQueryError'), ref('InvalidRequestError')] }),
            },
            ...keyAccessErrors(),
            '409': {
              description: 'A request with this Idempotency-Key is still being answered (retry after a second)',
              headers: { ...KEYED_HEADERS, 'Retry-After': { ...headerRef('RetryAfter') } },
              content: json(ref('IdempotencyInProgressError')),
            },
            '422': {
              description: 'This Idempotency-Key was used with a different request',
              headers: KEYED_HEADERS,
              content: json(ref('IdempotencyReusedError')),
            },
            '413': {
              description: `Body over ${MAX_BODY_BYTES} bytes (counted on the stream)`,
              headers: KEYED_HEADERS,
              content: json(ref('PayloadTooLargeError')),
            },
            '429': {
              description: 'Per-key rate limit (with Retry-After) or the subscription’s cap for the period',
              headers: { ...KEYED_HEADERS, 'Retry-After': { ...headerRef('RetryAfter') } },
              content: json({ oneOf: [ref('RateLimitError'), ref('QueryCapError')] }),
            },
            '500': { description: 'A fault of our own (the query is not counted)', headers: ID_ONLY, content: json(ref('InternalError')) },
            '502': {
              description: 'The publisher’s backend failed (connection, non-2xx, over 1 MiB or schema-breaking); not counted',
              headers: KEYED_HEADERS,
              content: json(ref('PublisherError')),
            },
            '504': {
              description: 'The publisher did not answer within the knowledge base’s timeout; not counted',
              headers: KEYED_HEADERS,
              content: json(ref('PublisherTimeoutError')),
            },
          },
        },
      },
      ...agentPaths(),
      ...servicePaths(),
    },
    components: openApiComponents(),
  };
}

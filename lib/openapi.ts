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
/**
 * Every catalogue answer: CORS, and the per-client limit's state (docs/api.md §2.8), which is present only where the
 * server knows the client's address (`npm start`), hence not required.
 */
const CATALOGUE_HEADERS = {
  ...ID_ONLY,
  'Access-Control-Allow-Origin': headerRef('CorsAny'),
  'X-RateLimit-Limit': headerRef('PublicRateLimitLimit'),
  'X-RateLimit-Remaining': headerRef('PublicRateLimitRemaining'),
  'X-RateLimit-Reset': headerRef('PublicRateLimitReset'),
};

/** The catalogue's answers to load: the per-client limit (429) and a full load queue (503); neither is cached. */
const catalogueLoadResponses = {
  '429': {
    description: 'This client address made more than PUBLIC_RATE_LIMIT_PER_MINUTE requests (300) to the public endpoints in the last minute',
    headers: { ...CATALOGUE_HEADERS, 'X-RateLimit-Limit': headerRef('XRateLimitLimit'), 'X-RateLimit-Remaining': headerRef('XRateLimitRemaining'), 'X-RateLimit-Reset': headerRef('XRateLimitReset'), 'Retry-After': headerRef('RetryAfterRequired') },
    content: json(ref('RateLimitError')),
  },
  '503': {
    description: 'Too many catalogue loads are waiting for the database; retry after a second',
    headers: { ...CATALOGUE_HEADERS, 'Retry-After': headerRef('RetryAfterRequired') },
    content: json(ref('ServiceUnavailableError')),
  },
};

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

/** The error answers every keyed endpoint shares (rows 1–11 of docs/api.md §3.2). */
function keyedErrors(options: { metered: boolean }): Json {
  const limited = options.metered
    ? { description: 'Per-key rate limit (with Retry-After) or the subscription’s cap for the period', headers: { ...KEYED_HEADERS, 'Retry-After': headerRef('RetryAfter') }, content: json({ oneOf: [ref('RateLimitError'), ref('QueryCapError')] }) }
    : { description: 'This endpoint’s own per-key limit (with Retry-After)', headers: { ...KEYED_HEADERS, 'Retry-After': headerRef('RetryAfter') }, content: json(ref('RateLimitError')) };
  return {
    ...(options.metered ? { '400': { description: 'A malformed request body (invalid_query)', headers: KEYED_HEADERS, content: json(ref('InvalidQueryError')) } } : {}),
    '401': { description: 'No key, or a key that is malformed or unknown', headers: { ...ID_ONLY, 'WWW-Authenticate': headerRef('WwwAuthenticate') }, content: json(ref('AuthenticationError')) },
    '403': { description: 'Key revoked, issued for another knowledge base, subscription not active or knowledge base suspended', headers: KEYED_HEADERS, content: json(ref('ForbiddenError')) },
    '404': { description: 'No published knowledge base has this id', headers: KEYED_HEADERS, content: json(ref('KnowledgeBaseNotFoundError')) },
    '429': limited,
    '500': { description: 'A fault of our own (nothing is counted)', headers: ID_ONLY, content: json(ref('InternalError')) },
    ...(options.metered
      ? {
          '413': { description: `Body over ${MAX_BODY_BYTES} bytes`, headers: KEYED_HEADERS, content: json(ref('PayloadTooLargeError')) },
          '502': { description: 'The publisher’s backend failed; not counted', headers: KEYED_HEADERS, content: json(ref('PublisherError')) },
          '504': { description: 'The publisher did not answer in time; not counted', headers: KEYED_HEADERS, content: json(ref('PublisherTimeoutError')) },
        }
      : {}),
  };
}

/** 405 answers for the methods a keyed path does not serve. */
function keyedNotAllowed(operationId: string, served: string[], parameters: Json[]): Json {
  const allow = served.includes('GET') ? [...served, 'HEAD'].join(', ') : served.join(', ');
  const servedLower = allow.toLowerCase().split(', ');
  return Object.fromEntries(
    ['get', 'put', 'post', 'patch', 'delete', 'options', 'head']
      .filter((method) => !servedLower.includes(method))
      .map((method) => [
        method,
        {
          tags: ['query'],
          operationId: `${operationId}_${method}`,
          summary: `Not allowed: only ${allow} is served`,
          security: [],
          ...(parameters.length ? { parameters } : {}),
          responses: {
            '405': {
              description: 'Method not allowed',
              headers: { ...ID_ONLY, Allow: { description: 'The methods served.', required: true, schema: { type: 'string', const: allow } } },
              ...(method === 'head' ? {} : { content: json(ref('MethodNotAllowedError')) }),
            },
          },
        },
      ]),
  );
}

const KB_ID_PARAMETER = { name: 'kb_id', in: 'path', required: true, schema: { type: 'string' } };

/** The Almanac codes behind each status of the Dify endpoint. */
const DIFY_ERRORS: Record<string, string[]> = {
  '400': ['invalid_query'],
  '401': ['missing_api_key', 'invalid_api_key'],
  '403': ['key_revoked', 'key_scope_mismatch', 'forbidden'],
  '404': ['knowledge_base_not_found'],
  '413': ['payload_too_large'],
  '429': ['rate_limit_exceeded', 'query_cap_exceeded'],
  '500': ['internal_error'],
  '502': ['publisher_error'],
  '504': ['publisher_timeout'],
};

/** Dify's error shape `{error_code, error_msg}` with Almanac's error body alongside (docs/api.md §10.3). */
function difyErrorSchema(codes: string[]): Json {
  const almanac = errorSchema(codes);
  return {
    ...almanac,
    required: ['error_code', 'error_msg', ...(almanac.required as string[])],
    properties: {
      error_code: { type: 'integer', description: '1001 no Authorization header, 1002 key refused, 2001 knowledge base not found or not in the key’s scope; otherwise the HTTP status.' },
      error_msg: { type: 'string' },
      ...(almanac.properties as Json),
    },
    additionalProperties: true,
  };
}

/** 405 answers for the methods a GET-only path does not serve (HEAD follows GET). */
function getOnlyNotAllowed(operationId: string, tag: string): Json {
  return Object.fromEntries(
    ['put', 'post', 'patch', 'delete', 'options'].map((method) => [
      method,
      {
        tags: [tag],
        operationId: `${operationId}_${method}`,
        summary: 'Not allowed: only GET, HEAD is served',
        security: [],
        responses: {
          '405': { description: 'Method not allowed', headers: { ...ID_ONLY, Allow: headerRef('AllowGet') }, content: json(ref('MethodNotAllowedError')) },
        },
      },
    ]),
  );
}

/** This document and the health probe (docs/api.md §2.10, §2.11). */
function servicePaths(): Json {
  return {
    '/api/openapi.json': {
      get: {
        tags: ['service'],
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI 3.1 document (public, cacheable for 5 minutes, CORS *, limited per client address)',
        security: [],
        responses: {
          '200': {
            description: 'The document; its servers[0].url is the base URL of this deployment',
            headers: { ...CATALOGUE_HEADERS, 'Cache-Control': headerRef('DocumentCache') },
            content: json({ type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { type: 'string', const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } }, description: 'An OpenAPI 3.1 document.' }),
          },
          ...catalogueLoadResponses,
          '500': { description: 'A fault of our own', headers: ID_ONLY, content: json(ref('InternalError')) },
        },
      },
      ...getOnlyNotAllowed('getOpenApiDocument', 'service'),
    },
    '/api/health': {
      get: {
        tags: ['service'],
        operationId: 'getHealth',
        summary: 'Readiness (the database answers) or, with probe=live, liveness (for operators and load balancers)',
        security: [],
        parameters: [
          { name: 'probe', in: 'query', required: false, schema: { type: 'string', const: 'live' }, description: 'live: answer at once, with no I/O (liveness).' },
        ],
        responses: {
          '200': { description: 'Ready (or, with probe=live, alive)', headers: { ...ID_ONLY, 'Cache-Control': headerRef('NoStore') }, content: json({ oneOf: [ref('Health'), ref('Liveness')] }) },
          '503': { description: 'The database cannot be reached (opening it has a 2 s budget); the body is the health object, not an error body', headers: { ...ID_ONLY, 'Cache-Control': headerRef('NoStore') }, content: json(ref('Health')) },
          '500': { description: 'A fault of our own', headers: ID_ONLY, content: json(ref('InternalError')) },
        },
      },
      ...getOnlyNotAllowed('getHealth', 'service'),
    },
  };
}

/** The retrieval-only, usage and Dify endpoints (docs/api.md §10). */
function agentPaths(): Json {
  return {
    '/kb/{kb_id}/search': {
      parameters: [KB_ID_PARAMETER],
      post: {
        tags: ['query'],
        operationId: 'searchKnowledgeBase',
        summary: 'The best passages for a query, without an answer (API key required; metered like a query, free when empty)',
        security: [{ apiKey: [] }],
        requestBody: { required: true, content: json(ref('SearchRequest')) },
        responses: { '200': { description: 'The passages, best first', headers: KEYED_HEADERS, content: json(ref('SearchResults')) }, ...keyedErrors({ metered: true }) },
      },
      ...keyedNotAllowed('searchKnowledgeBase', ['POST'], [KB_ID_PARAMETER]),
    },
    '/kb/{kb_id}/usage': {
      parameters: [KB_ID_PARAMETER],
      get: {
        tags: ['query'],
        operationId: 'getUsage',
        summary: 'Where this key’s subscription stands: usage of the period and the query limit (never counted; 30 per minute per key)',
        security: [{ apiKey: [] }],
        responses: {
          '200': { description: 'The usage report; X-RateLimit-* describe this endpoint’s own limit', headers: KEYED_HEADERS, content: json(ref('UsageReport')) },
          ...keyedErrors({ metered: false }),
        },
      },
      ...keyedNotAllowed('getUsage', ['GET'], [KB_ID_PARAMETER]),
    },
    '/kb/{kb_id}/mcp': {
      parameters: [KB_ID_PARAMETER],
      post: {
        tags: ['query'],
        operationId: 'mcp',
        summary: 'The knowledge base as a remote MCP server (Streamable HTTP, stateless): tools ask and search, metered per call',
        description:
          'A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call…); see https://modelcontextprotocol.io. ' +
          'The key and steps 1–6 of the check order are HTTP errors; the rate limit, a bad query and the cap are tool errors inside a 200.',
        security: [{ apiKey: [] }],
        requestBody: { required: true, content: json({ type: 'object', description: 'A JSON-RPC 2.0 request or notification.' }) },
        responses: {
          '200': { description: 'The JSON-RPC response', headers: ID_ONLY, content: json({ type: 'object', description: 'A JSON-RPC 2.0 response.' }) },
          ...Object.fromEntries(Object.entries(keyedErrors({ metered: false })).filter(([status]) => status !== '429')),
        },
      },
      ...keyedNotAllowed('mcp', ['GET', 'POST', 'DELETE'], [KB_ID_PARAMETER]),
    },
    '/dify/retrieval': {
      post: {
        tags: ['query'],
        operationId: 'difyRetrieval',
        summary: 'Dify External Knowledge API: register <base>/dify in Dify with the Almanac key, and the knowledge base id as knowledge id',
        security: [{ apiKey: [] }],
        requestBody: { required: true, content: json(ref('DifyRetrievalRequest')) },
        responses: {
          '200': { description: 'The records, best first', headers: KEYED_HEADERS, content: json(ref('DifyRecords')) },
          ...Object.fromEntries(
            Object.entries(keyedErrors({ metered: true })).map(([status, response]) => [status, { ...(response as Json), content: json(difyErrorSchema(DIFY_ERRORS[status]!)) }]),
          ),
        },
      },
      ...keyedNotAllowed('difyRetrieval', ['POST'], []),
    },
  };
}

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
      { name: 'query', description: 'The keyed, metered API of one knowledge base, called with the key of a subscription to it ("Authorization: Bearer alm_sk_…").' },
      { name: 'service', description: 'This document, and the health probe for operators and load balancers.' },
    ],
    paths: {
      '/api/marketplace/knowledge-bases': {
        get: {
          tags: ['catalogue'],
          operationId: 'listKnowledgeBases',
          summary: 'List published knowledge bases (public, cacheable for 30 s, CORS *, limited per client address)',
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
              description: 'One page of results (at most CATALOG_CACHE_TTL_MS old: answers are cached by their canonical parameters)',
              headers: { ...CATALOGUE_HEADERS, 'Cache-Control': headerRef('PublicCache') },
              content: json(ref('KnowledgeBaseList')),
            },
            '400': {
              description: 'A parameter is invalid; the message names it and its allowed values',
              headers: CATALOGUE_HEADERS,
              content: json(ref('InvalidParameterError')),
            },
            ...catalogueLoadResponses,
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
          summary: 'One published knowledge base with its plans (public, cacheable for 30 s, CORS *, limited per client address)',
          security: [],
          responses: {
            '200': { description: 'The knowledge base', headers: { ...CATALOGUE_HEADERS, 'Cache-Control': headerRef('PublicCache') }, content: json(ref('KnowledgeBaseDetail')) },
            '400': {
              description: 'The id contains a control character or is not valid Unicode (docs/api.md §7.2)',
              headers: CATALOGUE_HEADERS,
              content: json(ref('InvalidParameterError')),
            },
            '404': {
              description: 'No published knowledge base has this id',
              headers: CATALOGUE_HEADERS,
              content: json(ref('KnowledgeBaseNotFoundError')),
            },
            ...catalogueLoadResponses,
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
            '200': {
              description:
                'The answer (or, for a retry with an Idempotency-Key, the stored answer). With "Accept: text/event-stream" the answer streams as Server-Sent Events once the cap unit is reserved: citations, delta ({text}) pieces, then done ({tokens_used, usage}) or error (an error body); counted at done.',
              headers: { ...KEYED_HEADERS, 'Idempotent-Replayed': headerRef('IdempotentReplayed') },
              content: { ...json(ref('QueryAnswer')), 'text/event-stream': { schema: { type: 'string', description: 'event: citations | delta | done | error, each with one line of JSON data; comment heartbeats every 15 s.' } } },
            },
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
      ...agentPaths(),
      ...servicePaths(),
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
        XRateLimitLimit: intHeader('Requests allowed per minute: for this key (query), or for this client address (the public endpoints).'),
        XRateLimitRemaining: intHeader('Requests left in the current sliding window.'),
        XRateLimitReset: intHeader('Unix time (seconds) when the next request slot frees.'),
        XUsageUsed: intHeader('Queries used in the current billing period, after counting this request.'),
        XUsageCap: intHeader('Queries included in the current billing period.'),
        XUsageRemaining: intHeader('Queries left in the current billing period.'),
        IdempotentReplayed: { description: '"true" when this is the stored answer of an earlier request with the same Idempotency-Key.', required: false, schema: { type: 'string', const: 'true' } },
        PublicRateLimitLimit: { description: 'Requests this client address may make to the public endpoints per minute (when the server knows the address).', required: false, schema: { type: 'string', pattern: '^[0-9]+$' } },
        PublicRateLimitRemaining: { description: 'Requests left to this client address in the current sliding window.', required: false, schema: { type: 'string', pattern: '^[0-9]+$' } },
        PublicRateLimitReset: { description: 'Unix time (seconds) when the next request slot of this client address frees.', required: false, schema: { type: 'string', pattern: '^[0-9]+$' } },
        RetryAfterRequired: { description: 'Whole seconds (≥ 1) to wait before retrying.', required: true, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
        RetryAfter: { description: 'Whole seconds (≥ 1) to wait: rate_limit_exceeded and idempotency_key_in_progress.', required: false, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
        AllowPost: { description: 'The only method served.', required: true, schema: { type: 'string', const: 'POST' } },
        AllowCatalogue: { description: 'Methods the catalogue serves.', required: true, schema: { type: 'string', const: 'GET, HEAD, OPTIONS' } },
        CorsAny: { description: 'The catalogue is public.', required: true, schema: { type: 'string', const: '*' } },
        PublicCache: { description: 'public, max-age=30, stale-while-revalidate=300', required: true, schema: { type: 'string' } },
        DocumentCache: { description: 'public, max-age=300', required: true, schema: { type: 'string', const: 'public, max-age=300' } },
        NoStore: { description: 'Never cached.', required: true, schema: { type: 'string', const: 'no-store' } },
        AllowGet: { description: 'The methods served.', required: true, schema: { type: 'string', const: 'GET, HEAD' } },
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
            score: { type: 'number', exclusiveMinimum: 0, maximum: 1, description: 'The best passage scores 1; the others in proportion.' },
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
          required: ['status', 'database', 'rateLimiter'],
          properties: {
            status: { type: 'string', enum: ['ok', 'degraded'] },
            database: {
              type: 'object',
              required: ['ok'],
              properties: { ok: { type: 'boolean' }, kind: { type: 'string', enum: ['pglite', 'postgres'] }, latencyMs: { type: 'integer', minimum: 0 } },
              additionalProperties: false,
            },
            rateLimiter: { type: 'string', enum: ['memory', 'redis', 'upstash'] },
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
    },
  };
}

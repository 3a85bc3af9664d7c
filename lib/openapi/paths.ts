import { MAX_BODY_BYTES, USAGE_REQUESTS_PER_MINUTE } from '@/lib/gateway';
import {
  CATALOG_HEADERS,
  catalogLoadResponses,
  errorSchema,
  headerRef,
  ID_ONLY,
  json,
  KEY_IF_KNOWN_HEADERS,
  KEYED_HEADERS,
  keyAccessErrors,
  ref,
  type Json,
} from './shared';

/** The paths of the agent endpoints and of the service endpoints (this document, health). */

/** The error answers every keyed endpoint shares (rows 1–11 of docs/api.md §3.2). */
function keyedErrors(options: { metered: boolean }): Json {
  const limited = options.metered
    ? {
        description: 'Per-key rate limit (with Retry-After) or the subscription’s cap for the period',
        headers: { ...KEYED_HEADERS, 'Retry-After': headerRef('RetryAfter') },
        content: json({ oneOf: [ref('RateLimitError'), ref('QueryCapError')] }),
      }
    : {
        description: 'This endpoint’s own per-key limit (with Retry-After)',
        headers: { ...KEYED_HEADERS, 'Retry-After': headerRef('RetryAfter') },
        content: json(ref('RateLimitError')),
      };
  return {
    ...(options.metered
      ? { '400': { description: 'A malformed request body (invalid_query)', headers: KEYED_HEADERS, content: json(ref('InvalidQueryError')) } }
      : {}),
    ...keyAccessErrors(),
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

const KB_ID_PARAMETER = { name: 'kb_id', in: 'path', required: true, schema: { type: 'string' } };

/** The Almanac codes behind each status of the Dify endpoint. */
const DIFY_ERRORS: Record<string, string[]> = {
  '400': ['invalid_query'],
  '403': ['missing_api_key', 'invalid_api_key', 'key_revoked', 'key_scope_mismatch', 'forbidden'],
  '404': ['knowledge_base_not_found'],
  '413': ['payload_too_large'],
  '429': ['rate_limit_exceeded', 'query_cap_exceeded'],
  '500': ['internal_error'],
  '502': ['publisher_error'],
  '504': ['publisher_timeout'],
};

/** §10.1: a refusal before the MCP exchange is a JSON-RPC error response whose `data` is Almanac's error body. */
function jsonRpcError(almanac: Json): Json {
  return {
    type: 'object',
    required: ['jsonrpc', 'id', 'error'],
    properties: {
      jsonrpc: { type: 'string', const: '2.0' },
      id: { type: ['string', 'integer', 'null'], description: 'The request’s id; null for a batch or a notification.' },
      error: {
        type: 'object',
        required: ['code', 'message', 'data'],
        properties: {
          code: { type: 'integer', description: '-32001 for 401, -32003 for 403, -32004 for 404, -32600 for 400.' },
          message: { type: 'string' },
          data: almanac,
        },
      },
    },
  };
}

/** A JSON-RPC error from the MCP transport itself (no Almanac error body as data): the Origin check, an unknown method. */
const TRANSPORT_JSON_RPC_ERROR: Json = {
  type: 'object',
  required: ['jsonrpc', 'id', 'error'],
  properties: {
    jsonrpc: { type: 'string', const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer', description: '-32000 for a refused Origin, -32601 for an unknown method.' }, message: { type: 'string' } },
    },
  },
};

/** Dify's error shape `{error_code, error_msg}` with Almanac's error body alongside (docs/api.md §10.3). */
function difyErrorSchema(codes: string[]): Json {
  const almanac = errorSchema(codes);
  return {
    ...almanac,
    required: ['error_code', 'error_msg', ...(almanac.required as string[])],
    properties: {
      error_code: {
        type: 'integer',
        description:
          '1001 no or a malformed Authorization header, 1002 key refused, 2001 knowledge base not found or not in the key’s scope; otherwise the HTTP status.',
      },
      error_msg: { type: 'string' },
      ...(almanac.properties as Json),
    },
    additionalProperties: true,
  };
}

/** This document and the health probe (docs/api.md §2.10, §2.11). */
export function servicePaths(): Json {
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
            headers: { ...CATALOG_HEADERS, 'Cache-Control': headerRef('DocumentCache') },
            content: json({
              type: 'object',
              required: ['openapi', 'info', 'paths'],
              properties: { openapi: { type: 'string', const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
              description: 'An OpenAPI 3.1 document.',
            }),
          },
          ...catalogLoadResponses(),
          '500': { description: 'A fault of our own', headers: ID_ONLY, content: json(ref('InternalError')) },
        },
      },
    },
    '/api/health': {
      get: {
        tags: ['service'],
        operationId: 'getHealth',
        summary: 'Readiness (the database and the job queue answer) or, with probe=live, liveness (for operators and load balancers)',
        security: [],
        parameters: [
          {
            name: 'probe',
            in: 'query',
            required: false,
            schema: { type: 'string', const: 'live' },
            description: 'live: answer at once, with no I/O (liveness).',
          },
        ],
        responses: {
          '200': {
            description: 'Ready (or, with probe=live, alive)',
            headers: { ...ID_ONLY, 'Cache-Control': headerRef('NoStore') },
            content: json({ oneOf: [ref('Health'), ref('Liveness')] }),
          },
          '503': {
            description:
              'The database or the job queue cannot be read (opening the database has a 2 s budget); the body is the health object, not an error body',
            headers: { ...ID_ONLY, 'Cache-Control': headerRef('NoStore') },
            content: json(ref('Health')),
          },
          '500': { description: 'A fault of our own', headers: ID_ONLY, content: json(ref('InternalError')) },
        },
      },
    },
    '/api/health/live': {
      get: {
        tags: ['service'],
        operationId: 'getLiveness',
        summary: 'Liveness: the process answers, with no I/O (for restarts by an orchestrator)',
        security: [],
        responses: {
          '200': { description: 'Alive', headers: { ...ID_ONLY, 'Cache-Control': headerRef('NoStore') }, content: json(ref('Liveness')) },
          '500': { description: 'A fault of our own', headers: ID_ONLY, content: json(ref('InternalError')) },
        },
      },
    },
    '/api/health/ready': {
      get: {
        tags: ['service'],
        operationId: 'getReadiness',
        summary: 'Readiness: the database and the job queue answer, the limiter store is reported (for load balancers)',
        security: [],
        responses: {
          '200': { description: 'Ready', headers: { ...ID_ONLY, 'Cache-Control': headerRef('NoStore') }, content: json(ref('Health')) },
          '503': {
            description: 'The database or the job queue cannot be read; the body is the health object, not an error body',
            headers: { ...ID_ONLY, 'Cache-Control': headerRef('NoStore') },
            content: json(ref('Health')),
          },
          '500': { description: 'A fault of our own', headers: ID_ONLY, content: json(ref('InternalError')) },
        },
      },
    },
  };
}

/** The retrieval-only, usage and Dify endpoints (docs/api.md §10). */
export function agentPaths(): Json {
  return {
    '/kb/{kb_id}/search': {
      parameters: [KB_ID_PARAMETER],
      post: {
        tags: ['query'],
        operationId: 'searchKnowledgeBase',
        summary: 'The best passages for a query, without an answer (API key required; metered like a query, free when empty)',
        security: [{ apiKey: [] }, { oauth: ['kb:query'] }],
        requestBody: { required: true, content: json(ref('SearchRequest')) },
        responses: {
          '200': { description: 'The passages, best first', headers: KEYED_HEADERS, content: json(ref('SearchResults')) },
          ...keyedErrors({ metered: true }),
        },
      },
    },
    '/kb/{kb_id}/usage': {
      parameters: [KB_ID_PARAMETER],
      get: {
        tags: ['query'],
        operationId: 'getUsage',
        summary: `Where this key’s subscription stands: usage of the period and the query limit (never counted; ${USAGE_REQUESTS_PER_MINUTE} per minute per key)`,
        security: [{ apiKey: [] }, { oauth: ['kb:query'] }],
        responses: {
          '200': {
            description: 'The usage report; X-RateLimit-* describe this endpoint’s own limit',
            headers: KEYED_HEADERS,
            content: json(ref('UsageReport')),
          },
          '400': {
            description: 'The kb_id contains a control character or is not valid Unicode (invalid_query)',
            headers: KEYED_HEADERS,
            content: json(ref('InvalidQueryError')),
          },
          ...keyedErrors({ metered: false }),
        },
      },
    },
    '/kb/{kb_id}/mcp': {
      parameters: [KB_ID_PARAMETER],
      post: {
        tags: ['query'],
        operationId: 'mcp',
        summary: 'The knowledge base as a remote MCP server (Streamable HTTP, stateless): tools ask and search, metered per call',
        description:
          'A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call…); see https://modelcontextprotocol.io. ' +
          'Revisions 2026-07-28 (server/discover, no handshake) and, through initialize, 2025-11-25, 2025-06-18 and 2025-03-26. ' +
          'The key and steps 1–6 of the check order are HTTP errors whose body is a JSON-RPC error carrying the error body as data; the rate limit, a bad query and the cap are tool errors inside a 200.',
        security: [{ apiKey: [] }, { oauth: ['kb:query'] }],
        requestBody: { required: true, content: json({ type: 'object', description: 'A JSON-RPC 2.0 request or notification.' }) },
        responses: {
          '200': { description: 'The JSON-RPC response', headers: ID_ONLY, content: json({ type: 'object', description: 'A JSON-RPC 2.0 response.' }) },
          '202': { description: 'A notification (such as notifications/initialized) was accepted; no body', headers: ID_ONLY },
          '400': {
            description:
              'The body is not a JSON-RPC message (-32700 or -32600), or on revision 2026-07-28 an unsupported version (-32022, with data.supported), MCP-Protocol-Version or Mcp-Method disagreeing with the body (-32020) or a malformed _meta (-32602): a JSON-RPC error object, as MCP clients expect',
            headers: ID_ONLY,
            content: json({ type: 'object', description: 'A JSON-RPC 2.0 error.' }),
          },
          '406': {
            description: 'Accept does not list both application/json and text/event-stream: a JSON-RPC error object',
            headers: ID_ONLY,
            content: json({ type: 'object', description: 'A JSON-RPC 2.0 error.' }),
          },
          '413': { description: `Body over ${MAX_BODY_BYTES} bytes`, headers: ID_ONLY, content: json(ref('PayloadTooLargeError')) },
          ...Object.fromEntries(
            Object.entries(keyedErrors({ metered: false }))
              .filter(([status]) => status !== '429')
              .map(([status, response]) => {
                const declared = response as { description: string; content: { 'application/json': { schema: Json } } };
                if (status === '500') return [status, declared];
                const challenge = status === '401' ? { headers: { ...ID_ONLY, 'WWW-Authenticate': headerRef('McpWwwAuthenticate') } } : {};
                // The Origin check (§10.1) comes before the key is looked at.
                const origin =
                  status === '403'
                    ? {
                        description: `${declared.description}; or an Origin header naming another site (checked before the key)`,
                        headers: KEY_IF_KNOWN_HEADERS,
                      }
                    : {};
                const almanac = jsonRpcError(declared.content['application/json'].schema);
                const unknownMethod =
                  status === '404'
                    ? {
                        description: `${declared.description}; or, on revision 2026-07-28, a method the server does not have (-32601, without X-RateLimit-*)`,
                        headers: KEY_IF_KNOWN_HEADERS,
                      }
                    : {};
                const transport = status === '403' || status === '404';
                return [
                  status,
                  {
                    ...declared,
                    ...challenge,
                    ...origin,
                    ...unknownMethod,
                    content: json(transport ? { anyOf: [almanac, TRANSPORT_JSON_RPC_ERROR] } : almanac),
                  },
                ];
              }),
          ),
        },
      },
    },
    '/dify/retrieval': {
      post: {
        tags: ['query'],
        operationId: 'difyRetrieval',
        summary:
          'Dify External Knowledge API: register <base>/dify in Dify with the Almanac key, and the knowledge base id, slug or publisher/slug as knowledge id',
        description:
          'The key is judged before the body: Dify’s endpoint check (a POST with no body) gets 200 {records: []} for a good key (not counted) and 403 error_code 1002 for a refused one. ' +
          'A trailing slash on the registered base (<base>/dify//retrieval) is tolerated.',
        security: [{ apiKey: [] }, { oauth: ['kb:query'] }],
        requestBody: { required: false, content: json(ref('DifyRetrievalRequest')) },
        responses: {
          '200': { description: 'The records, best first', headers: KEYED_HEADERS, content: json(ref('DifyRecords')) },
          ...Object.fromEntries(
            Object.entries(keyedErrors({ metered: true }))
              .filter(([status]) => status !== '401')
              .map(([status, response]) => [status, { ...(response as Json), content: json(difyErrorSchema(DIFY_ERRORS[status]!)) }]),
          ),
          '413': {
            description: `Body over ${MAX_BODY_BYTES} bytes: the body is read before the key is judged (it names the knowledge base), so X-RateLimit-* are not sent`,
            headers: ID_ONLY,
            content: json(difyErrorSchema(DIFY_ERRORS['413']!)),
          },
          '403': {
            description:
              'Dify’s own statuses: no or a malformed Authorization header (1001), a key that is unknown, revoked or of an inactive subscription or suspended knowledge base (1002), ' +
              'a key of another knowledge base (2001). X-RateLimit-* and X-Usage-* are sent once the key is known.',
            headers: ID_ONLY,
            content: json(difyErrorSchema(DIFY_ERRORS['403']!)),
          },
        },
      },
    },
  };
}

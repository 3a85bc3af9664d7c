import {
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  originValidationResponse,
  PROTOCOL_VERSION_META_KEY,
  type CallToolResult,
  type McpRequestContext,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { baseUrl } from '@/lib/platform/base-url';
import { bearerChallenge } from '@/lib/oauth';
import { errorBody } from '@/lib/platform/errors';
import { REQUEST_ID_HEADER, jsonResponse } from '@/lib/platform/http';
import type { Passage } from '@/lib/engine';
import { queryAnswerSchema, type QueryAnswer } from '@/lib/query-answer';
import { admit, type Admitted, type KeyedRequest } from './admission';
import { findKnowledgeBaseIntro } from './key-lookup';
import { runKeyed, type KeyedCall } from './keyed';
import type { GatewayRefusal, GatewayOutcome } from './outcome';
import { meterAnswer } from './pipeline';
import { validateQuery } from './request-body';
import { MAX_BODY_BYTES, MAX_QUERY_CHARS, queryTextSchema, searchResultsSchema, topKSchema } from './schemas';
import { meterSearch, searchInputOf, toSearchResults } from './search';
import { gatewayReply, type GatewayReply } from './web';

/**
 * /kb/{kb_id}/mcp (docs/api.md §10.1): the knowledge base as a stateless MCP server over Streamable HTTP, on the
 * official v2 SDK, which serves the 2026-07-28 revision and `initialize` for older clients. Rows 1–6 are HTTP answers
 * shaped as JSON-RPC errors; the rate limit and the cap apply per tool call and come back as tool errors.
 */

function toolError(denial: GatewayRefusal, requestId: string): CallToolResult {
  const body = errorBody(denial.code, denial.message, requestId, denial.extras);
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

function toolResult<T>(
  outcome: GatewayOutcome<T>,
  requestId: string,
  present: (value: T) => { text: string; structured: Record<string, unknown> },
): CallToolResult {
  if (outcome.ok === 'replayed') throw new Error('MCP tool calls are never replayed.');
  if (!outcome.ok) return toolError(outcome, requestId);
  const { text, structured } = present(outcome.answer);
  return {
    content: [{ type: 'text', text }],
    structuredContent: { ...structured, usage: { ...outcome.usage, remaining: Math.max(0, outcome.usage.cap - outcome.usage.used) } },
  };
}

/** The SDK checks only the types: a value out of bounds is row 8, a tool error carrying the API's body, as on /query. */
function documentedInput<T>(types: z.ZodType<T>, documented: z.ZodType): StandardSchemaWithJSON<T> {
  return { '~standard': { ...types['~standard'], jsonSchema: documented['~standard'].jsonSchema } } as StandardSchemaWithJSON<T>;
}

const queryText = (what: string) => `${what} (1 to ${MAX_QUERY_CHARS.toLocaleString('en-US')} characters).`;
/** Built once: constructing zod schemas costs more than using them. */
const ASK_ARGS = z.object({ query: z.string() }).strict();
const SEARCH_ARGS = z.object({ query: z.string(), top_k: z.number().optional() }).strict();
const ASK_INPUT = documentedInput(ASK_ARGS, z.object({ query: queryTextSchema.describe(queryText('The question, in natural language')) }).strict());
const SEARCH_INPUT = documentedInput(
  SEARCH_ARGS,
  z.object({ query: queryTextSchema.describe(queryText('What to look for')), top_k: topKSchema.optional() }).strict(),
);
const USAGE = z.object({ used: z.number().int(), cap: z.number().int(), remaining: z.number().int() }).describe('The subscription’s period after this call.');
const ASK_OUTPUT = queryAnswerSchema.extend({ usage: USAGE });
const SEARCH_OUTPUT = searchResultsSchema.extend({ usage: USAGE });
const TOOL_CALL = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number().int()]),
  method: z.literal('tools/call'),
  params: z.object({ name: z.enum(['ask', 'search']), arguments: z.record(z.string(), z.unknown()), _meta: z.record(z.string(), z.unknown()).optional() }),
});

const presentAnswer = (answer: QueryAnswer) => ({
  text: answer.citations.length ? `${answer.answer}\n\nSources: ${JSON.stringify(answer.citations)}` : answer.answer,
  structured: { ...answer },
});
const presentPassages = (passages: Passage[]) => {
  const results = toSearchResults(passages);
  return { text: JSON.stringify(results), structured: { ...results } };
};

async function callTool(
  admitted: Admitted,
  requestId: string,
  signal: AbortSignal,
  name: 'ask' | 'search',
  args: { query: string; top_k?: number },
): Promise<CallToolResult> {
  const call: KeyedCall = { requestId, signal, admit: async () => ({ ok: true, admitted }) };
  if (name === 'ask') {
    const outcome = await runKeyed(call, { parse: () => validateQuery(args.query), call: (query, run) => meterAnswer(run, query) });
    return toolResult(outcome, requestId, presentAnswer);
  }
  return toolResult(await runKeyed(call, { parse: () => searchInputOf(args), call: (search, run) => meterSearch(run, search) }), requestId, presentPassages);
}

interface McpExchange {
  admitted: Admitted;
  intro: { title: string; summary: string };
  requestId: string;
  signal: AbortSignal;
}

function buildServer(ctx: McpRequestContext): McpServer {
  const { admitted, intro, requestId, signal } = ctx.authInfo!.extra as unknown as McpExchange;
  const server = new McpServer(
    { name: intro.title, version: '1.0.0' },
    {
      // The tools never change and a stateless server has no channel to say so: no list-change notifications.
      capabilities: { tools: { listChanged: false } },
      instructions: `${intro.summary}\n\nAsk questions with the "ask" tool (an answer with citations) or fetch passages with "search". Each call is metered against this subscription's plan; a call that finds nothing is free.`,
      cacheHints: { 'tools/list': { ttlMs: 3_600_000, cacheScope: 'private' }, 'server/discover': { ttlMs: 3_600_000, cacheScope: 'private' } },
    },
  );
  server.registerTool(
    'ask',
    {
      title: `Ask ${intro.title}`,
      description: `Answers a question from "${intro.title}" with citations (document, title, verbatim excerpt, page). Use it for factual questions this knowledge base covers. Counted against the plan's monthly cap; an answer with no citations is free.`,
      inputSchema: ASK_INPUT,
      outputSchema: ASK_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => callTool(admitted, requestId, signal, 'ask', args),
  );
  server.registerTool(
    'search',
    {
      title: `Search ${intro.title}`,
      description: `Returns the passages of "${intro.title}" most relevant to a query (document id, title, verbatim excerpt, page, score from 0 to 1), best first, without writing an answer. Counted like a question; an empty result is free.`,
      inputSchema: SEARCH_INPUT,
      outputSchema: SEARCH_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => callTool(admitted, requestId, signal, 'search', args),
  );
  return server;
}

const modernHandler = createMcpHandler(buildServer, { legacy: 'reject', responseMode: 'json', maxRequestBodySize: MAX_BODY_BYTES });

/** The 2025 revisions, stateless, answered as JSON rather than a one-event stream so that plain HTTP clients read it. */
async function serveLegacy(request: Request, authInfo: AuthInfo): Promise<Response> {
  const server = buildServer({ era: 'legacy', authInfo, requestInfo: request });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { authInfo });
  } finally {
    await server.close().catch(() => {});
  }
}

/** The direct path for a single well-formed `tools/call`, sparing the SDK's per-request server and transport. */
interface McpPost {
  origin: string | null;
  accept: string | null;
  contentType: string | null;
  protocolVersion: string | null;
  body: string;
}

const LEGACY_VERSIONS = new Set(['2025-03-26', '2025-06-18', '2025-11-25']);

/** DNS rebinding: a browser page may call only from this site's origin; agents send no Origin and pass. */
function refuseForeignOrigin(origin: string | null): Response | undefined {
  if (!origin) return undefined;
  return originValidationResponse(new Request('http://origin.check/', { headers: { Origin: origin } }), [new URL(baseUrl()).hostname]);
}

async function directToolCall(post: McpPost, admitted: Admitted, requestId: string, signal: AbortSignal): Promise<unknown | null> {
  const accept = post.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return null;
  if (!(post.contentType ?? '').toLowerCase().startsWith('application/json')) return null;
  // Only the older eras' tool call is answered here; a 2026-07-28 one (its version in the header or in `_meta`)
  // has a result shape of its own, which the SDK writes.
  if (post.protocolVersion !== null && !LEGACY_VERSIONS.has(post.protocolVersion)) return null;
  let message: unknown;
  try {
    message = JSON.parse(post.body);
  } catch {
    return null;
  }
  const call = TOOL_CALL.safeParse(message);
  if (!call.success || call.data.params._meta?.[PROTOCOL_VERSION_META_KEY] !== undefined) return null;
  const args = (call.data.params.name === 'ask' ? ASK_ARGS : SEARCH_ARGS).safeParse(call.data.params.arguments);
  if (!args.success) return null;
  const result = await callTool(admitted, requestId, signal, call.data.params.name, args.data);
  return { jsonrpc: '2.0', id: call.data.id, result };
}

/** MCP clients show a JSON-RPC error's message and data, not an HTTP body: Almanac's body travels as `error.data`. */
const JSON_RPC_CODE_BY_STATUS: Record<number, number> = { 400: -32600, 401: -32001, 403: -32003, 404: -32004 };

function jsonRpcIdOf(body: string): string | number | null {
  try {
    const message = JSON.parse(body) as { id?: unknown };
    return typeof message?.id === 'string' || typeof message?.id === 'number' ? message.id : null;
  } catch {
    return null;
  }
}

/** A 401 names the resource's OAuth metadata (RFC 9728): that is how an agent platform finds where to sign in. */
function mcpErrorReply(reply: GatewayReply, body: string, kbId: string, tokenSent: boolean): GatewayReply {
  const data = reply.body as { message?: string };
  const headers =
    reply.status === 401 ? { ...reply.headers, 'WWW-Authenticate': bearerChallenge(`/kb/${encodeURIComponent(kbId)}/mcp`, tokenSent) } : reply.headers;
  return {
    ...reply,
    headers,
    body: {
      jsonrpc: '2.0',
      id: jsonRpcIdOf(body),
      error: { code: JSON_RPC_CODE_BY_STATUS[reply.status] ?? -32603, message: data.message ?? 'Refused.', data },
    },
  };
}

export async function answerMcpPost(request: KeyedRequest & McpPost & { signal: AbortSignal }): Promise<GatewayReply | null> {
  if (refuseForeignOrigin(request.origin)) return null; // the SDK's path answers it
  const admission = await admit(request);
  if (!admission.ok) return mcpErrorReply(gatewayReply(admission, request.requestId), request.body, request.kbId, admission.code !== 'missing_api_key');
  const answered = await directToolCall(request, admission.admitted, request.requestId, request.signal);
  return answered === null ? null : { status: 200, headers: { [REQUEST_ID_HEADER]: request.requestId }, body: answered };
}

export async function serveMcpRequest(request: Request, kbId: string, requestId: string): Promise<Response> {
  const foreign = refuseForeignOrigin(request.headers.get('origin'));
  if (foreign) {
    foreign.headers.set(REQUEST_ID_HEADER, requestId);
    return foreign;
  }
  const admission = await admit({ kbId, requestId, authorization: request.headers.get('authorization') });
  if (!admission.ok) {
    const reply = mcpErrorReply(gatewayReply(admission, requestId), await request.clone().text(), kbId, admission.code !== 'missing_api_key');
    return jsonResponse(reply.body, { status: reply.status, headers: reply.headers });
  }
  const { admitted } = admission;
  const post = {
    origin: null,
    accept: request.headers.get('accept'),
    contentType: request.headers.get('content-type'),
    protocolVersion: request.headers.get('mcp-protocol-version'),
  };
  const answered = await directToolCall({ ...post, body: await request.clone().text() }, admitted, requestId, request.signal);
  if (answered !== null) return jsonResponse(answered, { headers: { [REQUEST_ID_HEADER]: requestId } });
  const intro = (await findKnowledgeBaseIntro(admitted.db, admitted.kb.id)) ?? { title: admitted.kb.id, summary: '' };
  const exchange: McpExchange = { admitted, intro, requestId, signal: request.signal };
  const authInfo: AuthInfo = {
    token: 'almanac-key',
    clientId: admitted.record.keyId,
    scopes: ['kb:query'],
    extra: exchange as unknown as Record<string, unknown>,
  };
  const legacy = await isLegacyRequest(request, undefined, { maxRequestBodySize: MAX_BODY_BYTES });
  const response = legacy ? await serveLegacy(request, authInfo) : await modernHandler.fetch(request, { authInfo });
  const headers = new Headers(response.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  return new Response(response.body, { status: response.status, headers });
}

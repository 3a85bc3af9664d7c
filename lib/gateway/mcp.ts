import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { errorBody } from '@/lib/platform/errors';
import { REQUEST_ID_HEADER, jsonResponse } from '@/lib/platform/http';
import { admit, consumeRateLimit, type Admitted, type KeyedRequest } from './admission';
import { findKnowledgeBaseIntro } from './key-lookup';
import type { GatewayDenial, GatewayOutcome } from './outcome';
import { MAX_QUERY_CHARS, meterAnswer, validateQuery } from './pipeline';
import { DEFAULT_TOP_K, MAX_TOP_K, meterSearch, toSearchResults, validateTopK } from './search';
import { gatewayReply, type GatewayReply } from './web';

/**
 * /kb/{kb_id}/mcp (docs/api.md §10.1): the knowledge base as a remote MCP server over Streamable HTTP, built on the
 * official SDK, stateless (every HTTP request stands alone, so any instance answers any request). The key and rows
 * 1–6 of the check order are HTTP answers before the MCP exchange; the rate limit and the cap apply per tool call and
 * come back as tool errors carrying the API's code, message and `retry_after` or `resets_at`. `ask` is metered like
 * /query and `search` like /search, under the same fair-metering rules.
 */

type ToolOutcome = GatewayOutcome<unknown>;

function toolError(denial: GatewayDenial, requestId: string): CallToolResult {
  const body = errorBody(denial.code, denial.message, requestId, denial.extras);
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

function toolResult<T>(outcome: GatewayOutcome<T>, requestId: string, present: (value: T) => { text: string; structured: Record<string, unknown> }): CallToolResult {
  if (outcome.ok === 'replayed') throw new Error('MCP tool calls are never replayed.');
  if (!outcome.ok) return toolError(outcome, requestId);
  const { text, structured } = present(outcome.answer);
  return { content: [{ type: 'text', text }], structuredContent: { ...structured, usage: { ...outcome.usage, remaining: Math.max(0, outcome.usage.cap - outcome.usage.used) } } };
}

/**
 * The two tools' inputs, shared by the SDK's registration and the direct path below. Only the types are declared: the
 * SDK would answer a bound broken here with its own protocol error, while a blank or over-long query and an out-of-range
 * top_k are row 8 of the check order, a tool error carrying the API's body (docs/api.md §10.1), as on /query.
 */
const askInput = { query: z.string().describe(`The question, in natural language (at most ${MAX_QUERY_CHARS} characters).`) };
const searchInput = {
  query: z.string().describe(`What to look for (at most ${MAX_QUERY_CHARS} characters).`),
  top_k: z.number().optional().describe(`How many passages: an integer from 1 to ${MAX_TOP_K}, default ${DEFAULT_TOP_K}.`),
};

/** Built once: constructing zod schemas costs more than using them. */
const ASK_ARGS = z.object(askInput).strict();
const SEARCH_ARGS = z.object(searchInput).strict();
const TOOL_CALL = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number().int()]),
  method: z.literal('tools/call'),
  params: z.object({ name: z.enum(['ask', 'search']), arguments: z.record(z.string(), z.unknown()) }),
});

/** Runs one tool call against the admitted key: row 7 and the query check per call, then the metered backend call. */
async function callTool(admitted: Admitted, requestId: string, signal: AbortSignal, name: 'ask' | 'search', args: { query: string; top_k?: number }): Promise<CallToolResult> {
  const limited = await consumeRateLimit(admitted);
  if (!limited.ok) return toolError(limited, requestId);
  const refuse = (refused: { code: 'invalid_query' | 'payload_too_large'; message: string }) =>
    toolError({ ok: false, status: 400, code: refused.code, message: refused.message, extras: {}, headers: {} }, requestId);
  const checked = validateQuery(args.query);
  if (!checked.ok) return refuse(checked);
  const topK = validateTopK(args.top_k);
  if (!topK.ok) return refuse(topK);
  const started = Date.now();
  if (name === 'ask') {
    const outcome: ToolOutcome = await meterAnswer(admitted, limited.headers, { requestId, signal }, checked.value, started);
    return toolResult(outcome as GatewayOutcome<{ answer: string; citations: unknown[]; tokens_used: number }>, requestId, (answer) => ({
      text: answer.citations.length ? `${answer.answer}\n\nSources: ${JSON.stringify(answer.citations)}` : answer.answer,
      structured: answer,
    }));
  }
  const outcome = await meterSearch(admitted, limited.headers, { requestId, signal }, { query: checked.value, topK: topK.value }, started);
  return toolResult(outcome, requestId, (passages) => {
    const results = toSearchResults(passages);
    return { text: JSON.stringify(results), structured: { ...results } };
  });
}

function buildServer(admitted: Admitted, intro: { title: string; summary: string }, requestId: string, signal: AbortSignal): McpServer {
  const server = new McpServer(
    { name: intro.title, version: '1.0.0' },
    {
      instructions: `${intro.summary}\n\nAsk questions with the "ask" tool (an answer with citations) or fetch passages with "search". Each call is metered against this subscription's plan; a call that finds nothing is free.`,
    },
  );
  server.registerTool(
    'ask',
    {
      title: `Ask ${intro.title}`,
      description: `Answers a question from "${intro.title}" with citations (document, title, verbatim excerpt, page). Use it for factual questions this knowledge base covers. Counted against the plan's monthly cap; an answer with no citations is free.`,
      inputSchema: askInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => callTool(admitted, requestId, signal, 'ask', args),
  );
  server.registerTool(
    'search',
    {
      title: `Search ${intro.title}`,
      description: `Returns the passages of "${intro.title}" most relevant to a query (document id, title, verbatim excerpt, page, score from 0 to 1), best first, without writing an answer. Counted like a question; an empty result is free.`,
      inputSchema: searchInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => callTool(admitted, requestId, signal, 'search', args),
  );
  return server;
}

/**
 * The direct path for the one message agents send most: a single, well-formed `tools/call` of `ask` or `search`.
 * The SDK's stateless pattern builds a server and transport per HTTP request (about 2 ms of CPU, ten times the
 * gateway's own work); a tool call needs none of that, so it is answered here with the same tool code and the same
 * JSON-RPC result. Anything else — initialize, tools/list, batches, a bad header or argument — goes to the SDK, which
 * answers it (and its errors) by the protocol.
 */
interface McpPost {
  accept: string | null;
  contentType: string | null;
  protocolVersion: string | null;
  body: string;
}

/** The JSON-RPC result of a direct tool call, or null when the message is for the SDK. */
async function directToolCall(post: McpPost, admitted: Admitted, requestId: string, signal: AbortSignal): Promise<unknown | null> {
  const accept = post.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return null;
  if (!(post.contentType ?? '').toLowerCase().startsWith('application/json')) return null;
  if (post.protocolVersion !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(post.protocolVersion)) return null;
  let message: unknown;
  try {
    message = JSON.parse(post.body);
  } catch {
    return null;
  }
  const call = TOOL_CALL.safeParse(message);
  if (!call.success) return null;
  const args = (call.data.params.name === 'ask' ? ASK_ARGS : SEARCH_ARGS).safeParse(call.data.params.arguments);
  if (!args.success) return null;
  const result = await callTool(admitted, requestId, signal, call.data.params.name, args.data);
  return { jsonrpc: '2.0', id: call.data.id, result };
}

/**
 * The fast lane's entry (lib/gateway/node.ts): rows 1–6 and a direct tool call without building a Web Request.
 * Answers a reply, or null when the message needs the SDK (then the lane hands a Web Request to serveMcpRequest).
 */
export async function answerMcpPost(request: KeyedRequest & McpPost & { signal: AbortSignal }): Promise<GatewayReply | null> {
  const admission = await admit(request);
  if (!admission.ok) return gatewayReply(admission, request.requestId);
  const answered = await directToolCall(request, admission.admitted, request.requestId, request.signal);
  return answered === null ? null : { status: 200, headers: { [REQUEST_ID_HEADER]: request.requestId }, body: answered };
}

/** One POST to the MCP endpoint (the only method it serves): rows 1–6 as HTTP, then the MCP exchange (stateless). */
export async function serveMcpRequest(request: Request, kbId: string, requestId: string): Promise<Response> {
  const admission = await admit({ kbId, requestId, authorization: request.headers.get('authorization') });
  if (!admission.ok) {
    const reply = gatewayReply(admission, requestId);
    return jsonResponse(reply.body, { status: reply.status, headers: reply.headers });
  }
  const { admitted } = admission;
  const post = { accept: request.headers.get('accept'), contentType: request.headers.get('content-type'), protocolVersion: request.headers.get('mcp-protocol-version') };
  const answered = await directToolCall({ ...post, body: await request.clone().text() }, admitted, requestId, request.signal);
  if (answered !== null) return jsonResponse(answered, { headers: { [REQUEST_ID_HEADER]: requestId } });
  const intro = (await findKnowledgeBaseIntro(admitted.db, admitted.kb.id)) ?? { title: admitted.kb.id, summary: '' };
  const server = buildServer(admitted, intro, requestId, request.signal);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request);
    response.headers.set(REQUEST_ID_HEADER, requestId);
    return response;
  } finally {
    await server.close().catch(() => {});
  }
}

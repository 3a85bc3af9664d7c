import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { errorBody } from '@/lib/platform/errors';
import { REQUEST_ID_HEADER, jsonResponse } from '@/lib/platform/http';
import { admit, consumeRateLimit, type Admitted } from './admission';
import { findKnowledgeBaseIntro } from './key-lookup';
import type { GatewayDenial, GatewayOutcome } from './outcome';
import { MAX_QUERY_CHARS, meterAnswer, validateQuery } from './pipeline';
import { DEFAULT_TOP_K, MAX_TOP_K, meterSearch, toSearchResults } from './search';
import { gatewayReply } from './web';

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

function buildServer(admitted: Admitted, intro: { title: string; summary: string }, requestId: string, signal: AbortSignal): McpServer {
  const server = new McpServer(
    { name: intro.title, version: '1.0.0' },
    {
      instructions: `${intro.summary}\n\nAsk questions with the "ask" tool (an answer with citations) or fetch passages with "search". Each call is metered against this subscription's plan; a call that finds nothing is free.`,
    },
  );
  const started = () => Date.now();
  type Step<T> = { ok: true; value: T } | { ok: false; result: CallToolResult };
  /** Row 7 and the query check of row 8, per tool call: a refusal is a tool error, not a transport failure. */
  const admitCall = async (query: string): Promise<Step<{ headers: Record<string, string>; query: string }>> => {
    const limited = await consumeRateLimit(admitted);
    if (!limited.ok) return { ok: false, result: toolError(limited, requestId) };
    const checked = validateQuery(query);
    if (!checked.ok) return { ok: false, result: toolError({ ok: false, status: 400, code: checked.code, message: checked.message, extras: {}, headers: {} }, requestId) };
    return { ok: true, value: { headers: limited.headers, query: checked.value } };
  };

  server.registerTool(
    'ask',
    {
      title: `Ask ${intro.title}`,
      description: `Answers a question from "${intro.title}" with citations (document, title, verbatim excerpt, page). Use it for factual questions this knowledge base covers. Counted against the plan's monthly cap; an answer with no citations is free.`,
      inputSchema: { query: z.string().min(1).max(MAX_QUERY_CHARS).describe('The question, in natural language.') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query }): Promise<CallToolResult> => {
      const call = await admitCall(query);
      if (!call.ok) return call.result;
      const outcome: ToolOutcome = await meterAnswer(admitted, call.value.headers, { requestId, signal }, call.value.query, started());
      return toolResult(outcome as GatewayOutcome<{ answer: string; citations: unknown[]; tokens_used: number }>, requestId, (answer) => ({
        text: answer.citations.length ? `${answer.answer}\n\nSources: ${JSON.stringify(answer.citations)}` : answer.answer,
        structured: answer,
      }));
    },
  );

  server.registerTool(
    'search',
    {
      title: `Search ${intro.title}`,
      description: `Returns the passages of "${intro.title}" most relevant to a query (document id, title, verbatim excerpt, page, score from 0 to 1), best first, without writing an answer. Counted like a question; an empty result is free.`,
      inputSchema: {
        query: z.string().min(1).max(MAX_QUERY_CHARS).describe('What to look for.'),
        top_k: z.number().int().min(1).max(MAX_TOP_K).optional().describe(`How many passages (1–${MAX_TOP_K}, default ${DEFAULT_TOP_K}).`),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, top_k }): Promise<CallToolResult> => {
      const call = await admitCall(query);
      if (!call.ok) return call.result;
      const outcome = await meterSearch(admitted, call.value.headers, { requestId, signal }, { query: call.value.query, topK: top_k ?? DEFAULT_TOP_K }, started());
      return toolResult(outcome, requestId, (passages) => {
        const results = toSearchResults(passages);
        return { text: JSON.stringify(results), structured: { ...results } };
      });
    },
  );
  return server;
}

/** One HTTP request to the MCP endpoint: rows 1–6 as HTTP, then the MCP exchange (stateless). */
export async function serveMcpRequest(request: Request, kbId: string, requestId: string): Promise<Response> {
  const admission = await admit({ kbId, requestId, authorization: request.headers.get('authorization') });
  if (!admission.ok) {
    const reply = gatewayReply(admission, requestId);
    return jsonResponse(reply.body, { status: reply.status, headers: reply.headers });
  }
  const { admitted } = admission;
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

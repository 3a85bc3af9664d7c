import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { FuzzCase } from './cases';
import type { WireResult } from './wire';

/**
 * What every answer must be, whatever was sent (docs/api.md §7.1, §12): never a 500; a 5xx only as a documented
 * error; and under /api and /kb every error is a JSON error body `{error, message, request_id}` whose request_id is
 * the X-Request-Id header (405s with `Allow`). Returns what is wrong, or null.
 */

/** The path Next routes, as lib/server/front-door.ts classifies it: dot segments resolved, slashes collapsed. */
function routedPath(path: string): string | null {
  if (!path.startsWith('/')) return null;
  try {
    return new URL(`http://fuzz.test${path.split(/[?#]/, 1)[0]}`).pathname.replace(/\/{2,}/g, '/');
  } catch {
    return null;
  }
}

const isJsonSurface = (path: string) => {
  const routed = routedPath(path);
  return routed === null || /^\/(?:api|kb|dify)(?:\/|$)/.test(routed);
};

/** 5xx answers the interface documents: our own refusal of an unknown method, and the publisher and Stripe rows. */
const DOCUMENTED_5XX = new Set(['not_implemented', 'publisher_error', 'service_unavailable', 'publisher_timeout']);

function decoded(body: Buffer, encoding: string): Buffer {
  try {
    if (encoding === 'gzip') return gunzipSync(body);
    if (encoding === 'br') return brotliDecompressSync(body);
    if (encoding === 'deflate') return inflateSync(body);
  } catch {
    return body;
  }
  return body;
}

/** Node's own answer to a request its parser refused: no body, no header of ours, the connection closed. */
export function isParserRefusal({ status, headers, body }: { status: number; headers: Record<string, unknown>; body: Buffer }): boolean {
  return (status === 400 || status === 431) && headers['x-request-id'] === undefined && body.length === 0 && headers.connection === 'close';
}

/** Node refuses a larger request head and closes, often before the client is done sending it. */
const HEAD_LIMIT = 16 * 1024;
const headSize = (c: FuzzCase) => c.request!.path.length + c.request!.headers.reduce((size, [name, value]) => size + name.length + value.length + 4, 0);

/**
 * Node's parser also refuses a target holding bytes outside printable ASCII (a raw "â"), answering 400 and closing at
 * once: a client still writing the body may see the reset before it reads that answer.
 */
const parserRefusesTarget = (c: FuzzCase) => /[^\x21-\x7e]/.test(c.request!.path);

export function checkAnswer(c: FuzzCase, result: WireResult): string | null {
  const reset = !result.ok && /ECONNRESET|EPIPE|socket hang up/.test(result.error);
  if (reset && (headSize(c) > HEAD_LIMIT - 512 || parserRefusesTarget(c))) return null;
  if (!result.ok && c.mayHang) return null;
  if (!result.ok) return `no answer (${result.error})`;
  const { status, headers, body } = result.response;
  const request = c.request!;
  const text = decoded(body, String(headers['content-encoding'] ?? '')).toString('utf8');
  const type = String(headers['content-type'] ?? '');
  const requestId = headers['x-request-id'];

  // Node's HTTP parser refuses some requests before any route (or the front door) sees them: a request line or headers
  // over 16 KiB, bytes it does not allow in the target. It answers a bare 400 or 431 and closes (docs/api.md §7.1).
  if (isParserRefusal(result.response)) return null;

  if (status === 500) return `500 ${type} ${text.slice(0, 200)}`;
  if (/^Internal Server Error/.test(text)) return `${status} with Next's plain-text "Internal Server Error"`;

  const json = isJsonSurface(request.path);
  let parsed: unknown;
  if (json && status >= 400) {
    if (!type.startsWith('application/json')) return `${status} under /api or /kb is not JSON (${type || 'no Content-Type'}): ${text.slice(0, 120)}`;
    if (typeof requestId !== 'string' || !/^req_[0-9A-Za-z]+$/.test(requestId)) return `${status} without X-Request-Id`;
    if (request.method === 'HEAD') return status === 405 && !headers.allow ? '405 without Allow' : null;
    try {
      parsed = JSON.parse(text);
    } catch {
      return `${status} body is not JSON: ${text.slice(0, 120)}`;
    }
    const error = parsed as Record<string, unknown>;
    // The MCP endpoint speaks JSON-RPC once past the HTTP checks (docs/api.md §10.1): its transport's own refusals
    // (406 without the Accept it requires, 400 on a message that is not JSON) are JSON-RPC error objects, as MCP
    // clients expect, still with X-Request-Id. A dot segment ("/kb/./mcp") reaches it as the id ".": the path is matched
    // as sent as well as resolved.
    const mcpPath = (path: string | null) => /^\/kb\/[^/]+\/mcp$/.test(path ?? '');
    if ((mcpPath(routedPath(request.path)) || mcpPath(request.path.split(/[?#]/, 1)[0] ?? null)) && error?.jsonrpc === '2.0' && typeof error.error === 'object')
      return null;
    if (typeof error !== 'object' || error === null || typeof error.error !== 'string' || typeof error.message !== 'string') {
      return `${status} is not an error body: ${text.slice(0, 160)}`;
    }
    if (error.request_id !== requestId) return `${status} request_id ${String(error.request_id)} differs from X-Request-Id ${requestId}`;
    if (status === 405 && !headers.allow) return '405 without Allow';
  }
  if (status >= 500) {
    // A path the checker does not take for a JSON surface (a dot segment, `/api/.%2e/…`) may still be one to the
    // server, which then answers a JSON error body: its code is read all the same.
    if (parsed === undefined && type.startsWith('application/json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        // Judged below as undocumented.
      }
    }
    const code = (parsed as { error?: unknown } | undefined)?.error;
    const frontDoorPage = status === 501 && type.startsWith('text/html') && typeof requestId === 'string';
    if (!frontDoorPage && !(typeof code === 'string' && DOCUMENTED_5XX.has(code))) return `undocumented ${status}: ${type} ${text.slice(0, 160)}`;
  }
  return null;
}

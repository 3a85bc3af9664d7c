import { ERROR_STATUS, errorBody, type ErrorCode } from '@/lib/platform/errors';
import { REQUEST_ID_HEADER, jsonResponse, readBodyWithin } from '@/lib/platform/http';
import { decodeUtf8 } from '@/lib/platform/text-input';
import { streamGatewayQuery, sseFrame, wantsEventStream, type EventStreamWriter } from './stream';
import type { GatewayRequest } from './keyed';
import type { GatewayOutcome } from './outcome';
import { handleGatewayRequest } from './pipeline';
import type { BodyReadResult } from './request-body';
import { MAX_BODY_BYTES } from './schemas';

/** The Web face of the gateway, for Next's route handlers; no CORS, because keys are for servers, not browsers. */

export interface GatewayReply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export function gatewayReply(outcome: GatewayOutcome<unknown>, requestId: string): GatewayReply {
  const headers = { ...outcome.headers, [REQUEST_ID_HEADER]: requestId, 'Cache-Control': 'no-store' };
  if (outcome.ok === 'replayed') return { status: outcome.status, headers, body: outcome.body };
  if (outcome.ok) return { status: 200, headers, body: outcome.answer };
  return { status: outcome.status, headers, body: errorBody(outcome.code, outcome.message, requestId, outcome.extras) };
}

export function gatewayErrorReply(code: ErrorCode, message: string, requestId: string, headers: Record<string, string> = {}): GatewayReply {
  return {
    status: ERROR_STATUS[code],
    headers: { ...headers, [REQUEST_ID_HEADER]: requestId, 'Cache-Control': 'no-store' },
    body: errorBody(code, message, requestId),
  };
}

/** A hard 16 KiB limit on the stream, so a lying Content-Length cannot get more in; non-UTF-8 is refused, not replaced. */
async function readLimitedBody(request: Request, limit = MAX_BODY_BYTES): Promise<BodyReadResult> {
  const bytes = await readBodyWithin(request, limit);
  if (bytes === null) return { ok: false, reason: 'too_large' };
  const text = decodeUtf8(bytes);
  return text === null ? { ok: false, reason: 'invalid_utf8' } : { ok: true, text };
}

function toGatewayRequest(request: Request, kbId: string, requestId: string): GatewayRequest {
  return {
    kbId,
    requestId,
    authorization: request.headers.get('authorization'),
    contentType: request.headers.get('content-type'),
    idempotencyKey: request.headers.get('idempotency-key'),
    readBody: () => readLimitedBody(request),
    signal: request.signal,
  };
}

export async function serveKeyed(
  request: Request,
  kbId: string,
  requestId: string,
  handle: (request: GatewayRequest) => Promise<GatewayOutcome<unknown>>,
  shape: (outcome: GatewayOutcome<unknown>, requestId: string, authorization: string | null) => GatewayReply = gatewayReply,
): Promise<Response> {
  const keyed = toGatewayRequest(request, kbId, requestId);
  const reply = shape(await handle(keyed), requestId, keyed.authorization);
  return jsonResponse(reply.body, { status: reply.status, headers: reply.headers });
}

export function serveQueryRequest(request: Request, kbId: string, requestId: string): Promise<Response> {
  if (wantsEventStream(request.headers.get('accept'))) return serveStreamedQuery(request, kbId, requestId);
  return serveKeyed(request, kbId, requestId, handleGatewayRequest);
}

async function serveStreamedQuery(request: Request, kbId: string, requestId: string): Promise<Response> {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let announceOpen!: (headers: Record<string, string>) => void;
  const opened = new Promise<Record<string, string>>((resolve) => (announceOpen = resolve));
  let open = false;
  let gone = false;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => void (gone = true),
  });
  const write = (text: string) => {
    if (gone) return false;
    try {
      controller.enqueue(encoder.encode(text));
      return true;
    } catch {
      gone = true;
      return false;
    }
  };
  const writer: EventStreamWriter = {
    open: (headers) => {
      open = true;
      announceOpen(headers);
    },
    send: (event, data) => write(sseFrame(event, data)),
    comment: (text) => write(`: ${text}\n\n`),
    close: () => {
      if (!gone) controller.close();
      gone = true;
    },
    get isOpen() {
      return open && !gone;
    },
  };
  const finished = streamGatewayQuery(toGatewayRequest(request, kbId, requestId), writer);
  const first = await Promise.race([opened.then((headers) => ({ headers })), finished.then((outcome) => ({ outcome }))]);
  if ('outcome' in first && !open) {
    const reply = gatewayReply(first.outcome, requestId);
    return jsonResponse(reply.body, { status: reply.status, headers: reply.headers });
  }
  const headers = 'headers' in first ? first.headers : await opened;
  return new Response(body, { status: 200, headers: { ...headers, [REQUEST_ID_HEADER]: requestId } });
}

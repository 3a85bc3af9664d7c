import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { constants as zlibConstants, gzip } from 'node:zlib';
import {
  KEYED_ENDPOINTS,
  MAX_BODY_BYTES,
  answerMcpPost,
  gatewayErrorReply,
  gatewayReply,
  servedMethods,
  serveMcpRequest,
  sseFrame,
  streamGatewayQuery,
  wantsEventStream,
  type BodyReadResult,
  type EventStreamWriter,
  type GatewayReply,
  type KeyedEndpointName,
} from '@/lib/gateway';
import { INTERNAL_ERROR_MESSAGE, methodNotAllowedMessage, newRequestId, REQUEST_ID_HEADER, serializeJson } from '@/lib/platform/http';
import { HTTP_METHODS } from '@/lib/platform/route-methods';
import { isHttpsSite } from '@/lib/platform/base-url';
import { log } from '@/lib/platform/log';
import { securityHeaders } from '@/lib/platform/security-headers.mjs';
import { decodeUtf8 } from '@/lib/platform/text-input';
import { GZIP_MIN_BYTES, acceptsGzip } from './content-encoding';
import { decodePathSegment } from './front-door';

/**
 * The keyed endpoints (lib/gateway/endpoints.ts, docs/api.md §3 and §10) answered straight from Node's server in front
 * of Next, whose request machinery costs more CPU than the whole keyed check (bench/gateway). The same endpoint table
 * builds the route handlers under app/kb and app/dify, which serve these paths under `next dev` or a bare `next start`.
 */
export interface LaneTarget {
  endpoint: KeyedEndpointName;
  /** Empty for Dify, whose knowledge base is named in the body. */
  kbId: string;
}

const KB_PREFIX = '/kb/{kb_id}/';
const KB_ENDPOINTS = new Map(
  Object.entries(KEYED_ENDPOINTS)
    .filter(([, { path }]) => path.startsWith(KB_PREFIX))
    .map(([name, { path }]) => [path.slice(KB_PREFIX.length), name as KeyedEndpointName]),
);
const KB_PATH = /^\/kb\/([^/?#]+)\/([^/?#]+)(?:\?|$)/;
// A base URL registered with a trailing slash gives `/dify//retrieval`: tolerated, as is `/dify/retrieval/`.
const DIFY_PATH = /^\/dify\/+retrieval\/?(?:\?|$)/;

/** A path that cannot be decoded is not matched: the front door answers it (400 `invalid_path`). */
export function matchKeyedPath(url: string | undefined): LaneTarget | null {
  if (!url) return null;
  if (DIFY_PATH.test(url)) return { endpoint: 'dify', kbId: '' };
  const match = KB_PATH.exec(url);
  const endpoint = match && KB_ENDPOINTS.get(match[2]!);
  if (!endpoint) return null;
  const kbId = decodePathSegment(match[1]!);
  return kbId === null ? null : { endpoint, kbId };
}

export function matchQueryPath(url: string | undefined): string | null {
  const target = matchKeyedPath(url);
  return target?.endpoint === 'query' ? target.kbId : null;
}

/** A header's value as the fetch API's `Headers.get` gives it: repeated fields joined with ", " (Node keeps only the first Authorization). */
function headerValue(req: IncomingMessage, name: string): string | null {
  const raw = req.rawHeaders;
  let value: string | null = null;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const field = raw[i]!;
    const fieldValue = raw[i + 1]!;
    if (field.length === name.length && field.toLowerCase() === name) value = value === null ? fieldValue : `${value}, ${fieldValue}`;
  }
  return value;
}

/** At most `limit` bytes: a larger body, declared or actual, is refused unbuffered; so are bytes that are not UTF-8. */
function readNodeBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyReadResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ ok: false, reason: 'too_large' });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done();
        resolve({ ok: false, reason: 'too_large' });
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      const text = decodeUtf8(Buffer.concat(chunks, size));
      resolve(text === null ? { ok: false, reason: 'invalid_utf8' } : { ok: true, text });
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

const gzipAsync = promisify(gzip);

function answerSecurityHeaders(): Record<string, string> {
  const https = isHttpsSite();
  if (cachedSecurityHeaders?.https !== https) {
    cachedSecurityHeaders = { https, headers: Object.fromEntries(securityHeaders({ https }).map(({ key, value }) => [key, value])) };
  }
  return cachedSecurityHeaders.headers;
}
let cachedSecurityHeaders: { https: boolean; headers: Record<string, string> } | undefined;

async function send(req: IncomingMessage, res: ServerResponse, { status, headers, body }: GatewayReply): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  let payload = Buffer.from(serializeJson(body), 'utf8');
  const out: Record<string, string> = { ...answerSecurityHeaders(), ...headers, 'Content-Type': 'application/json; charset=utf-8', Vary: 'Accept-Encoding' };
  if (payload.length >= GZIP_MIN_BYTES && acceptsGzip(req.headers['accept-encoding'])) {
    // Answers are made per request and never cached: speed over the last few percent of size.
    payload = await gzipAsync(payload, { level: zlibConstants.Z_BEST_SPEED });
    out['Content-Encoding'] = 'gzip';
  }
  out['Content-Length'] = String(payload.length);
  if (!res.headersSent && !res.destroyed) res.writeHead(status, out).end(payload);
}

export async function serveKeyedOverNode(req: IncomingMessage, res: ServerResponse, target: LaneTarget): Promise<void> {
  const requestId = newRequestId();
  try {
    const served = servedMethods(target.endpoint);
    // A method outside the seven is not implemented anywhere (§7.1), as the front door answers elsewhere.
    if (!(HTTP_METHODS as readonly string[]).includes(req.method ?? '')) {
      await send(
        req,
        res,
        gatewayErrorReply('not_implemented', `${(req.method ?? 'This method').slice(0, 20)} is not a method this server implements.`, requestId),
      );
      return;
    }
    if (!(served as readonly string[]).includes(req.method ?? '')) {
      const allow = served.join(', ');
      await send(req, res, gatewayErrorReply('method_not_allowed', methodNotAllowedMessage(req.method ?? 'This method', served), requestId, { Allow: allow }));
      return;
    }
    if (target.endpoint === 'mcp') {
      // The common case, a tool call, is answered without building a Web Request (lib/gateway/mcp.ts).
      const body = await readNodeBody(req);
      if (!body.ok) {
        const tooLarge = body.reason === 'too_large';
        return await send(
          req,
          res,
          gatewayErrorReply(
            tooLarge ? 'payload_too_large' : 'invalid_query',
            tooLarge ? `The request body is larger than ${MAX_BODY_BYTES} bytes.` : 'The request body is not valid UTF-8.',
            requestId,
          ),
        );
      }
      const hungUp = new AbortController();
      res.once('close', () => !res.writableFinished && hungUp.abort());
      const reply = await answerMcpPost({
        kbId: target.kbId,
        requestId,
        authorization: headerValue(req, 'authorization'),
        origin: headerValue(req, 'origin'),
        accept: headerValue(req, 'accept'),
        contentType: headerValue(req, 'content-type'),
        protocolVersion: headerValue(req, 'mcp-protocol-version'),
        body: body.text,
        signal: hungUp.signal,
      });
      if (reply) return await send(req, res, reply);
      return await serveWebOverNode(req, res, (request) => serveMcpRequest(request, target.kbId, requestId), body.text);
    }
    // A buyer who hangs up stops the publisher call; its cap unit is then given back like any failed answer.
    const hangUp = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) hangUp.abort();
    });
    const request = {
      kbId: target.kbId,
      requestId,
      authorization: headerValue(req, 'authorization'),
      contentType: headerValue(req, 'content-type'),
      idempotencyKey: headerValue(req, 'idempotency-key'),
      readBody: () => readNodeBody(req),
      signal: hangUp.signal,
    };
    if (target.endpoint === 'query' && wantsEventStream(headerValue(req, 'accept'))) {
      const writer = nodeEventStream(res, requestId);
      const outcome = await streamGatewayQuery(request, writer);
      if (!writer.wasOpened) await send(req, res, gatewayReply(outcome, requestId));
      return;
    }
    const endpoint = KEYED_ENDPOINTS[target.endpoint];
    await send(req, res, endpoint.reply(await endpoint.answer(request), requestId, request.authorization));
  } catch (err) {
    log.error({ err, request_id: requestId, method: req.method, path: req.url?.split('?')[0] }, 'unhandled error');
    await send(req, res, gatewayErrorReply('internal_error', INTERNAL_ERROR_MESSAGE, requestId)).catch(() => res.destroy());
  }
}

export function serveQueryOverNode(req: IncomingMessage, res: ServerResponse, kbId: string): Promise<void> {
  return serveKeyedOverNode(req, res, { endpoint: 'query', kbId });
}

/** A Web handler (the MCP SDK's transport) on the Node server, given the body already read under the keyed ceiling. */
async function serveWebOverNode(req: IncomingMessage, res: ServerResponse, handle: (request: Request) => Promise<Response>, body: string): Promise<void> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const hangUp = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) hangUp.abort();
  });
  const response = await handle(new Request(`http://localhost${req.url ?? '/'}`, { method: req.method, headers, body, signal: hangUp.signal }));
  const out: Record<string, string> = { ...answerSecurityHeaders() };
  response.headers.forEach((value, name) => (out[name] = value));
  res.writeHead(response.status, out);
  if (!response.body) return void res.end();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
  res.end();
}

function nodeEventStream(res: ServerResponse, requestId: string): EventStreamWriter & { readonly wasOpened: boolean } {
  let opened = false;
  const write = (text: string) => {
    if (res.destroyed || res.writableEnded) return false;
    res.write(text);
    return !res.destroyed;
  };
  return {
    open(headers) {
      opened = true;
      res.writeHead(200, { ...answerSecurityHeaders(), ...headers, [REQUEST_ID_HEADER]: requestId });
      res.flushHeaders();
    },
    send: (event, data) => write(sseFrame(event, data)),
    comment: (text) => write(`: ${text}\n\n`),
    close() {
      if (!res.writableEnded) res.end();
    },
    get isOpen() {
      return opened && !res.destroyed && !res.writableEnded;
    },
    get wasOpened() {
      return opened;
    },
  };
}

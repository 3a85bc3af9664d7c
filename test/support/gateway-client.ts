import http from 'node:http';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { POST, GET, PUT, PATCH, DELETE, OPTIONS } from '@/app/kb/[kbId]/query/route';

/**
 * Calls POST /kb/{kb_id}/query through one of its two faces and returns status, headers and parsed body:
 * - `callGateway`: the Next route handlers, in-process with a Web Request (what `next dev` serves);
 * - `callGatewayOverHttp`: a real HTTP request to a server running the fast lane (what `npm start` serves; see
 *   test/support/gateway-server.ts).
 */
export interface GatewayCall {
  kbId: string;
  authorization?: string | null;
  body?: string | ReadableStream<Uint8Array> | null;
  contentType?: string | null;
  method?: 'POST' | 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  headers?: Record<string, string>;
}

export interface GatewayReply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

const handlers = { POST, GET, PUT, PATCH, DELETE, OPTIONS };

export function jsonQuery(query: unknown): string {
  return JSON.stringify({ query });
}

function framing(call: GatewayCall): { method: NonNullable<GatewayCall['method']>; headers: Headers; body: string | ReadableStream<Uint8Array> | undefined } {
  const method = call.method ?? 'POST';
  const headers = new Headers(call.headers);
  if (call.authorization !== undefined && call.authorization !== null) headers.set('authorization', call.authorization);
  const contentType = call.contentType === undefined ? 'application/json' : call.contentType;
  if (contentType !== null) headers.set('content-type', contentType);
  return { method, headers, body: method === 'GET' ? undefined : (call.body ?? undefined) };
}

const parse = (text: string) => (text ? JSON.parse(text) : null);

export async function callGateway(call: GatewayCall): Promise<GatewayReply> {
  const { method, headers, body } = framing(call);
  const request = new Request(`http://localhost/kb/${encodeURIComponent(call.kbId)}/query`, {
    method,
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const response = await handlers[method](request, { params: Promise.resolve({ kbId: call.kbId }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: parse(text), text };
}

/**
 * The same call as a real HTTP/1.1 request to `baseUrl`: a string body goes with its Content-Length, a stream in
 * chunks without one. A gzip-encoded answer is decoded, as fetch would. `signal` hangs up mid-request.
 */
export function callGatewayOverHttp(baseUrl: string, call: GatewayCall, options: { signal?: AbortSignal } = {}): Promise<GatewayReply> {
  const { method, headers, body } = framing(call);
  if (typeof body === 'string') headers.set('content-length', String(Buffer.byteLength(body)));
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}/kb/${encodeURIComponent(call.kbId)}/query`,
      { method, headers: Object.fromEntries(headers), signal: options.signal },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const replyHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) replyHeaders.append(name, v);
          }
          try {
            const raw = Buffer.concat(chunks);
            const decoded = response.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
            const text = decoded.toString('utf8');
            resolve({ status: response.statusCode!, headers: replyHeaders, body: parse(text), text });
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    request.on('error', reject);
    if (body instanceof ReadableStream) Readable.fromWeb(body as import('node:stream/web').ReadableStream).pipe(request);
    else request.end(body);
  });
}

import http from 'node:http';
import net from 'node:net';

/**
 * Requests exactly as the fuzz means them: the path goes on the wire as written (no URL normalisation, so `%ZZ`,
 * `/kb//query` and `/api/../x` arrive as such), headers as a raw list (repeats kept), the body as bytes. No redirect
 * is followed and nothing is decompressed.
 */
export interface WireRequest {
  method: string;
  /** As sent: a latin1 string, so UTF-8 bytes can be written raw (see `rawUtf8`). */
  path: string;
  headers: [string, string][];
  body?: Buffer;
  /** A connection of its own, closed after the answer (for requests whose framing is broken on purpose). */
  ownConnection?: boolean;
}

export interface WireResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

export type WireResult = { ok: true; response: WireResponse } | { ok: false; error: string; ms: number };

/** A string's UTF-8 bytes as a latin1 string: how Node writes a request line or header byte for byte. */
export const rawUtf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * Sends one request. A kept-alive socket the server closed while idle (its keep-alive timeout) fails at once on reuse,
 * before the server saw anything: that one attempt is repeated on a new socket, as HTTP clients do.
 */
export async function send(base: URL, request: WireRequest, timeoutMs = 20_000): Promise<WireResult> {
  const first = await attempt(base, request, timeoutMs);
  return !first.ok && first.staleSocket ? attempt(base, request, timeoutMs) : first;
}

function attempt(base: URL, request: WireRequest, timeoutMs: number): Promise<WireResult & { staleSocket?: boolean }> {
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: WireResult & { staleSocket?: boolean }) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    let req: http.ClientRequest;
    try {
      const flat = request.headers.flat();
      // With a raw header list Node adds no Host of its own.
      if (!request.headers.some(([name]) => name.toLowerCase() === 'host')) flat.unshift('Host', base.host);
      if (request.body && !request.headers.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name)))
        flat.push('Content-Length', String(request.body.length));
      if (request.ownConnection) flat.push('Connection', 'close');
      req = http.request({
        host: base.hostname,
        port: base.port,
        method: request.method,
        path: request.path,
        headers: flat,
        agent: request.ownConnection ? false : agent,
        maxHeaderSize: 1 << 20,
      });
    } catch (error) {
      finish({ ok: false, error: `client refused to send: ${(error as Error).message}`, ms: 0 });
      return;
    }
    req.setTimeout(timeoutMs, () => {
      finish({ ok: false, error: `no answer within ${timeoutMs} ms`, ms: Date.now() - started });
      req.destroy();
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        finish({ ok: true, response: { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms: Date.now() - started } }),
      );
      res.on('error', (error) => finish({ ok: false, error: `response broke off: ${error.message}`, ms: Date.now() - started }));
    });
    // A server may answer before it has read a large body and close the connection: the answer still counts.
    req.on('error', (error: NodeJS.ErrnoException) => {
      const stale = req.reusedSocket && (error.code === 'ECONNRESET' || error.message === 'socket hang up') && Date.now() - started < 1_000;
      setTimeout(
        () =>
          finish({
            ok: false,
            error: `connection: ${error.message}${req.reusedSocket ? ' (kept-alive socket)' : ''} after ${Date.now() - started} ms`,
            ms: Date.now() - started,
            staleSocket: stale,
          }),
        50,
      );
    });
    req.end(request.body);
  });
}

/**
 * Bytes no HTTP client would send (a malformed request line, a header with a bare CR, a truncated chunked body):
 * whatever comes back within the time, or the close, is returned as text. The server must only survive these.
 */
export function sendRaw(base: URL, bytes: Buffer, timeoutMs = 5_000): Promise<{ text: string; error?: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(base.port), base.hostname);
    let text = '';
    const done = (error?: string) => {
      socket.destroy();
      resolve({ text, error });
    };
    socket.setTimeout(timeoutMs, () => done());
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('end', () => done());
    socket.on('error', (error) => done(error.message));
    socket.on('connect', () => socket.end(bytes));
  });
}

export function closeWire(): void {
  agent.destroy();
}

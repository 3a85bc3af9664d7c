import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '@/test/support/listen';
import { createFrontServer, FRONT_SERVER_TIMEOUTS, PEER_HEADER } from './front-server.mjs';

/**
 * The server in front of Next (scripts/serve.mjs): slow clients are cut off, answers in flight are not, and the peer
 * header is the socket's address whatever the client sent. Short timeouts here; the production values are asserted
 * separately.
 */
const SHORT = { headersTimeoutMs: 400, requestTimeoutMs: 800, checkIntervalMs: 50 };

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(handle: Parameters<typeof createFrontServer>[0]) {
  const server = createFrontServer(handle, SHORT);
  const listening = await listenOnLoopback(server);
  close = listening.close;
  return new URL(listening.url);
}

/** Opens a raw connection, writes `start`, then one more `drip` every 100 ms; resolves when the server closes it. */
function dribble(url: URL, start: string, drip: string): Promise<{ ms: number; answer: string }> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const started = Date.now();
    let answer = '';
    socket.write(start);
    const timer = setInterval(() => socket.writable && socket.write(drip), 100);
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ ms: Date.now() - started, answer });
    });
  });
}

describe('front server', () => {
  it('uses bounded timeouts in production: headers 10 s, the whole request 30 s', () => {
    expect(FRONT_SERVER_TIMEOUTS).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, checkIntervalMs: 1_000, keepAliveTimeoutMs: 65_000 });
    const server = createFrontServer(() => undefined);
    expect([server.headersTimeout, server.requestTimeout]).toEqual([10_000, 30_000]);
  });

  it('cuts off a client that dribbles its headers', async () => {
    const url = await serve((_req, res) => res.end('ok'));
    const { ms, answer } = await dribble(url, 'GET / HTTP/1.1\r\nHost: x\r\n', 'X-Slow: 1\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThanOrEqual(SHORT.headersTimeoutMs - 50);
    expect(ms).toBeLessThan(SHORT.headersTimeoutMs + 1_000);
  });

  it('cuts off a client that dribbles its body', async () => {
    const url = await serve((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
      req.on('error', () => undefined);
    });
    const { ms, answer } = await dribble(url, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n', 'a');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThanOrEqual(SHORT.requestTimeoutMs - 50);
    expect(ms).toBeLessThan(SHORT.requestTimeoutMs + 1_000);
  });

  it('does not cut an answer that takes longer than the request timeout once the body has arrived (a slow publisher)', async () => {
    const url = await serve((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.end('late but whole'), SHORT.requestTimeoutMs * 2));
    });
    const response = await fetch(url, { method: 'POST', body: '{"query":"q"}' });
    expect(await response.text()).toBe('late but whole');
  });

  it('replaces a client-sent peer header with the socket address', async () => {
    const seen: unknown[] = [];
    const url = await serve((req, res) => {
      const raw = req.rawHeaders.filter((_, i) => i % 2 === 0 && req.rawHeaders[i]!.toLowerCase() === PEER_HEADER);
      seen.push(req.headers[PEER_HEADER], raw.length);
      res.end();
    });
    await fetch(url, { headers: { [PEER_HEADER]: '198.51.100.1', 'X-Almanac-Peer': '198.51.100.2' } });
    await fetch(url);
    expect(seen).toEqual(['127.0.0.1', 1, '127.0.0.1', 1]);
  });
});

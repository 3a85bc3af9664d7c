// The HTTP server in front of Next (scripts/serve.mjs, `npm start`): its timeouts and the one fact only it knows, the
// socket's peer address. Plain JavaScript, because serve.mjs imports it without a build step; typed by
// front-server.d.mts. lib/platform/client-address.ts reads the peer header this module sets.
import http from 'node:http';
import { PEER_HEADER } from '../platform/peer-header.mjs';

export { PEER_HEADER };

/**
 * Slow clients must not hold connections for minutes (Node's defaults: 60 s for headers, 300 s for a request).
 * `requestTimeout` bounds RECEIVING a request (headers and body), not answering it: a query may then wait up to its
 * publisher's timeout (30 s by default) for the answer, which no timer here cuts. Node checks the deadlines every
 * `checkIntervalMs`, so a slow client is cut off at most that much after its deadline. An idle kept-alive connection
 * stays open `keepAliveTimeoutMs` (Node's default is 5 s): longer than the usual 60 s idle timeout of a load balancer
 * or client pool, so the server never closes a socket that the other side is about to reuse (a reset request).
 */
export const FRONT_SERVER_TIMEOUTS = Object.freeze({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, checkIntervalMs: 1_000, keepAliveTimeoutMs: 65_000 });

/** Replaces any client-sent peer header with the address of the socket the request came on. */
function stampPeer(req) {
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i].toLowerCase() === PEER_HEADER) raw.splice(i, 2);
  const peer = req.socket.remoteAddress ?? '';
  req.headers[PEER_HEADER] = peer;
  raw.push(PEER_HEADER, peer);
}

/**
 * The front server: `handle(req, res)` sees every request with its peer stamped, under the timeouts above.
 * @param {(req: http.IncomingMessage, res: http.ServerResponse) => void} handle
 * @param {{ headersTimeoutMs?: number, requestTimeoutMs?: number, checkIntervalMs?: number, keepAliveTimeoutMs?: number, ServerResponse?: typeof http.ServerResponse }} [options]
 */
export function createFrontServer(handle, options = {}) {
  const { headersTimeoutMs, requestTimeoutMs, checkIntervalMs, keepAliveTimeoutMs } = { ...FRONT_SERVER_TIMEOUTS, ...options };
  const server = http.createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: checkIntervalMs,
      ...(options.ServerResponse ? { ServerResponse: options.ServerResponse } : {}),
    },
    (req, res) => {
      stampPeer(req);
      handle(req, res);
    },
  );
  server.keepAliveTimeout = keepAliveTimeoutMs;
  return server;
}

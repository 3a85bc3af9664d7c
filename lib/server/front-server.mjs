// The HTTP server in front of Next (scripts/serve.mjs, `npm start`): its timeouts and the socket's peer address, which
// lib/platform/client-address.ts reads. Plain JavaScript, imported without a build step; typed by front-server.d.mts.
import http from 'node:http';
import { PEER_HEADER } from '../platform/peer-header.mjs';

export { PEER_HEADER };

/**
 * Node's defaults (60 s for headers, 300 s for a request) let slow clients hold connections for minutes.
 * `requestTimeout` bounds receiving a request, not answering it (a query may wait its publisher's timeout). Keep-alive
 * outlasts the usual 60 s idle timeout of load balancers and client pools, so we never close a socket they reuse.
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

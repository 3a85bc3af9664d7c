#!/usr/bin/env node
// Almanac's HTTP server (what `npm start` runs once the app is built): one Node http server in front of Next.js.
//
// POST /kb/{kb_id}/query, the keyed API, is answered on the gateway's fast lane (lib/gateway/node.ts): the same
// checks and bodies as the route handler, without Next's request machinery, which alone cost more CPU per request
// than keys, limits and metering together (bench/gateway/README.md). Every other request goes to Next, exactly as
// under `next start`. The fast lane is the code Next compiled: instrumentation.ts registers it while Next prepares.
//
// Options as `next start`: -p/--port (default $PORT or 3000), -H/--hostname (default: every interface),
// --keepAliveTimeout <ms>.
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { findFastLane } from '../lib/gateway/fast-lane-slot.mjs';

process.env.NODE_ENV ??= 'production';
process.env.NEXT_TELEMETRY_DISABLED ??= '1';

const { values: options } = parseArgs({
  options: {
    port: { type: 'string', short: 'p' },
    hostname: { type: 'string', short: 'H' },
    keepAliveTimeout: { type: 'string' },
  },
});
const port = Number(options.port ?? process.env.PORT ?? 3000);
const hostname = options.hostname;
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`Invalid port: ${options.port ?? process.env.PORT}`);
  process.exit(1);
}

const { default: next } = await import('next');
const root = path.resolve(import.meta.dirname, '..');
const app = next({ dev: false, dir: root, hostname: hostname ?? 'localhost', port });
await app.prepare();
const nextHandler = app.getRequestHandler();

// The fast lane as instrumentation.ts registered it (lib/gateway/fast-lane-slot.mjs). Next runs instrumentation in the
// background once the server exists, after migrating the database; until then the lane is absent and Next's route
// handler answers the same path (the first requests of a fresh start).

// Once the server is stopping, every answer it starts says `Connection: close` and closes its connection after it, so
// clients move to another instance instead of being served on a kept-alive connection until the drain cuts it.
// writeHead is where Node decides keep-alive, and the implicit header of write()/end() goes through it too.
let stopping = false;
class DrainAwareResponse extends http.ServerResponse {
  writeHead(...args) {
    if (stopping) this.shouldKeepAlive = false;
    return super.writeHead(...args);
  }
}

const server = http.createServer({ ServerResponse: DrainAwareResponse }, (req, res) => {
  const gateway = findFastLane();
  const kbId = gateway ? gateway.match(req.url) : null;
  const handling = kbId === null ? nextHandler(req, res) : gateway.serve(req, res, kbId);
  handling.catch((err) => {
    console.error(`Failed to handle ${req.method} ${req.url?.split('?')[0]}`, err);
    if (!res.headersSent) res.writeHead(500).end('Internal Server Error');
    else res.destroy();
  });
});
if (options.keepAliveTimeout) server.keepAliveTimeout = Number(options.keepAliveTimeout);

server.on('error', (err) => {
  console.error('Failed to start the server:', err.message);
  process.exit(1);
});
server.listen(port, hostname, () => {
  const address = server.address();
  const shown = !hostname || hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname;
  console.log(`Almanac ready on http://${shown}:${typeof address === 'object' && address ? address.port : port}`);
});

// Stop taking connections, let requests in flight finish (at most 10 s), close Next, then exit. The usage recorder
// holds this exit until its last batch is written (lib/gateway/usage-recorder.ts), so no counted query is lost on a deploy.
// Idle connections close at once; a response whose headers went out before the signal (keep-alive already promised)
// leaves its connection idle when it ends, which the sweep closes.
const DRAIN_MS = 10_000;
const IDLE_SWEEP_MS = 100;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => server.closeAllConnections(), DRAIN_MS).unref();
    setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
    server.close(() => {
      app
        .close()
        .catch((err) => console.error(err))
        .finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
    server.closeIdleConnections();
  });
}

#!/usr/bin/env node
// Almanac's HTTP server (what `npm start` runs once the app is built): one Node http server in front of Next.js.
//
// The keyed API (/kb/{kb_id}/…, /dify/retrieval) and the public catalog's GETs are answered on the fast lane
// (lib/server/): the same checks and bodies as the route handlers, without Next's request machinery, which alone cost
// more CPU per request than keys, limits and metering together (bench/gateway/README.md). Every other request goes to
// Next, exactly as under `next start`. The fast lane is the code Next compiled: instrumentation.ts registers it while
// Next prepares.
//
// Options as `next start`: -p/--port (default $PORT or 3000), -H/--hostname (default: every interface),
// --keepAliveTimeout <ms>.
//
// Only this server knows the socket: it replaces any client-sent x-almanac-peer header with the socket's address
// (lib/server/front-server.mjs; lib/platform/client-address.ts reads it), cuts off clients that send their request
// too slowly, and puts the security headers on every answer (lib/platform/security-headers.mjs). It listens before
// Next starts so that the app knows its own address (ALMANAC_LISTEN_URL, the base URL when APP_URL is unset,
// lib/platform/base-url.ts); requests that arrive while Next prepares wait for it.
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createFrontServer, findFastLane, isHttpsUrl, reportRequest, securityHeaders, traceRequest } from '../lib/server/index.mjs';

process.env.NODE_ENV ??= 'production';
process.env.NEXT_TELEMETRY_DISABLED ??= '1';

const { values: options } = parseArgs({
  options: {
    port: { type: 'string', short: 'p' },
    hostname: { type: 'string', short: 'H' },
    keepAliveTimeout: { type: 'string' },
  },
});
// An empty PORT means the default, as an empty value does for every variable of .env.example.
const port = Number(options.port ?? (process.env.PORT?.trim() || 3000));
const hostname = options.hostname;
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`Invalid port: ${options.port ?? process.env.PORT}`);
  process.exit(1);
}

// The fast lane as instrumentation.ts registered it (lib/server/fast-lane-slot.mjs). Next runs instrumentation in the
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

// Next's pages and route handlers get these at run time too: Next bakes next.config.mjs's copy into the build, whose
// APP_URL (and so HSTS) may not be the running one. The fast lane sets the same list on its own answers.
const pageHeaders = securityHeaders({ https: isHttpsUrl(process.env.APP_URL) });

/** @type {((req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>) | undefined} */
let nextHandler;
// Settled once Next has prepared. It exists before the server listens: a request that arrives while Next is still
// loading (a health probe of a fresh start) waits for it instead of finding nothing to wait on.
/** @type {(value?: void) => void} */
let markNextReady;
/** @type {(reason: unknown) => void} */
let failNextReady;
/** @type {Promise<void>} */
const nextReady = new Promise((resolve, reject) => {
  markNextReady = resolve;
  failNextReady = reject;
});
nextReady.catch(() => {}); // reported where start-up awaits it, below

const server = createFrontServer(
  (req, res) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => reportRequest(req.method ?? 'GET', req.url ?? '/', res.statusCode, Number(process.hrtime.bigint() - started) / 1e9));
    const gateway = findFastLane();
    const target = gateway ? gateway.match(req.url) : null;
    let handling;
    if (target !== null)
      handling = traceRequest(`${req.method} ${target.endpoint === 'dify' ? '/dify/retrieval' : `/kb/{kb_id}/${target.endpoint}`}`, () =>
        gateway.serve(req, res, target),
      );
    else {
      for (const { key, value } of pageHeaders) res.setHeader(key, value);
      // What Next would answer with a plain-text 500, a redirect or HTML where JSON is due (lib/server/front-door.ts);
      // a server action's body is read and checked first, and Next reads the copy.
      const screened = gateway ? gateway.screen(req, res) : false;
      if (screened === true) return;
      const toNext = (request) => (nextHandler ? nextHandler(request, res) : nextReady.then(() => nextHandler(request, res)));
      handling = screened === false ? toNext(req) : screened.then((copy) => copy && toNext(copy));
    }
    handling.catch((err) => {
      console.error(`Failed to handle ${req.method} ${req.url?.split('?')[0]}`, err);
      if (!res.headersSent) res.writeHead(500).end('Internal Server Error');
      else res.destroy();
    });
  },
  { ServerResponse: DrainAwareResponse },
);
if (options.keepAliveTimeout) server.keepAliveTimeout = Number(options.keepAliveTimeout);

server.on('error', (err) => {
  console.error('Failed to start the server:', err.message);
  process.exit(1);
});
await new Promise((resolve) => server.listen(port, hostname, resolve));
const address = server.address();
const listeningPort = typeof address === 'object' && address ? address.port : port;
const shown = !hostname || hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname.includes(':') ? `[${hostname}]` : hostname;
const listenUrl = `http://${shown}:${listeningPort}`;
// Before Next (and the app's configuration) loads: the base URL when APP_URL is unset, and the sign that requests come
// through this server, so the peer header can be believed (lib/platform/env.ts).
process.env.ALMANAC_LISTEN_URL = listenUrl;

const { default: next } = await import('next');
const root = path.resolve(import.meta.dirname, '..');
const app = next({ dev: false, dir: root, hostname: hostname ?? 'localhost', port: listeningPort });
app.prepare().then(() => {
  nextHandler = app.getRequestHandler();
  markNextReady();
}, failNextReady);
try {
  await nextReady;
} catch (err) {
  console.error('Failed to start the server:', err instanceof Error ? err.message : err);
  process.exit(1);
}
console.log(`Almanac ready on ${listenUrl}`);

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

#!/usr/bin/env node
// Almanac's HTTP server (`npm start`, options as `next start`): one Node http server in front of Next.js. The keyed API
// and the catalog's GETs take the fast lane (lib/server/), which skips Next's request machinery, the larger CPU cost
// per request (bench/gateway/README.md); everything else goes to Next. Only this server knows the socket, so it sets
// x-almanac-peer (a client's copy is replaced), times out slow requests and adds the security headers (docs/api.md §7.5).
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
// An empty PORT means the default, as for every variable of .env.example.
const port = Number(options.port ?? (process.env.PORT?.trim() || 3000));
const hostname = options.hostname;
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`Invalid port: ${options.port ?? process.env.PORT}`);
  process.exit(1);
}

// Registered by instrumentation.ts once Next has migrated the database; until then Next's route handlers answer.

// While stopping, every answer says `Connection: close`, so clients move to another instance before the drain cuts
// them. writeHead is where Node decides keep-alive, and write()/end()'s implicit header goes through it too.
let stopping = false;
class DrainAwareResponse extends http.ServerResponse {
  writeHead(...args) {
    if (stopping) this.shouldKeepAlive = false;
    return super.writeHead(...args);
  }
}

// At run time: the copy Next bakes into the build may have another APP_URL (and so HSTS) than the running one.
const pageHeaders = securityHeaders({ https: isHttpsUrl(process.env.APP_URL) });

/** @type {((req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>) | undefined} */
let nextHandler;
// Made before the server listens, so a request that arrives while Next is loading has something to wait on.
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
      // What Next would answer with a plain-text 500, a redirect or HTML where JSON is due (lib/server/front-door.ts).
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
// Before Next loads: the base URL when APP_URL is unset, and the sign that the peer header can be believed.
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

// The usage recorder holds the exit until its last batch is written, so no counted query is lost on a deploy. A
// response whose headers promised keep-alive before the signal leaves its connection idle, which the sweep closes.
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

import http from 'node:http';
import { matchKeyedPath, serveKeyedOverNode } from '@/lib/server/keyed-lane';
import { screenNodeRequest } from '@/lib/server/front-door';
import { listenOnLoopback } from './listen';

/**
 * The gateway's fast lane over HTTP without Next: scripts/serve.mjs's dispatch for the keyed endpoints, 404 for every
 * other path. In-process, or as a separate process (`tsx test/support/gateway-server.ts`) for multi-instance tests.
 */
function createGatewayHttpServer(): http.Server {
  return http.createServer((req, res) => {
    const target = matchKeyedPath(req.url);
    if (target !== null) {
      void serveKeyedOverNode(req, res, target);
      return;
    }
    const screened = screenNodeRequest(req, res);
    if (screened === false) res.writeHead(404).end();
    else if (screened !== true) void screened.then((copy) => copy && res.writeHead(404).end());
  });
}

export async function listenGatewayServer(server = createGatewayHttpServer()): Promise<{ url: string; close(): Promise<void> }> {
  server.keepAliveTimeout = 10_000;
  return listenOnLoopback(server);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const { openServerDatabase } = await import('@/lib/seed');
  await openServerDatabase();
  const { log } = await import('@/lib/platform/log');
  const { url } = await listenGatewayServer();
  log.info({ url, pid: process.pid }, 'gateway test server listening');
  console.log(`gateway listening on ${url}`);
}

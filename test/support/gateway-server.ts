import http from 'node:http';
import { matchKeyedPath, serveKeyedOverNode } from '@/lib/server/keyed-lane';
import { screenNodeRequest } from '@/lib/server/front-door';
import { listenOnLoopback } from './listen';

/**
 * The gateway's fast lane over HTTP, without Next: the same dispatch as scripts/serve.mjs (`npm start`) for the keyed
 * endpoints (/kb/{kb_id}/query, search, usage, mcp and /dify/retrieval) and the front door's refusals (lib/server/front-door.ts), and 404 for every other path. Used in-process (the security suite's HTTP face, raw-socket tests)
 * and as a separate process (two app instances sharing Postgres and Redis): `tsx test/support/gateway-server.ts`
 * prints "gateway listening on <url>".
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

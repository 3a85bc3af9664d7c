import http from 'node:http';
import { Readable } from 'node:stream';
import { POST, GET } from '@/app/kb/[kb_id]/query/route';
import { listenOnLoopback } from './listen';

/**
 * Serves the REAL query route handler over HTTP, without Next: Node request → Web Request → the exported POST →
 * Node response. Used in-process (raw-socket tests) and as a separate process (two app instances sharing Postgres
 * and Redis): `tsx test/support/gateway-server.ts` prints "gateway listening on <url>".
 */
const ROUTE = /^\/kb\/([^/]+)\/query\/?$/;

export function createGatewayHttpServer(): http.Server {
  return http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
      const match = ROUTE.exec(url.pathname);
      if (!match) {
        res.writeHead(404).end();
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
        else if (value !== undefined) headers.set(name, value);
      }
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const controller = new AbortController();
      res.on('close', () => controller.abort());
      const request = new Request(url, {
        method: req.method,
        headers,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
        duplex: 'half',
        signal: controller.signal,
      } as RequestInit);
      const context = { params: Promise.resolve({ kb_id: decodeURIComponent(match[1]) }) };
      const response = req.method === 'POST' ? await POST(request, context) : await GET(request, context);
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
}

export async function listenGatewayServer(server = createGatewayHttpServer()): Promise<{ url: string; close(): Promise<void> }> {
  server.keepAliveTimeout = 10_000;
  return listenOnLoopback(server);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const { getDatabaseHandle } = await import('@/lib/db');
  await getDatabaseHandle();
  const { log } = await import('@/lib/log');
  const { url } = await listenGatewayServer();
  log.info({ url, pid: process.pid }, 'gateway test server listening');
  console.log(`gateway listening on ${url}`);
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerPublicCatalog, gzipOf, type PublicCatalogReply, type PublicCatalogRoute } from '@/lib/catalog';
import { newRequestId } from '@/lib/platform/http';
import { log } from '@/lib/platform/log';
import { GZIP_MIN_BYTES, acceptsGzip } from './content-encoding';
import { decodePathSegment } from './front-door';

/**
 * The public catalog's Node face: `GET`/`HEAD /api/marketplace/knowledge-bases[/{id}]` answered in front of Next by the
 * route handlers' own function, since Next's request machinery costs more than a cached answer (bench/listing).
 */
const LISTING_PATH = '/api/marketplace/knowledge-bases';

export function matchCatalogRequest(method: string | undefined, url: string | undefined): PublicCatalogRoute | null {
  if ((method !== 'GET' && method !== 'HEAD') || !url?.startsWith(LISTING_PATH)) return null;
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  if (path === LISTING_PATH) return { kind: 'listing' };
  const rest = path.slice(LISTING_PATH.length);
  // One non-empty segment; a trailing slash, an empty segment or a deeper path is the front door's or Next's to answer.
  if (!/^\/[^/]+$/.test(rest)) return null;
  const id = decodePathSegment(rest.slice(1));
  // A dot segment (`..`, `%2e`) is a path Next resolves to another route, not an id.
  if (id === null || id === '.' || id === '..') return null;
  return { kind: 'detail', id };
}

function send(req: IncomingMessage, res: ServerResponse, reply: PublicCatalogReply): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...reply.headers, Vary: 'Accept-Encoding' };
  let payload = reply.body.bytes;
  if (payload.length >= GZIP_MIN_BYTES && acceptsGzip(req.headers['accept-encoding'])) {
    payload = gzipOf(reply.body);
    headers['Content-Encoding'] = 'gzip';
  }
  headers['Content-Length'] = String(payload.length);
  res.writeHead(reply.status, headers);
  res.end(req.method === 'HEAD' ? undefined : payload);
}

/** True when it answered (a catalogue GET or HEAD); false, untouched, otherwise. */
export function serveCatalogOverNode(req: IncomingMessage, res: ServerResponse): boolean {
  const route = matchCatalogRequest(req.method, req.url);
  if (!route) return false;
  const query = req.url!.indexOf('?');
  const requestId = newRequestId();
  answerPublicCatalog(route, { search: query < 0 ? '' : req.url!.slice(query), headers: req.headers }, requestId).then(
    (reply) => send(req, res, reply),
    (error: unknown) => {
      log.error({ err: error, request_id: requestId, path: LISTING_PATH }, 'unhandled error');
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    },
  );
  return true;
}

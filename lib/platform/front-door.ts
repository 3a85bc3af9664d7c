import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_STATUS, errorBody, type ErrorCode } from './errors';
import { REQUEST_ID_HEADER, newRequestId } from './http';
import { log } from './log';
import { HTTP_METHODS } from './route-methods';

/**
 * The front door of `npm start` (scripts/serve.mjs asks it first, through the fast-lane slot): the requests that Next
 * would answer with a plain-text 500, an empty answer or an HTML page where docs/api.md §7.1 promises a JSON error,
 * answered before Next sees them. Each rule is one `Refusal`; `screenRequest` is pure, so the rules are tested without
 * a server (front-door.test.ts), and the fuzz (test/fuzz/) checks them through the real one.
 *
 * 1. A request target that is not a path (`*`, `http://host/…`): 400 `invalid_path`.
 * 2. A path whose percent-encoding cannot be decoded (`%ZZ`, a lone `%`, `%C3%28`, which is not UTF-8): 400
 *    `invalid_path`. Next would throw while decoding it and, with no Pages Router error page to render, answer a
 *    plain-text 500 it does not log.
 * 3. A method outside GET, HEAD, POST, PUT, PATCH, DELETE and OPTIONS: 501 `not_implemented`. Next's route handlers
 *    know no other method (TRACE answers a 500 there).
 * 4. Under /api and /kb, an empty segment (`/kb//query`), a backslash or a trailing slash: 404 `not_found`. Next would
 *    redirect (308) to a cleaned path, which for `/kb//query` is another endpoint's HTML 404. Pages keep Next's
 *    redirect, which is right for people.
 * 5. A cross-site POST that Next would take for a server action (docs/api.md §14): 403 with a short page. Next refuses
 *    it too, but with a 500 (`Invalid Server Actions request`); its rule is mirrored exactly (the Origin's host
 *    against X-Forwarded-Host, else Host; a missing Origin passes, an unreadable or `null` one does not), so nothing
 *    Next would run is refused here. Route handlers outside /api and /kb judge their own posts (`FORM_HANDLERS`).
 *
 * Under /api and /kb (after dot segments are resolved, as Next resolves them) every refusal is a JSON error body with
 * X-Request-Id; elsewhere it is a short HTML page with the same header.
 */

/** Route handlers outside /api and /kb: they check their own form posts (`isSameOriginPost`), in JSON. */
export const FORM_HANDLERS: readonly string[] = ['/checkout/start'];

export interface Refusal {
  code: ErrorCode;
  message: string;
  /** JSON error body (under /api and /kb) or an HTML page. */
  json: boolean;
}

export interface ScreenedRequest {
  method: string;
  /** The request target as sent (`req.url`). */
  target: string;
  headers: IncomingHttpHeaders;
}

/** Whether a path is one whose every answer is JSON (docs/api.md §7.1). */
export function isApiPath(pathname: string): boolean {
  return /^\/(?:api|kb)(?:\/|$)/.test(pathname);
}

/** One path segment decoded, or null when its percent-encoding is malformed or not UTF-8. */
export function decodePathSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The path as Next routes it: dot segments resolved, backslashes read as slashes, repeated slashes as one. */
function routedPath(path: string): string {
  try {
    return new URL(`http://front.door${path}`).pathname.replace(/\/{2,}/g, '/');
  } catch {
    return path;
  }
}

const KNOWN_METHODS = new Set<string>(HTTP_METHODS);

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Next's own test (next/dist/server/app-render/action-handler.js): is this POST refused as a cross-site server action? */
function isCrossSiteAction({ method, headers }: ScreenedRequest): boolean {
  if (method !== 'POST') return false;
  const type = first(headers['content-type']) ?? '';
  const possibleAction = headers['next-action'] !== undefined || type === 'application/x-www-form-urlencoded' || type.startsWith('multipart/form-data');
  const origin = first(headers.origin);
  if (!possibleAction || origin === undefined) return false;
  let originHost: string;
  try {
    originHost = origin === 'null' ? 'null' : new URL(origin).host;
  } catch {
    return true;
  }
  const forwarded = first(headers['x-forwarded-host'])?.split(',')[0]?.trim();
  const host = forwarded || first(headers.host);
  return !host || originHost !== host;
}

/** The refusal a request gets before routing, or null to pass it on. */
export function screenRequest(request: ScreenedRequest): Refusal | null {
  const { method, target } = request;
  if (!target.startsWith('/')) {
    let json = true;
    if (URL.canParse(target)) json = isApiPath(new URL(target).pathname);
    return { code: 'invalid_path', message: 'The request target must be a path that starts with "/".', json };
  }
  const path = target.split(/[?#]/, 1)[0]!;
  const routed = routedPath(path);
  const json = isApiPath(routed);
  if (decodePathSegment(routed) === null) {
    return { code: 'invalid_path', message: 'The path cannot be decoded: it has a malformed percent-escape or escaped bytes that are not UTF-8.', json };
  }
  if (!KNOWN_METHODS.has(method)) {
    return { code: 'not_implemented', message: `${method.slice(0, 20)} is not a method this server implements.`, json };
  }
  if (json && (path.includes('//') || path.includes('\\') || (path.length > 1 && path.endsWith('/')))) {
    return { code: 'not_found', message: 'No endpoint has this path: paths under /api and /kb have no empty segments and no trailing slash.', json };
  }
  if (!json && !FORM_HANDLERS.includes(routed) && isCrossSiteAction(request)) {
    return { code: 'forbidden', message: 'This form was sent from another site, so it was not processed.', json };
  }
  return null;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function refusalPage(status: number, message: string): string {
  const title = status === 403 ? 'Forbidden' : status === 404 ? 'Not found' : status === 501 ? 'Not implemented' : 'Bad request';
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title} · Almanac</title></head><body><h1>${title}</h1><p>${escapeHtml(message)}</p><p><a href="/">Almanac home</a></p></body></html>`;
}

/**
 * Answers the request when the front door refuses it (true), or leaves it alone (false). The body of the request is
 * not read: the answer closes the connection when a body may still be on its way.
 */
export function screenNodeRequest(req: IncomingMessage, res: ServerResponse): boolean {
  const refusal = screenRequest({ method: req.method ?? '', target: req.url ?? '', headers: req.headers });
  if (refusal === null) return false;
  const requestId = newRequestId();
  const status = ERROR_STATUS[refusal.code];
  log.info({ request_id: requestId, method: req.method?.slice(0, 20), path: (req.url ?? '').slice(0, 200), code: refusal.code }, 'refused before routing');
  const body = refusal.json ? JSON.stringify(errorBody(refusal.code, refusal.message, requestId)) : refusalPage(status, refusal.message);
  const payload = Buffer.from(body, 'utf8');
  const unread = (req.headers['content-length'] ?? '0') !== '0' || req.headers['transfer-encoding'] !== undefined;
  res.writeHead(status, {
    'Content-Type': refusal.json ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
    'Content-Length': String(payload.length),
    'Cache-Control': 'no-store',
    [REQUEST_ID_HEADER]: requestId,
    ...(unread ? { Connection: 'close' } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : payload);
  return true;
}

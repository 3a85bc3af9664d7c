import { IncomingMessage, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { ERROR_STATUS, errorBody, type ErrorCode } from '@/lib/platform/errors';
import { REQUEST_ID_HEADER, newRequestId } from '@/lib/platform/http';
import { log } from '@/lib/platform/log';
import { HTTP_METHODS } from '@/lib/platform/route-methods';
import { ACTION_BODY_LIMIT, actionBodyProblem } from './action-body';
import { isReadableRouterState } from './next-router-state';

/**
 * The front door of `npm start`: answers, before Next sees them, the requests Next would answer with a plain-text
 * 500, an empty answer or an HTML page where docs/api.md §7.1 promises a JSON error. Under /api, /kb and /dify a
 * refusal is a JSON error body, elsewhere a short HTML page. `screenRequest` is pure, so every rule is unit-tested.
 */

/** Route handlers outside /api, /kb and /dify that judge their own posts and answer in JSON; `[name]` as in app/. */
export const FORM_HANDLERS: readonly string[] = [
  '/.well-known/[[...path]]',
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-protected-resource/[...resource]',
  '/oauth/register',
  '/oauth/token',
  '/register/[[...path]]',
  '/checkout/start',
  '/metrics',
  '/publish/analytics/export',
  '/publish/listings/[kbId]/analytics/export',
  '/publish/listings/[kbId]/content/documents',
  '/publish/listings/[kbId]/content/documents/[docId]',
  '/publish/listings/[kbId]/content/reindex',
  '/publish/listings/[kbId]/content/try',
];

/** A route's folder segment as a pattern: `[id]` one segment, `[...rest]` one or more, `[[...rest]]` any number. */
function segmentPattern(segment: string): string {
  if (/^\[\[\.\.\.[^\]]+\]\]$/.test(segment)) return '(?:/.*)?';
  if (/^\[\.\.\.[^\]]+\]$/.test(segment)) return '/.+';
  if (/^\[[^\]]+\]$/.test(segment)) return '/[^/]+';
  return `/${segment.replace(/[.*+?^${}()|\\]/g, '\\$&')}`;
}

const FORM_HANDLER_PATTERNS = FORM_HANDLERS.map((route) => new RegExp(`^${route.split('/').slice(1).map(segmentPattern).join('')}$`));

export function isFormHandlerPath(routed: string): boolean {
  return FORM_HANDLER_PATTERNS.some((pattern) => pattern.test(routed));
}

export interface FrontDoorRefusal {
  code: ErrorCode;
  message: string;
  json: boolean;
}

export interface ScreenedRequest {
  method: string;
  target: string;
  headers: IncomingHttpHeaders;
}

function isApiPath(pathname: string): boolean {
  return /^\/(?:api|kb|dify)(?:\/|$)/.test(pathname);
}

export function decodePathSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Next redirects a trailing slash (308), and a client following it would send its POST, key included, elsewhere. */
function resolvesToTrailingSlash(routed: string): boolean {
  return routed.length > 1 && routed.endsWith('/');
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

function isPossibleAction({ method, headers }: ScreenedRequest): boolean {
  if (method !== 'POST') return false;
  const type = first(headers['content-type']) ?? '';
  return headers['next-action'] !== undefined || type === 'application/x-www-form-urlencoded' || type.startsWith('multipart/form-data');
}

/**
 * Next's cross-site action test (next/dist/server/app-render/action-handler.js), stricter in one point like
 * isSameOriginPost: with no Origin the Referer decides, and with neither the post is refused (Next only warns).
 */
function isCrossSiteAction(request: ScreenedRequest): boolean {
  const { headers } = request;
  if (!isPossibleAction(request)) return false;
  const origin = first(headers.origin) ?? first(headers.referer);
  if (origin === undefined) return true;
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

export function screenRequest(request: ScreenedRequest): FrontDoorRefusal | null {
  const { method, target } = request;
  if (!target.startsWith('/')) {
    let json = true;
    if (URL.canParse(target)) json = isApiPath(new URL(target).pathname);
    return { code: 'invalid_path', message: 'The request target must be a path that starts with "/".', json };
  }
  const path = target.split(/[?#]/, 1)[0]!;
  const routed = routedPath(path);
  // Answered in JSON when the path as sent is under /api or /kb, even if its dot segments lead out: the client called the API.
  const json = isApiPath(routed) || isApiPath(path);
  if (decodePathSegment(routed) === null) {
    return { code: 'invalid_path', message: 'The path cannot be decoded: it has a malformed percent-escape or escaped bytes that are not UTF-8.', json };
  }
  if (!KNOWN_METHODS.has(method)) {
    return { code: 'not_implemented', message: `${method.slice(0, 20)} is not a method this server implements.`, json };
  }
  if (json && !isApiPath(routed)) {
    return { code: 'not_found', message: 'No endpoint has this path: ".." segments may not lead out of /api, /kb or /dify.', json };
  }
  if (json && (path.includes('//') || path.includes('\\') || resolvesToTrailingSlash(routed))) {
    return {
      code: 'not_found',
      message: 'No endpoint has this path: paths under /api and /kb have no empty segments, no trailing slash and no "." or ".." at the end.',
      json,
    };
  }
  const stateTree = request.headers['next-router-state-tree'];
  if (!json && request.headers.rsc === '1' && stateTree !== undefined && !isReadableRouterState(stateTree)) {
    return { code: 'invalid_request', message: 'The Next-Router-State-Tree header cannot be read.', json };
  }
  if (!json && !isFormHandlerPath(routed) && isCrossSiteAction(request)) {
    return { code: 'forbidden', message: 'This form was sent from another site, so it was not processed.', json };
  }
  return null;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function refusalPage(status: number, message: string): string {
  const title = status === 403 ? 'Forbidden' : status === 404 ? 'Not found' : status === 413 ? 'Too large' : status === 501 ? 'Not implemented' : 'Bad request';
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title} · Almanac</title></head><body><h1>${title}</h1><p>${escapeHtml(message)}</p><p><a href="/">Almanac home</a></p></body></html>`;
}

function decodesActionBody(request: ScreenedRequest): boolean {
  if (request.method !== 'POST' || !request.target.startsWith('/')) return false;
  const routed = routedPath(request.target.split(/[?#]/, 1)[0]!);
  if (isApiPath(routed) || isFormHandlerPath(routed)) return false;
  const type = first(request.headers['content-type']) ?? '';
  return request.headers['next-action'] !== undefined || type.startsWith('multipart/form-data');
}

function withBody(req: IncomingMessage, body: Buffer): IncomingMessage {
  const copy = new IncomingMessage(req.socket);
  copy.method = req.method;
  copy.url = req.url;
  copy.headers = req.headers;
  copy.rawHeaders = req.rawHeaders;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  copy.push(body);
  copy.push(null);
  copy.complete = true;
  return copy;
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => req.off('data', onData).off('end', onEnd).off('error', onError);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        resolve(null);
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/**
 * A body still unread is left to Node to drain after the answer: closing at once would make the client's TCP stack
 * reset the connection while it is still sending, and the answer could be lost with it.
 */
function answer(req: IncomingMessage, res: ServerResponse, refusal: FrontDoorRefusal): void {
  const requestId = newRequestId();
  const status = ERROR_STATUS[refusal.code];
  log.info({ request_id: requestId, method: req.method?.slice(0, 20), path: (req.url ?? '').slice(0, 200), code: refusal.code }, 'refused before routing');
  const body = refusal.json ? JSON.stringify(errorBody(refusal.code, refusal.message, requestId)) : refusalPage(status, refusal.message);
  const payload = Buffer.from(body, 'utf8');
  res.writeHead(status, {
    'Content-Type': refusal.json ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
    'Content-Length': String(payload.length),
    'Cache-Control': 'no-store',
    [REQUEST_ID_HEADER]: requestId,
  });
  res.end(req.method === 'HEAD' ? undefined : payload);
}

/** True: answered; false: pass on untouched; for a server-action POST, a promise of the checked copy, or null if answered. */
export function screenNodeRequest(req: IncomingMessage, res: ServerResponse): boolean | Promise<IncomingMessage | null> {
  const request = { method: req.method ?? '', target: req.url ?? '', headers: req.headers };
  const refusal = screenRequest(request);
  if (refusal !== null) {
    answer(req, res, refusal);
    return true;
  }
  if (!decodesActionBody(request)) return false;
  return readBody(req, ACTION_BODY_LIMIT).then(
    async (body) => {
      if (body === null) {
        answer(req, res, { code: 'payload_too_large', message: `The form data is larger than ${ACTION_BODY_LIMIT} bytes.`, json: false });
        return null;
      }
      const problem = await actionBodyProblem(req.headers, body);
      if (problem) {
        answer(req, res, { code: 'invalid_request', message: problem, json: false });
        return null;
      }
      return withBody(req, body);
    },
    () => null, // the client went away while sending
  );
}

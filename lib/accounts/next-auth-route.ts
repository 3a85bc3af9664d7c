import NextAuth from 'next-auth';
import { NextRequest } from 'next/server';
import { getAuthOptions, providerRefusalRedirect } from './auth';
import { ERROR_STATUS, type ErrorCode } from '@/lib/platform/errors';
import { errorResponse, type ApiContext } from '@/lib/platform/http';
import { log } from '@/lib/platform/log';
import { decodeQueryString } from '@/lib/platform/text-input';

/** next-auth's routes held to the rules of every /api answer (docs/api.md §7.1): a JSON 404 or 405, and our error body. */

const ACTIONS: Record<'GET' | 'POST', readonly string[]> = {
  GET: ['providers', 'session', 'csrf', 'signin', 'signout', 'callback', 'verify-request', 'error'],
  POST: ['signin', 'signout', 'callback', 'session', '_log'],
};

/** next-auth's own test of a callback URL (next-auth/core/lib/assert.js), which it answers with a 500 when it fails. */
function isCallbackUrl(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (typeof value !== 'string') return false;
  try {
    return /^https?:/.test(new URL(value, value.startsWith('/') ? 'http://callback.check' : undefined).protocol);
  } catch {
    return false;
  }
}

function cookieValue(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key !== name) continue;
    const raw = rest.join('=');
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** What next-auth would answer with a 500 although the request is at fault; the reason, or null. */
async function malformedAuthRequest(request: Request): Promise<string | null> {
  let body: Record<string, unknown> = {};
  if (request.method === 'POST') {
    const type = request.headers.get('content-type') ?? '';
    const text = await request.clone().text();
    if (type.includes('application/json')) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed !== null && typeof parsed === 'object') body = parsed as Record<string, unknown>;
      } catch {
        return 'The body is not valid JSON.';
      }
    } else if (type.includes('application/x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(text));
  }
  const url = new URL(request.url);
  if (!decodeQueryString(url.search).ok) return 'The query string is not valid percent-encoded UTF-8.';
  const query = Object.fromEntries(url.searchParams);
  // next-auth copies `error` into a redirect's Location unescaped: anything but a code would break the header.
  if (query.error !== undefined && !/^[\w-]{0,100}$/.test(query.error)) return 'error must be an error code.';
  for (const value of [
    query.callbackUrl,
    body.callbackUrl,
    cookieValue(request, 'next-auth.callback-url'),
    cookieValue(request, '__Secure-next-auth.callback-url'),
  ]) {
    if (!isCallbackUrl(value)) return 'callbackUrl must be a path on this site or an http(s) URL.';
  }
  return null;
}

const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
};

async function asErrorBody(response: Response, requestId: string, request: Request): Promise<Response> {
  if (response.status < 400) return response;
  const code = CODE_OF_STATUS[response.status] ?? (response.status >= 500 ? 'internal_error' : 'invalid_request');
  const detail = (await response.text().catch(() => '')).slice(0, 300);
  if (ERROR_STATUS[code] >= 500) log.error({ request_id: requestId, status: response.status, detail, path: new URL(request.url).pathname }, 'next-auth failed');
  const headers = new Headers(response.headers);
  headers.delete('content-type');
  headers.delete('content-length');
  if (code === 'method_not_allowed') headers.set('Allow', 'GET, HEAD, POST');
  const message =
    code === 'internal_error'
      ? 'Sign-in failed on our side. Quote the request id if you contact support.'
      : 'This sign-in request is not one this server accepts.';
  return errorResponse(code, message, requestId, { headers });
}

export async function serveNextAuth(request: Request, { requestId, params }: ApiContext<{ nextauth?: string[] }>): Promise<Response> {
  const [action = '', provider] = params.nextauth ?? [];
  const method = request.method === 'POST' ? 'POST' : 'GET';
  // The segment after the action is a provider, or for `error` a code next-auth copies unescaped into a Location header.
  if (provider !== undefined && !/^[\w-]{1,100}$/.test(provider)) {
    return errorResponse('not_found', `No endpoint has the path ${new URL(request.url).pathname.slice(0, 200)}.`, requestId);
  }
  if (!ACTIONS[method].includes(action)) {
    const other = method === 'GET' ? 'POST' : 'GET';
    if (ACTIONS[other].includes(action)) {
      return errorResponse('method_not_allowed', `${request.method} is not allowed here; use ${other}.`, requestId, {
        headers: { Allow: other === 'GET' ? 'GET, HEAD' : 'POST' },
      });
    }
    return errorResponse('not_found', `No endpoint has the path ${new URL(request.url).pathname.slice(0, 200)}.`, requestId);
  }
  // The password provider signs in by POST only; next-auth answers a GET of its callback with a 500.
  if (method === 'GET' && action === 'callback' && provider === 'credentials') {
    return errorResponse('method_not_allowed', `${request.method} is not allowed here; use POST.`, requestId, { headers: { Allow: 'POST' } });
  }
  const malformed = await malformedAuthRequest(request);
  if (malformed) return errorResponse('invalid_request', malformed, requestId);
  const refused = method === 'GET' ? providerRefusalRedirect(new URL(request.url)) : null;
  // Not Response.redirect: its headers are immutable, and withApiRoute stamps X-Request-Id on every answer.
  if (refused) return new Response(null, { status: 302, headers: { Location: refused.toString() } });
  // HEAD is answered as GET (Node sends no body with it); next-auth knows only GET and POST.
  const asked = request.method === 'HEAD' ? new NextRequest(request.url, { method: 'GET', headers: request.headers }) : request;
  // next-auth detects the App Router by its context's `params`.
  const response: Response = await NextAuth(asked as never, { params: Promise.resolve(params) } as never, getAuthOptions());
  return asErrorBody(response, requestId, request);
}

import { allowedFormOrigins } from './base-url';
import { ApiError, errorBody, type ErrorCode, type ErrorExtras } from './errors';
import { newId } from './ids';
import { log } from './log';

export const REQUEST_ID_HEADER = 'X-Request-Id';

export function newRequestId(): string {
  return newId('req');
}

/** Sent byte for byte: an Idempotency-Key replay repeats the first answer's exact bytes, whatever its key order. */
export class JsonText {
  constructor(readonly text: string) {}
}

export function serializeJson(data: unknown): string {
  return data instanceof JsonText ? data.text : JSON.stringify(data);
}

export function jsonResponse(data: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(serializeJson(data), { status: init.status ?? 200, headers });
}

export function errorResponse(code: ErrorCode, message: string, requestId: string, options: { extras?: ErrorExtras; headers?: HeadersInit } = {}): Response {
  const error = new ApiError(code, message, { extras: options.extras });
  const headers = new Headers(options.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  return jsonResponse(errorBody(code, message, requestId, error.extras), { status: error.status, headers });
}

function apiErrorResponse(error: ApiError, requestId: string, headers?: HeadersInit): Response {
  const merged = new Headers(headers);
  for (const [k, v] of Object.entries(error.headers)) merged.set(k, v);
  return errorResponse(error.code, error.message, requestId, { extras: error.extras, headers: merged });
}

export interface ApiContext<P> {
  requestId: string;
  params: P;
}

type RouteContext<P> = { params: Promise<P> };

/** The default params type accepts any dynamic segment, so a parameterless handler passes Next's route type check. */
export function withApiRoute<P = Record<string, string | string[]>>(handler: (request: Request, context: ApiContext<P>) => Promise<Response>) {
  return async (request: Request, routeContext?: RouteContext<P>): Promise<Response> => {
    const requestId = newRequestId();
    let response: Response;
    try {
      const params = routeContext?.params ? await routeContext.params : ({} as P);
      response = await handler(request, { requestId, params });
    } catch (error) {
      response = handleRouteError(error, requestId, request);
    }
    response.headers.set(REQUEST_ID_HEADER, requestId);
    return response;
  };
}

export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Quote the request id if you contact support.';

function handleRouteError(error: unknown, requestId: string, request?: Request): Response {
  if (error instanceof ApiError) return apiErrorResponse(error, requestId);
  log.error({ err: error, request_id: requestId, method: request?.method, path: request ? new URL(request.url).pathname : undefined }, 'unhandled error');
  return errorResponse('internal_error', INTERNAL_ERROR_MESSAGE, requestId);
}

export function methodNotAllowedMessage(method: string, allow: string[]): string {
  return `${method} is not allowed here; use ${allow.join(', ')}.`;
}

export function methodNotAllowed(allow: string[]) {
  return withApiRoute(async (request, { requestId }) =>
    errorResponse('method_not_allowed', methodNotAllowedMessage(request.method, allow), requestId, {
      headers: { Allow: allow.join(', ') },
    }),
  );
}

/** A cross-site form must not act in a signed-in user's name: Origin, else Referer, must be allowed; neither is refused. */
export function isSameOriginPost(request: Request): boolean {
  const allowed = allowedFormOrigins(request);
  const origin = request.headers.get('origin');
  if (origin) return allowed.has(origin);
  const referer = request.headers.get('referer');
  if (!referer) return false;
  try {
    return allowed.has(new URL(referer).origin);
  } catch {
    return false;
  }
}

/** A lying or absent Content-Length (a chunked upload) cannot get more than `limit` bytes into memory; null when larger. */
export async function readBodyWithin(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  // Buffer.concat copies into a fresh ArrayBuffer (never a SharedArrayBuffer), so the narrower type is true.
  return Buffer.concat(chunks) as Uint8Array<ArrayBuffer>;
}

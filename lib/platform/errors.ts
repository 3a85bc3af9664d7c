/**
 * One error type, one closed map from code to HTTP status, one body shape:
 * `{ error, message, request_id, ...extras }` (docs/api.md §3.4, §12).
 */
export const ERROR_STATUS = {
  invalid_parameter: 400,
  invalid_query: 400,
  invalid_request: 400,
  invalid_path: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  unauthorized: 401,
  key_revoked: 403,
  key_scope_mismatch: 403,
  forbidden: 403,
  not_found: 404,
  knowledge_base_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_key_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable_document: 422,
  idempotency_key_reused: 422,
  rate_limit_exceeded: 429,
  query_cap_exceeded: 429,
  internal_error: 500,
  not_implemented: 501,
  publisher_error: 502,
  service_unavailable: 503,
  publisher_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type ErrorExtras = Record<string, unknown>;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extras: ErrorExtras;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { extras?: ErrorExtras; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.extras = options.extras ?? {};
    this.headers = options.headers ?? {};
  }
}

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  request_id: string;
  [extra: string]: unknown;
}

export function errorBody(code: ErrorCode, message: string, requestId: string, extras: ErrorExtras = {}): ErrorBody {
  // Extras come last in the object but can never overwrite the three fixed fields.
  return { ...extras, error: code, message, request_id: requestId };
}

import { ERROR_STATUS, type ErrorCode } from '@/lib/platform/errors';
import { countRefusal } from '@/lib/platform/metrics';
import type { QueryAnswer } from '@/lib/query-answer';

/** What every keyed endpoint answers, as a value its face (Web, Node, MCP, Dify, SSE) turns into a response. */
export interface GatewayRefusal {
  ok: false;
  status: number;
  code: ErrorCode;
  message: string;
  extras: Record<string, unknown>;
  headers: Record<string, string>;
}

export type GatewayOutcome<T = QueryAnswer> =
  | { ok: true; status: 200; answer: T; usage: { used: number; cap: number }; headers: Record<string, string> }
  | GatewayRefusal
  | { ok: 'replayed'; status: number; body: unknown; headers: Record<string, string> };

export function deny(code: ErrorCode, message: string, headers: Record<string, string> = {}, extras: Record<string, unknown> = {}): GatewayRefusal {
  countRefusal(code);
  return { ok: false, status: ERROR_STATUS[code], code, message, extras, headers };
}

/** Rows 1 and 2 (docs/api.md §7.3, RFC 6750 §3): the scheme to use, and whether the key that was sent is the problem. */
export const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="almanac"' };
export const INVALID_TOKEN_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="almanac", error="invalid_token"' };

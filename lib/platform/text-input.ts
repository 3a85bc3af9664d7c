import { z } from 'zod';

/**
 * The one rule for text from outside (docs/api.md §7.2), checked at every edge: PostgreSQL refuses U+0000, so a NUL
 * let through is a 500 waiting to happen. Ids refuse C0 controls and U+007F; free text allows tab, LF and CR. Both
 * refuse lone surrogates (the database would silently store U+FFFD); invalid UTF-8 is refused where bytes arrive
 * (`decodeUtf8`, `decodeQueryString`), since a decoded string cannot tell it from a real U+FFFD.
 */

export type TextProblem = 'control_character' | 'invalid_unicode';

const ID_FORBIDDEN = /[\u0000-\u001f\u007f]/;
const TEXT_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function idProblem(value: string): TextProblem | null {
  if (ID_FORBIDDEN.test(value)) return 'control_character';
  return LONE_SURROGATE.test(value) ? 'invalid_unicode' : null;
}

export function textProblem(value: string): TextProblem | null {
  if (TEXT_FORBIDDEN.test(value)) return 'control_character';
  return LONE_SURROGATE.test(value) ? 'invalid_unicode' : null;
}

export const isCleanId = (value: string): boolean => idProblem(value) === null;
export const isCleanText = (value: string): boolean => textProblem(value) === null;

/** The end of a sentence that says why, for messages: `Invalid "query": ${describeTextProblem(p)}.` */
export function describeTextProblem(problem: TextProblem, kind: 'id' | 'text' = 'text'): string {
  if (problem === 'invalid_unicode') return 'it is not valid Unicode text';
  return kind === 'id' ? 'it contains a control character' : 'it contains a control character (only tab and line breaks are allowed)';
}

export const ID_MAX_LENGTH = 64;

export function idSchema(max = ID_MAX_LENGTH) {
  return z.string().trim().min(1).max(max).refine(isCleanId, { message: 'Ids contain no control characters and are valid Unicode.' });
}

/** Free text of at most `max` characters that passes the text rule (not trimmed: callers decide). */
export function textSchema(max: number) {
  return z.string().max(max).refine(isCleanText, { message: 'Remove control characters: only tab and line breaks are allowed.' });
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as UTF-8 text, or null when they are not valid UTF-8 (no replacement characters). A leading BOM is dropped. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return null;
  }
}

export type QueryStringResult = { ok: true; params: URLSearchParams } | { ok: false; name: string };

/** Like URLSearchParams, but a malformed escape or escaped non-UTF-8 bytes are refused, not kept or replaced by U+FFFD. */
export function decodeQueryString(search: string): QueryStringResult {
  const params = new URLSearchParams();
  const query = search.startsWith('?') ? search.slice(1) : search;
  if (query === '') return { ok: true, params };
  for (const part of query.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const rawName = equals < 0 ? part : part.slice(0, equals);
    const rawValue = equals < 0 ? '' : part.slice(equals + 1);
    try {
      params.append(decodeURIComponent(rawName.replace(/\+/g, ' ')), decodeURIComponent(rawValue.replace(/\+/g, ' ')));
    } catch {
      return { ok: false, name: rawName.slice(0, 64) };
    }
  }
  return { ok: true, params };
}

/** A fetch action can be called with any arguments: a non-FormData one is an empty form, refused by the action itself. */
export function formDataOf(value: unknown): FormData {
  return value instanceof FormData ? value : new FormData();
}

import { z } from 'zod';

/**
 * The one rule for text that comes from outside (docs/api.md §7.2): ids, listing parameters, the query text, form
 * fields. Checked at every edge, before the text reaches a database: PostgreSQL refuses U+0000 in text, so a NUL byte
 * let through anywhere is a 500 waiting to happen, and no other control character has a use in an id or a form.
 *
 * - **Ids** (knowledge-base ids, subscription, plan and key ids, slugs, handoff tokens) refuse every C0 control
 *   character (U+0000–U+001F) and U+007F.
 * - **Free text** (search text, the query, a display name) refuses the same characters except tab, LF and CR.
 * - **Both** refuse text that is not well-formed Unicode: a lone surrogate (`"\ud800"` in JSON) would be sent to the
 *   database as U+FFFD, silently changed. Bytes that are not valid UTF-8 are refused where bytes arrive
 *   (`decodeUtf8`, `decodeQueryString`), since a decoded string can no longer tell them from a real U+FFFD.
 */

export type TextProblem = 'control_character' | 'invalid_unicode';

const ID_FORBIDDEN = /[\u0000-\u001f\u007f]/;
const TEXT_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function idProblem(value: string): TextProblem | null {
  if (ID_FORBIDDEN.test(value)) return 'control_character';
  return LONE_SURROGATE.test(value) ? 'invalid_unicode' : null;
}

/** What is wrong with free text, or null when nothing is. Tab, LF and CR are allowed. */
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

/** A trimmed id of 1 to `max` characters that passes the id rule. */
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

/**
 * A URL's query string decoded strictly: like URLSearchParams, but a malformed escape (`%ZZ`, a lone `%`) or escaped
 * bytes that are not UTF-8 (`%C3%28`) are refused instead of kept literally or replaced by U+FFFD. `name` is the
 * parameter at fault, as sent (at most 64 characters).
 */
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

/**
 * A server action's form argument as FormData. The browser always sends one, but a fetch action can be called with any
 * arguments (`Next-Action` and a hand-written body): a non-FormData argument is an empty form, so the action answers
 * its own "missing field" error instead of throwing.
 */
export function formDataOf(value: unknown): FormData {
  return value instanceof FormData ? value : new FormData();
}

import type { z } from 'zod';
import { MAX_BODY_BYTES, queryTextSchema } from './schemas';

/** Row 8 of the check order (docs/api.md §3.2, §7.2): the body of a keyed request and the `query` it carries. */

export type BodyReadResult = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'invalid_utf8' };

export type Parsed<T> = { ok: true; value: T } | { ok: false; code: 'invalid_query' | 'payload_too_large'; message: string };

export type JsonBody = () => Promise<Parsed<Record<string, unknown>>>;

export async function readJsonObject(
  request: { contentType: string | null },
  readBody: () => Promise<BodyReadResult>,
): Promise<Parsed<Record<string, unknown>>> {
  const type = (request.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return { ok: false, code: 'invalid_query', message: 'Send the query as JSON with "Content-Type: application/json".' };
  const body = await readBody();
  if (!body.ok && body.reason === 'invalid_utf8') return { ok: false, code: 'invalid_query', message: 'The request body is not valid UTF-8.' };
  if (!body.ok) return { ok: false, code: 'payload_too_large', message: `The request body is larger than ${MAX_BODY_BYTES} bytes.` };
  let json: unknown;
  try {
    json = JSON.parse(body.text);
  } catch {
    return { ok: false, code: 'invalid_query', message: 'The request body is not valid JSON.' };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { ok: false, code: 'invalid_query', message: 'The request body must be a JSON object like {"query": "…"}.' };
  }
  return { ok: true, value: json as Record<string, unknown> };
}

export function parseField<T>(schema: z.ZodType<T>, value: unknown): Parsed<T> {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, code: 'invalid_query', message: parsed.error.issues[0]!.message };
}

export const validateQuery = (value: unknown): Parsed<string> => parseField(queryTextSchema, value);

export async function queryOf(json: JsonBody): Promise<Parsed<string>> {
  const body = await json();
  return body.ok ? validateQuery(body.value.query) : body;
}

export const NO_INPUT: Parsed<null> = { ok: true, value: null };

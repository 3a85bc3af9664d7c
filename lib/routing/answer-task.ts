import { queryAnswerSchema, type QueryAnswer } from '@/lib/query-answer';

/**
 * A publisher's answer body as a validated answer (docs/api.md §6.4); run in a worker for large answers, whose parse
 * and schema walk can hold a thread for a second (http-connector.ts).
 */
export type DecodedAnswer = { ok: true; answer: QueryAnswer } | { ok: false; reason: string };

export function decodePublisherAnswer(bytes: Uint8Array): DecodedAnswer {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return { ok: false, reason: 'answer is not JSON' };
  }
  const parsed = queryAnswerSchema.safeParse(json);
  return parsed.success ? { ok: true, answer: parsed.data } : { ok: false, reason: 'answer breaks the query-answer schema' };
}

import type { Passage } from '@/lib/engine';
import { routeSearch } from '@/lib/routing';
import { admit, consumeRateLimit, type Admitted } from './admission';
import { meter } from './metering';
import type { GatewayOutcome } from './outcome';
import { readJsonObject, refuseBody, validateQuery, type BodyReadResult, type GatewayRequest } from './pipeline';

/**
 * POST /kb/{kb_id}/search (docs/api.md §10.2): the passages alone, for callers that write their own answer (RAG,
 * agents). The same key, check order and metering as /query: counted like a query, free when nothing is found.
 */
export const DEFAULT_TOP_K = 5;
export const MAX_TOP_K = 20;

export interface SearchResultItem {
  document_id: string;
  title: string;
  excerpt: string;
  page: number | null;
  score: number;
}

export interface SearchResults {
  results: SearchResultItem[];
}

export function toSearchResults(passages: Passage[]): SearchResults {
  return { results: passages.map((p) => ({ document_id: p.documentId, title: p.title, excerpt: p.excerpt, page: p.page, score: p.score })) };
}

type Parsed<T> = { ok: true; value: T } | { ok: false; code: 'invalid_query'; message: string };

export function validateTopK(value: unknown): Parsed<number> {
  if (value === undefined || value === null) return { ok: true, value: DEFAULT_TOP_K };
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TOP_K) {
    return { ok: false, code: 'invalid_query', message: `"top_k" must be an integer from 1 to ${MAX_TOP_K}.` };
  }
  return { ok: true, value };
}

/** Rows 9–11 for a search: the passages, counted unless there are none. */
export function meterSearch(
  admitted: Admitted,
  headers: Record<string, string>,
  request: Pick<GatewayRequest, 'requestId' | 'signal'>,
  search: { query: string; topK: number; minScore?: number },
  started: number,
): Promise<GatewayOutcome<Passage[]>> {
  return meter<Passage[]>({
    admitted,
    headers,
    requestId: request.requestId,
    signal: request.signal,
    started,
    call: async () => {
      const found = await routeSearch(admitted.kb, { query: search.query, topK: search.topK, requestId: request.requestId, signal: request.signal });
      // Below the caller's threshold is not a result: filtered before metering, so nothing left is free.
      return found.ok ? { ok: true, value: found.passages.filter((p) => p.score >= (search.minScore ?? 0)) } : found;
    },
    isEmpty: (passages) => passages.length === 0,
    tokensOf: () => 0,
  });
}

export async function handleSearchRequest(request: GatewayRequest): Promise<GatewayOutcome<SearchResults>> {
  const started = Date.now();
  const admission = await admit(request);
  if (!admission.ok) return admission;
  const limited = await consumeRateLimit(admission.admitted);
  if (!limited.ok) return limited;
  let bodyRead: Promise<BodyReadResult> | undefined;
  const json = await readJsonObject(request, () => (bodyRead ??= request.readBody()));
  if (!json.ok) return refuseBody(admission.admitted, limited.headers, json);
  const query = validateQuery(json.value.query);
  if (!query.ok) return refuseBody(admission.admitted, limited.headers, query);
  const topK = validateTopK(json.value.top_k);
  if (!topK.ok) return refuseBody(admission.admitted, limited.headers, topK);
  const outcome = await meterSearch(admission.admitted, limited.headers, request, { query: query.value, topK: topK.value }, started);
  return outcome.ok === true ? { ...outcome, answer: toSearchResults(outcome.answer) } : outcome;
}

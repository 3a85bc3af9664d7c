import type { Passage } from '@/lib/engine';
import { routeSearch } from '@/lib/routing';
import { overHttp, runKeyed, type GatewayRequest, type KeyedEndpoint, type KeyedRun } from './keyed';
import { meter } from './metering';
import type { GatewayOutcome } from './outcome';
import { parseField, validateQuery, type Parsed } from './request-body';
import { topKSchema, type SearchResults } from './schemas';

/** POST /kb/{kb_id}/search (docs/api.md §10.2): the passages alone, metered like /query and free when nothing is found. */
export function toSearchResults(passages: Passage[]): SearchResults {
  return { results: passages.map((p) => ({ document_id: p.documentId, title: p.title, excerpt: p.excerpt, page: p.page, score: p.score })) };
}

export interface SearchInput {
  query: string;
  topK: number;
  minScore?: number;
}

export const validateTopK = (value: unknown): Parsed<number> => parseField(topKSchema, value ?? undefined);

export function meterSearch(run: KeyedRun, search: SearchInput): Promise<GatewayOutcome<Passage[]>> {
  const { admitted, requestId, signal } = run;
  return meter<Passage[]>({
    ...run,
    call: async () => {
      const found = await routeSearch(admitted.kb, { query: search.query, topK: search.topK, requestId, signal });
      // Below the caller's threshold is not a result: filtered before metering, so nothing left is free.
      return found.ok ? { ok: true, value: found.passages.filter((p) => p.score >= (search.minScore ?? 0)) } : found;
    },
    isEmpty: (passages) => passages.length === 0,
    tokensOf: () => 0,
  });
}

export function searchInputOf(fields: Record<string, unknown>): Parsed<SearchInput> {
  const query = validateQuery(fields.query);
  if (!query.ok) return query;
  const topK = validateTopK(fields.top_k);
  return topK.ok ? { ok: true, value: { query: query.value, topK: topK.value } } : topK;
}

const SEARCH: KeyedEndpoint<SearchInput, Passage[]> = {
  parse: async (json) => {
    const body = await json();
    return body.ok ? searchInputOf(body.value) : body;
  },
  call: (search, run) => meterSearch(run, search),
};

export async function handleSearchRequest(request: GatewayRequest): Promise<GatewayOutcome<SearchResults>> {
  const outcome = await runKeyed(overHttp(request), SEARCH);
  return outcome.ok === true ? { ...outcome, answer: toSearchResults(outcome.answer) } : outcome;
}

import type { Executor } from '@/lib/platform/db';
import type { SearchConfig } from './language';
import { lexicalSearch } from './lexical-search';
import { parseQuery, type ParsedQuery } from './query-parse';
import { DEFINITION_PASSAGES, definedTerms } from './query-expansion';
import { bm25Idf, resolveTerms } from './term-lookup';
import type { QueryTerm, QueryVector, RetrievedChunk } from './types';
import { CLOSE_LEAD, fuseWithVectors, lexicalLead, VECTOR_CANDIDATES } from './vector-fusion';

/**
 * Retrieval inside one knowledge base, in SQL that runs the same on PGlite and PostgreSQL: the query's terms
 * (term-lookup.ts), candidates through the GIN index scored with BM25 (lexical-search.ts), ranked again with the terms
 * the top passages define (query-expansion.ts), and fused with the nearest vectors when the ranking is close
 * (vector-fusion.ts).
 */
export interface SearchResult {
  query: ParsedQuery;
  config: SearchConfig;
  terms: QueryTerm[];
  chunks: RetrievedChunk[];
  chunkCount: number;
  gateThreshold: number | null;
}

/** `vector` is called only when the lexical ranking is close: a decisive one needs no call to the embeddings endpoint. */
export async function searchChunks(
  db: Executor,
  kbId: string,
  query: string,
  options: { limit: number; vector?: QueryVector | (() => Promise<QueryVector | undefined>) },
): Promise<SearchResult> {
  const parsed = parseQuery(query);
  const empty = (terms: QueryTerm[] = [], chunkCount = 0, config: SearchConfig = 'almanac'): SearchResult => ({
    query: parsed,
    config,
    terms,
    chunks: [],
    chunkCount,
    gateThreshold: null,
  });
  if (parsed.words.length === 0) return empty();
  const { terms, compound, paraphrased, chunkCount, avgLength, config, gateThreshold } = await resolveTerms(db, kbId, parsed, query);
  // Whole numbers ("140/90") and paraphrases select and score candidates but are no question word for the composer.
  const present = [...terms.filter((t) => t.docFreq > 0), ...compound, ...paraphrased];
  if (present.length === 0 || chunkCount === 0) return empty(terms, chunkCount, config);
  const fetch = Math.max(options.vector ? Math.max(options.limit * 4, VECTOR_CANDIDATES) : options.limit, DEFINITION_PASSAGES);
  let lexical = await lexicalSearch(db, kbId, parsed, config, present, avgLength, fetch);
  const defined = await definedTerms(db, kbId, config, terms, lexical.slice(0, DEFINITION_PASSAGES), (df) => bm25Idf(chunkCount, df));
  if (defined.length > 0) {
    terms.push(...defined);
    lexical = await lexicalSearch(db, kbId, parsed, config, [...present, ...defined], avgLength, fetch);
  }
  const vector =
    options.vector && lexicalLead(lexical) < CLOSE_LEAD ? (typeof options.vector === 'function' ? await options.vector() : options.vector) : undefined;
  return {
    query: parsed,
    config,
    terms,
    chunkCount,
    gateThreshold,
    chunks: vector ? await fuseWithVectors(db, kbId, lexical, vector, options.limit) : lexical.slice(0, options.limit),
  };
}

import type { Executor } from '@/lib/platform/db';
import type { SearchConfig } from './language';
import { lexicalSearch } from './lexical-search';
import { parseQuery, type ParsedQuery } from './query-parse';
import { DEFINITION_PASSAGES, definedTerms } from './query-expansion';
import { bm25Idf, resolveTerms } from './term-lookup';
import type { QueryTerm, QueryVector, RetrievedChunk } from './types';
import { CLOSE_LEAD, fuseWithVectors, lexicalLead, VECTOR_CANDIDATES } from './vector-fusion';

/**
 * Retrieval inside one knowledge base, in SQL that runs the same on PGlite and PostgreSQL:
 *  1. the query's words are stemmed by the knowledge base's text-search configuration (its language's: language.ts),
 *     its stop words dropped, and looked up in kb_terms (document frequency);
 *  2. candidates come through the GIN index on chunks.search_vector: the rarest terms ORed (as long as their
 *     document frequencies add up to the candidate budget), or, when every term is common, the chunks holding two
 *     of the four rarest terms; bounded either way;
 *  3. candidates are scored with BM25 (k1, b; IDF from kb_terms; chunk length and average from kb_index_stats),
 *     heading-path occurrences counting one and a half times;
 *  4. a question word is also looked up under its other spelling as a number ("fifty" ↔ 50, English), a number the
 *     parser keeps whole ("140/90", "1.3") as typed, and a term the top passages define for the question
 *     ("severe allergic reaction (anaphylaxis)") as the question word it stands for, the chunks then ranked again.
 * Quoted phrases must occur (phraseto_tsquery, `<->`); the last word is also matched as a prefix while it is not
 * a whole word of the knowledge base.
 */
export interface SearchResult {
  query: ParsedQuery;
  /** The text-search configuration of the knowledge base's index (its language). */
  config: SearchConfig;
  /** Every query term, including those absent from the knowledge base (docFreq 0, highest idf). */
  terms: QueryTerm[];
  chunks: RetrievedChunk[];
  chunkCount: number;
  /** The knowledge base's own relevance-gate threshold (gate-calibration.ts), or null for the model's. */
  gateThreshold: number | null;
}

/**
 * `vector`: the question's vector for hybrid retrieval, or a function that gives it (undefined when it cannot), called
 * only when the lexical ranking is close: a decisive one needs no call to the embeddings endpoint.
 */
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
  const { terms, compound, chunkCount, avgLength, config, gateThreshold } = await resolveTerms(db, kbId, parsed, query);
  // Whole numbers ("140/90") score and select candidates with the question's words, but are no question word of
  // their own for the composer.
  const present = [...terms.filter((t) => t.docFreq > 0), ...compound];
  if (present.length === 0 || chunkCount === 0) return empty(terms, chunkCount, config);
  const fetch = Math.max(options.vector ? Math.max(options.limit * 4, VECTOR_CANDIDATES) : options.limit, DEFINITION_PASSAGES);
  let lexical = await lexicalSearch(db, kbId, parsed, config, present, avgLength, fetch);
  // The knowledge base's own definitions in the passages found ("severe allergic reaction (anaphylaxis)",
  // "Varicella (chickenpox)") name what the question asks about in the documents' words: looked up too, as the
  // question word they stand for, and the chunks ranked again.
  const defined = await definedTerms(db, kbId, config, terms, lexical.slice(0, DEFINITION_PASSAGES), (df) => bm25Idf(chunkCount, df));
  if (defined.length > 0) {
    terms.push(...defined);
    lexical = await lexicalSearch(db, kbId, parsed, config, [...present, ...defined], avgLength, fetch);
  }
  // A decisive lexical ranking is not fused: the question is not embedded and the nearest chunks are not looked up.
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

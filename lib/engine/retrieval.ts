import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { itemAt } from '@/lib/platform/arrays';
import { checkedSearchConfig, languageOfConfig, QUESTION_WORDS, SEARCH_CONFIGS, type SearchConfig } from './language';
import { parseQuery, type ParsedQuery } from './query-parse';
import { compoundTokens, DEFINITION_PASSAGES, definedTerms, isCompoundLexeme, numberAliases } from './query-expansion';
import { correctSpelling, mayBeMisspelt } from './spelling';
import { nearestChunkIds } from './vector-search';
import type { QueryTerm, QueryVector, RetrievedChunk } from './types';

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
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** Upper bound on chunks scored per query; keeps latency flat at 100,000 chunks. */
export const CANDIDATE_BUDGET = 200;

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

const rows = <T>(result: { rows: unknown[] }) => result.rows as T[];

export function bm25Idf(chunkCount: number, docFreq: number): number {
  return Math.log(1 + (chunkCount - docFreq + 0.5) / (docFreq + 0.5));
}

/** A lexeme as a tsquery operand. Lexemes come from to_tsvector over letters and digits; quoting is a second guard. */
const operand = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** The stock configuration whose stop words apply, per search configuration, as SQL over `s.search_config`. */
const stopWordConfigSql = sql`(case s.search_config ${sql.join(
  Object.values(SEARCH_CONFIGS).map((c) => sql`when ${c.config} then ${c.stopWords}`),
  sql` `,
)} else 'english' end)::regconfig`;

async function resolveTerms(
  db: Executor,
  kbId: string,
  parsed: ParsedQuery,
  query = '',
): Promise<{ terms: QueryTerm[]; compound: QueryTerm[]; chunkCount: number; avgLength: number; config: SearchConfig; gateThreshold: number | null }> {
  const own = parsed.words.map((word, i) => ({ word, spelled: parsed.spelled[i] ?? word, i, kind: 'word' }));
  // The configuration is not known before the first round trip: number aliases are English, and harmless to stem
  // elsewhere (they are dropped below unless the index is English).
  const aliases = numberAliases(parsed.words, 'almanac').map((a, k) => ({ ...a, i: 1000 + k, kind: 'alias' }));
  const compounds = compoundTokens(query).map((n, k) => ({ word: n, spelled: n, i: 2000 + k, kind: 'compound' }));
  const words = [...own, ...aliases, ...compounds];
  // Stemmed with the index's own configuration; a word that is a stop word as typed ("für", "qué") is dropped even
  // though its folded spelling ("fur", "que") would pass.
  const result = rows<{
    i: number | null;
    kind: string | null;
    word: string | null;
    lexeme: string | null;
    stop: boolean | null;
    df: number | null;
    chunk_count: number | null;
    total_length: number | null;
    search_config: string | null;
    gate_threshold: number | null;
  }>(
    await db.execute(sql`
      with s as (
        select chunk_count, total_length, search_config, gate_threshold from kb_index_stats where kb_id = ${kbId}
      ), w as (
        select word, spelled, i, kind from jsonb_to_recordset(${JSON.stringify(words)}::jsonb) as t(word text, spelled text, i int, kind text)
      ), l as (
        select w.i, w.kind, w.word, lex.lexeme, false as stop
        from s cross join w
        cross join lateral unnest(tsvector_to_array(to_tsvector(s.search_config::regconfig, w.spelled))) as lex(lexeme)
        where to_tsvector(${stopWordConfigSql}, w.spelled) <> ''::tsvector
        union all
        select w.i, w.kind, w.word, null, true from s cross join w where to_tsvector(${stopWordConfigSql}, w.spelled) = ''::tsvector
      )
      select l.i::int as i, l.kind, l.word, l.lexeme, l.stop, coalesce(t.doc_freq, 0)::int as df, s.chunk_count, s.total_length, s.search_config, s.gate_threshold
      from s
      left join l on true
      left join kb_terms t on t.kb_id = ${kbId} and t.lexeme = l.lexeme
      order by l.i`),
  );
  const config = checkedSearchConfig(result[0]?.search_config);
  const chunkCount = Number(result[0]?.chunk_count ?? 0);
  const avgLength = chunkCount > 0 ? Number(result[0]?.total_length ?? 0) / chunkCount : 1;
  const terms: QueryTerm[] = [];
  const compound: QueryTerm[] = [];
  const seen = new Set<string>();
  const questionWords = QUESTION_WORDS[languageOfConfig(config)];
  const english = languageOfConfig(config) === 'en';
  for (const r of result) {
    if (!r.lexeme || seen.has(r.lexeme) || questionWords.has(r.word ?? '')) continue;
    if (r.kind === 'alias' && (!english || Number(r.df) === 0)) continue;
    if (r.kind === 'compound') {
      // Only a whole token the index holds as one lexeme ("140/90", "kraftrecipes.com"), never the parts the question
      // already has.
      if (Number(r.df) > 0 && isCompoundLexeme(r.lexeme)) {
        seen.add(r.lexeme);
        compound.push({ word: r.word ?? r.lexeme, lexeme: r.lexeme, docFreq: Number(r.df), idf: bm25Idf(chunkCount, Number(r.df)) });
      }
      continue;
    }
    seen.add(r.lexeme);
    terms.push({ word: r.word ?? r.lexeme, lexeme: r.lexeme, docFreq: Number(r.df), idf: bm25Idf(chunkCount, Number(r.df)) });
  }
  // The last word as a prefix, only while it is not a whole word here ("constit" → "constitut", "constitution"…).
  const prefix = parsed.prefixWord;
  // A misspelt word stands for the knowledge base's nearest word (spelling.ts), in English, where general English
  // tells a misspelling from a word the knowledge base lacks.
  if (english && chunkCount > 0) {
    const misspelt = terms.filter((t) => t.docFreq === 0 && t.word !== prefix && mayBeMisspelt(t.word, t.lexeme));
    for (const c of await correctSpelling(db, kbId, misspelt)) {
      const at = terms.findIndex((t) => t.word === c.word && t.docFreq === 0);
      if (at < 0 || seen.has(c.lexeme)) continue;
      seen.add(c.lexeme);
      terms[at] = { word: c.word, lexeme: c.lexeme, docFreq: c.docFreq, idf: bm25Idf(chunkCount, c.docFreq) };
    }
  }
  // A stop word typed in full ("there", "qué") is a whole word of the language: it is not a prefix being typed.
  const stopped = new Set(result.filter((r) => r.stop === true && r.kind === 'word').map((r) => r.word));
  if (prefix && chunkCount > 0 && !stopped.has(prefix) && !questionWords.has(prefix)) {
    const own = result.filter((r) => r.word === prefix && r.lexeme && r.kind === 'word');
    const known = own.some((r) => Number(r.df) > 0);
    if (!known) {
      const stem = own[0]?.lexeme && own[0].lexeme.length < prefix.length ? own[0].lexeme : prefix;
      const expansions = rows<{ lexeme: string; df: number }>(
        await db.execute(sql`
          select lexeme, doc_freq as df from kb_terms
          where kb_id = ${kbId} and (lexeme like ${stem + '%'} or lexeme like ${prefix + '%'})
          order by doc_freq desc, lexeme limit 3`),
      );
      for (const e of expansions) {
        if (seen.has(e.lexeme)) continue;
        seen.add(e.lexeme);
        terms.push({ word: prefix, lexeme: e.lexeme, docFreq: Number(e.df), idf: bm25Idf(chunkCount, Number(e.df)) });
      }
      // The half-typed word's own stem is no word of anything: once it expands, it weighs as what it expands to.
      if (expansions.length > 0) {
        for (let k = terms.length - 1; k >= 0; k--) if (terms[k]!.word === prefix && terms[k]!.docFreq === 0) terms.splice(k, 1);
      }
    }
  }
  const threshold = result[0]?.gate_threshold;
  return { terms, compound, chunkCount, avgLength, config, gateThreshold: threshold === null || threshold === undefined ? null : Number(threshold) };
}

/** Reciprocal rank fusion constant (the usual 60) and the vector candidates fused with the lexical ones. */
export const RRF_K = 60;
export const VECTOR_CANDIDATES = 20;

/**
 * When the vectors have a say. Measured with a real sentence encoder (bench/engine-quality, round 6), plain RRF
 * let a model far weaker than BM25 at rank 1 (77% against 97% of gold documents first) reorder confident lexical
 * rankings: recall@1 fell from 97.1% to 86.8%. So the vector list is fused only where the lexical ranking is
 * close, its best document's score less than CLOSE_LEAD ahead of the next document's, and then with weight
 * VECTOR_WEIGHT. Both chosen on the tuning part (gold document first for 96.4% of it instead of 94.1%); over the
 * whole set 97.9%, no part lower (the tests' hashed-word stand-in: 96.6%, where plain RRF gave 92.0%).
 */
export const CLOSE_LEAD = 0.2;
export const VECTOR_WEIGHT = 0.25;

/**
 * How far the best lexical document leads the next one, as a share of its score; 1 when no other document matched
 * (nothing to choose between: an off-topic question that shares one word with one document must not bring in the
 * chunks nearest its meaning, which the relevance gate then read), 0 when nothing matched.
 */
export function lexicalLead(lexical: RetrievedChunk[]): number {
  const best = lexical[0];
  if (!best || best.score <= 0) return 0;
  const next = lexical.find((c) => c.documentId !== best.documentId);
  return next ? (best.score - next.score) / best.score : 1;
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

/** Candidates and BM25 ranking of one knowledge base's chunks for a set of terms (every one present). */
async function lexicalSearch(
  db: Executor,
  kbId: string,
  parsed: ParsedQuery,
  config: SearchConfig,
  present: QueryTerm[],
  avgLength: number,
  limit: number,
): Promise<RetrievedChunk[]> {
  // Candidate generation: rare terms first, until their postings would exceed the budget.
  const byRarity = [...present].sort((a, b) => a.docFreq - b.docFreq);
  const selective: QueryTerm[] = [];
  let postings = 0;
  for (const t of byRarity) {
    if (selective.length > 0 && postings + t.docFreq > CANDIDATE_BUDGET) break;
    selective.push(t);
    postings += t.docFreq;
  }
  const phraseFilter: SQL = parsed.phrases.length
    ? sql.join(
        parsed.phrases.map((p) => sql` and c.search_vector @@ phraseto_tsquery(${config}::regconfig, ${p.join(' ')})`),
        sql``,
      )
    : sql``;
  const selectiveQuery = selective.map((t) => operand(t.lexeme)).join(' | ');
  // When even the rarest term is common, an OR would be cut at the budget arbitrarily. Candidates are then the
  // chunks holding at least two of the four rarest terms (one GIN query, far more selective and more relevant),
  // topped up with a few holding the rarest term alone.
  // `present` is never empty: searchChunks returns before the lexical search when no term is present.
  const truncated = itemAt(byRarity, 0).docFreq > CANDIDATE_BUDGET;
  const rarest = byRarity.slice(0, 4).map((t) => operand(t.lexeme));
  const pairs: string[] = [];
  for (let i = 0; i < rarest.length; i++) for (let j = i + 1; j < rarest.length; j++) pairs.push(`(${rarest[i]} & ${rarest[j]})`);
  const candidates: SQL =
    truncated && pairs.length > 0
      ? sql`select distinct on (id) id, lexeme_count, search_vector from (
          (select c.id, c.lexeme_count, c.search_vector from chunks c where c.kb_id = ${kbId} and c.search_vector @@ ${pairs.join(' | ')}::tsquery ${phraseFilter} limit ${CANDIDATE_BUDGET}::int)
          union all
          (select c.id, c.lexeme_count, c.search_vector from chunks c where c.kb_id = ${kbId} and c.search_vector @@ ${selectiveQuery}::tsquery ${phraseFilter} limit ${Math.floor(CANDIDATE_BUDGET / 4)}::int)
        ) both_branches order by id`
      : sql`select c.id, c.lexeme_count, c.search_vector from chunks c
          where c.kb_id = ${kbId} and c.search_vector @@ ${selectiveQuery}::tsquery ${phraseFilter} limit ${CANDIDATE_BUDGET}::int`;
  const termRows = JSON.stringify(present.map((t) => ({ lexeme: t.lexeme, idf: t.idf })));

  // Scoring reads only the query's lexemes of each candidate vector: setweight marks them (weight C, unused by
  // ingestion), ts_filter keeps them, so unnest yields a handful of rows per chunk instead of every lexeme.
  // Heading-path occurrences (weight A) count half again (tuned on bench/engine-quality: 0 and 1 both did worse).
  const statement = sql`
      with q as (
        select * from jsonb_to_recordset(${termRows}::jsonb) as q(lexeme text, idf float8)
      ), lex as (
        select array_agg(lexeme) as a from q
      ), cand as materialized (
        ${candidates}
      ), cv as materialized (
        select cand.id, cand.lexeme_count,
               ts_filter(setweight(cand.search_vector, 'C', lex.a), '{c}') as qv,
               ts_filter(setweight(ts_filter(cand.search_vector, '{a}'), 'C', lex.a), '{c}') as hv
        from cand cross join lex
      ), tf as (
        select cv.id, cv.lexeme_count, x.lexeme, array_length(x.positions, 1)::float8 + 0.5 * coalesce(array_length(h.positions, 1), 0) as tf
        from cv cross join lateral unnest(cv.qv) x
        left join lateral unnest(cv.hv) h on h.lexeme = x.lexeme
      ), scored as (
        select tf.id, sum(
          q.idf * (tf.tf * ${BM25_K1 + 1}::float8) / (tf.tf + ${BM25_K1}::float8 * (1 - ${BM25_B}::float8 + ${BM25_B}::float8 * tf.lexeme_count / ${avgLength}::float8))
        ) as score
        from tf join q on q.lexeme = tf.lexeme
        group by tf.id
        order by score desc, tf.id
        limit ${limit}::int
      )
      select c.id, c.document_id, d.title, c.page, c.heading, c.content, c.token_count, s.score
      from scored s join chunks c on c.id = s.id join documents d on d.id = c.document_id
      order by s.score desc, c.id`;
  // The planner cannot see that testing a TOASTed tsvector costs far more than a GIN lookup, and on a mid-sized
  // knowledge base it picks a sequential scan that detoasts every chunk (seconds at 100,000 chunks). Candidate
  // generation must go through the GIN index: sequential scans are disabled for this one query (SET LOCAL, so
  // only inside this transaction), and JIT compilation, whose start-up dwarfs a 10 ms query, is switched off.
  const result = rows<{
    id: number;
    document_id: string;
    title: string;
    page: number | null;
    heading: string | null;
    content: string;
    token_count: number;
    score: number;
  }>(
    await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`);
      return tx.execute(statement);
    }),
  );
  return result.map(toRetrievedChunk);
}

type ChunkRow = {
  id: number;
  document_id: string;
  title: string;
  page: number | null;
  heading: string | null;
  content: string;
  token_count: number;
  score?: number;
};

function toRetrievedChunk(r: ChunkRow): RetrievedChunk {
  return {
    chunkId: Number(r.id),
    documentId: r.document_id,
    documentTitle: r.title,
    page: r.page === null ? null : Number(r.page),
    heading: r.heading,
    content: r.content,
    tokenCount: Number(r.token_count),
    score: Number(r.score ?? 0),
  };
}

/**
 * Reciprocal rank fusion of two rankings of chunk ids: 1 / (RRF_K + rank) summed over the lists, the vector list's
 * share scaled by `vectorWeight` (VECTOR_WEIGHT in the engine; bench/engine-quality/hybrid.ts measures others), ties
 * by chunk id.
 */
export function fuseRanks(lexical: number[], nearest: number[], vectorWeight = 1): number[] {
  const fused = new Map<number, number>();
  lexical.forEach((id, i) => fused.set(id, 1 / (RRF_K + i + 1)));
  nearest.forEach((id, i) => fused.set(id, (fused.get(id) ?? 0) + vectorWeight / (RRF_K + i + 1)));
  return [...fused.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
}

/**
 * Hybrid retrieval: the knowledge base's chunks nearest the question's vector (exact: pgvector where the database has
 * it, otherwise an inner product in SQL over real[]; vector-search.ts), fused with the lexical ranking by weighted
 * reciprocal rank (1 / (RRF_K + rank) for the lexical list, VECTOR_WEIGHT / (RRF_K + rank) for the vector list). A
 * chunk found only by its vector keeps half the lowest BM25 score of the list, so passage-rank features stay
 * comparable; the relevance gate still asks for the question's words.
 */
async function fuseWithVectors(db: Executor, kbId: string, lexical: RetrievedChunk[], vector: QueryVector, limit: number): Promise<RetrievedChunk[]> {
  const nearest = await nearestChunkIds(db, kbId, vector, VECTOR_CANDIDATES);
  const order = fuseRanks(
    lexical.map((c) => c.chunkId),
    nearest,
    VECTOR_WEIGHT,
  ).slice(0, limit);
  const byId = new Map(lexical.map((c) => [c.chunkId, c]));
  const missing = order.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    const floor = lexical.length ? Math.min(...lexical.map((c) => c.score)) / 2 : 0;
    const extra = rows<ChunkRow>(
      await db.execute(sql`
        select c.id, c.document_id, d.title, c.page, c.heading, c.content, c.token_count
        from chunks c join documents d on d.id = c.document_id
        where c.kb_id = ${kbId} and c.id = any(${`{${missing.join(',')}}`}::bigint[])`),
    );
    for (const r of extra) byId.set(Number(r.id), { ...toRetrievedChunk(r), score: floor });
  }
  return order.map((id) => byId.get(id)).filter((c): c is RetrievedChunk => c !== undefined);
}

/**
 * The lexemes of words (folded, as `tokenize` gives them) under a text-search configuration: how answer composition
 * knows which words of a passage are the question's terms, with the very stemmer that indexed them. One round trip
 * for a few hundred words.
 */
export async function lexemesOf(db: Executor, config: SearchConfig, words: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  const known = LEXEME_CACHE.get(config) ?? new Map<string, string[]>();
  LEXEME_CACHE.set(config, known);
  const missing: string[] = [];
  for (const w of new Set(words)) {
    if (w.length > 64) continue;
    const hit = known.get(w);
    if (hit) map.set(w, hit);
    else missing.push(w);
  }
  if (missing.length === 0) return map;
  const result = rows<{ w: string; lx: string[] | string | null }>(
    await db.execute(sql`
      select w, tsvector_to_array(to_tsvector(${config}::regconfig, w)) as lx
      from jsonb_array_elements_text(${JSON.stringify(missing)}::jsonb) as t(w)`),
  );
  // A word's lexemes never change for a configuration: remembered (bounded) so passages read again cost nothing.
  if (known.size + result.length > LEXEME_CACHE_MAX) known.clear();
  for (const r of result) {
    const lexemes = parseTextArray(r.lx);
    map.set(r.w, lexemes);
    known.set(r.w, lexemes);
  }
  return map;
}

const LEXEME_CACHE_MAX = 200_000;
const LEXEME_CACHE = new Map<SearchConfig, Map<string, string[]>>();

/** A text[] as the driver returns it: an array (node-postgres, PGlite) or its literal `{a,b}`. */
function parseTextArray(value: string[] | string | null): string[] {
  if (value === null) return [];
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, '');
  return inner === '' ? [] : inner.split(',').map((x) => x.replace(/^"|"$/g, ''));
}

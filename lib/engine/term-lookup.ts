import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { checkedSearchConfig, languageOfConfig, QUESTION_WORDS, SEARCH_CONFIGS, type SearchConfig } from './language';
import type { ParsedQuery } from './query-parse';
import { compoundTokens, isCompoundLexeme, numberAliases, regionalSpellingAliases, romanNumeralAliases, wordFormAliases } from './query-expansion';
import { correctSpelling, mayBeMisspelt, rangeEnd } from './spelling';
import { splitCompounds } from './decompounding';
import { rows } from './sql-rows';
import type { QueryTerm } from './types';
import { GATE_VERSION } from './gate-version';
import { PARAPHRASE_WEIGHT, paraphraseSpellings } from './paraphrases';

/** A query's words as the knowledge base's terms, each with its document frequency and BM25 IDF from kb_terms. */

export function bm25Idf(chunkCount: number, docFreq: number): number {
  return Math.log(1 + (chunkCount - docFreq + 0.5) / (docFreq + 0.5));
}

const stopWordConfigSql = sql`(case s.search_config ${sql.join(
  Object.values(SEARCH_CONFIGS).map((c) => sql`when ${c.config} then ${c.stopWords}`),
  sql` `,
)} else 'english' end)::regconfig`;

export async function resolveTerms(
  db: Executor,
  kbId: string,
  parsed: ParsedQuery,
  query = '',
): Promise<{
  terms: QueryTerm[];
  compound: QueryTerm[];
  paraphrased: QueryTerm[];
  chunkCount: number;
  avgLength: number;
  config: SearchConfig;
  gateThreshold: number | null;
}> {
  const own = parsed.words.map((word, i) => ({ word, spelled: parsed.spelled[i] ?? word, i, kind: 'word' }));
  // The configuration is unknown before the first round trip: number aliases, irregular forms and regional spellings
  // are dropped below unless it is English, and so is an alias the knowledge base never uses.
  const aliases = [
    ...numberAliases(parsed.words, 'almanac'),
    ...romanNumeralAliases(query),
    ...(await wordFormAliases(parsed.words)),
    ...regionalSpellingAliases(parsed.words),
    ...parsed.negations.map((n) => ({ word: n, spelled: n })),
  ].map((a, k) => ({ ...a, i: 1000 + k, kind: 'alias' }));
  const compounds = compoundTokens(query).map((n, k) => ({ word: n, spelled: n, i: 2000 + k, kind: 'compound' }));
  // Everyday paraphrases (paraphrases.ts) select and score candidates, as the reader counts them: "How long do we have to
  // tell the regulator…" reaches the passage that says "notify". English only, like the list.
  const paraphrases = parsed.words
    .flatMap((word) => paraphraseSpellings(word).map((spelled) => ({ word, spelled })))
    .map((a, k) => ({ ...a, i: 3000 + k, kind: 'paraphrase' }));
  const words = [...own, ...aliases, ...compounds, ...paraphrases];
  // A word that is a stop word as typed ("für", "qué") is dropped even though its folded spelling would pass.
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
    gate_model: string | null;
  }>(
    await db.execute(sql`
      with s as (
        select chunk_count, total_length, search_config, gate_threshold, gate_model from kb_index_stats where kb_id = ${kbId}
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
      select l.i::int as i, l.kind, l.word, l.lexeme, l.stop, coalesce(t.doc_freq, 0)::int as df, s.chunk_count, s.total_length, s.search_config, s.gate_threshold, s.gate_model
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
  const paraphrased: QueryTerm[] = [];
  const seen = new Set<string>();
  const questionWords = QUESTION_WORDS[languageOfConfig(config)];
  const english = languageOfConfig(config) === 'en';
  const stopped = new Set(result.filter((r) => r.stop === true && r.kind === 'word').map((r) => r.word));
  for (const r of result) {
    if (!r.lexeme || seen.has(r.lexeme) || questionWords.has(r.word ?? '')) continue;
    if ((r.kind === 'alias' || r.kind === 'paraphrase') && (!english || Number(r.df) === 0)) continue;
    if (r.kind === 'paraphrase') {
      // A paraphrase counts for less than the word itself, as in the reader, and never for a stop word ("up" of "throw up").
      if (stopped.has(r.word)) continue;
      seen.add(r.lexeme);
      paraphrased.push({
        word: r.word ?? r.lexeme,
        lexeme: r.lexeme,
        docFreq: Number(r.df),
        idf: PARAPHRASE_WEIGHT * bm25Idf(chunkCount, Number(r.df)),
        paraphrase: true,
      });
      continue;
    }
    if (r.kind === 'compound') {
      // Only a whole token the index holds as one lexeme ("140/90"), never the parts the question already has.
      if (Number(r.df) > 0 && isCompoundLexeme(r.lexeme)) {
        seen.add(r.lexeme);
        compound.push({ word: r.word ?? r.lexeme, lexeme: r.lexeme, docFreq: Number(r.df), idf: bm25Idf(chunkCount, Number(r.df)) });
      }
      continue;
    }
    seen.add(r.lexeme);
    terms.push({ word: r.word ?? r.lexeme, lexeme: r.lexeme, docFreq: Number(r.df), idf: bm25Idf(chunkCount, Number(r.df)) });
  }
  const prefix = parsed.prefixWord;
  // Only in English, where general English tells a misspelling from a word the knowledge base lacks.
  if (english && chunkCount > 0) {
    const misspelt = terms.filter((t) => t.docFreq === 0 && t.word !== prefix && mayBeMisspelt(t.word, t.lexeme));
    for (const c of await correctSpelling(db, kbId, misspelt)) {
      const at = terms.findIndex((t) => t.word === c.word && t.docFreq === 0);
      if (at < 0 || seen.has(c.lexeme)) continue;
      seen.add(c.lexeme);
      terms[at] = { word: c.word, lexeme: c.lexeme, docFreq: c.docFreq, idf: bm25Idf(chunkCount, c.docFreq) };
    }
  }
  if (languageOfConfig(config) === 'de' && chunkCount > 0) {
    // German compounds: a word the index lacks is looked up by its two parts, or else as the compounds it begins.
    const absent = terms.filter((t) => t.docFreq === 0 && t.word !== prefix).slice(0, MAX_EXPANDED_WORDS);
    const [split, begun] = await Promise.all([
      splitCompounds(db, kbId, config, [...new Set(absent.map((t) => t.word))]),
      termsBeginningWith(
        db,
        kbId,
        absent.filter((t) => t.lexeme.length >= MIN_COMPOUND_START && /^\p{L}+$/u.test(t.lexeme)).map((t) => ({ word: t.word, prefixes: [t.lexeme] })),
        COMPOUNDS_PER_WORD,
      ),
    ]);
    const splitWords = new Set(split.map((p) => p.word));
    expand(terms, seen, [...split, ...begun.filter((b) => !splitWords.has(b.word))], chunkCount);
  }
  if (prefix && chunkCount > 0 && !stopped.has(prefix) && !questionWords.has(prefix)) {
    const own = result.filter((r) => r.word === prefix && r.lexeme && r.kind === 'word');
    const known = own.some((r) => Number(r.df) > 0);
    if (!known) {
      const stem = own[0]?.lexeme && own[0].lexeme.length < prefix.length ? own[0].lexeme : prefix;
      expand(terms, seen, await termsBeginningWith(db, kbId, [{ word: prefix, prefixes: [stem, prefix] }], 3), chunkCount);
    }
  }
  // A threshold calibrated for other gate models means nothing to these: the shipped one applies until recalibration.
  const threshold = result[0]?.gate_model === GATE_VERSION ? result[0].gate_threshold : null;
  return {
    terms,
    compound,
    paraphrased,
    chunkCount,
    avgLength,
    config,
    gateThreshold: threshold === null || threshold === undefined ? null : Number(threshold),
  };
}

/** A German question word is read as the first part of the index's compounds only from this many letters of its lexeme. */
const MIN_COMPOUND_START = 6;
const COMPOUNDS_PER_WORD = 2;
const MAX_EXPANDED_WORDS = 4;

/**
 * Each word's most used terms of the knowledge base that begin with one of its prefixes, in one round trip; each prefix
 * is read as a range of the (kb_id, lexeme) key, as spelling.ts reads its candidates.
 */
async function termsBeginningWith(
  db: Executor,
  kbId: string,
  probes: ReadonlyArray<{ word: string; prefixes: string[] }>,
  limit: number,
): Promise<Array<{ word: string; lexeme: string; docFreq: number }>> {
  const ranges = probes.flatMap((p) => [...new Set(p.prefixes)].filter(Boolean).map((prefix) => ({ word: p.word, prefix, hi: rangeEnd(prefix) })));
  if (ranges.length === 0) return [];
  const found = rows<{ word: string; lexeme: string; df: number }>(
    await db.execute(sql`
      select q.word, t.lexeme, t.doc_freq::int as df
      from jsonb_to_recordset(${JSON.stringify(ranges)}::jsonb) as q(word text, prefix text, hi text)
      cross join lateral (
        select lexeme, doc_freq from kb_terms
        where kb_id = ${kbId} and lexeme >= q.prefix and lexeme < q.hi and lexeme like q.prefix || '%'
        order by doc_freq desc, lexeme limit ${limit}::int
      ) t`),
  );
  // A word read under two prefixes keeps its `limit` most used terms of both.
  const byWord = new Map<string, Array<{ word: string; lexeme: string; docFreq: number }>>();
  for (const r of found) {
    const list = byWord.get(r.word) ?? [];
    if (!list.some((x) => x.lexeme === r.lexeme)) list.push({ word: r.word, lexeme: r.lexeme, docFreq: Number(r.df) });
    byWord.set(r.word, list);
  }
  return [...byWord.values()].flatMap((list) =>
    list.sort((x, y) => y.docFreq - x.docFreq || (x.lexeme < y.lexeme ? -1 : x.lexeme > y.lexeme ? 1 : 0)).slice(0, limit),
  );
}

/**
 * Adds what a word the index lacks was found as (its parts, its compounds, the words a half-typed word begins), and
 * drops the word itself: it weighs as what it stands for, not as an unknown word as well.
 */
function expand(terms: QueryTerm[], seen: Set<string>, found: ReadonlyArray<{ word: string; lexeme: string; docFreq: number }>, chunkCount: number) {
  for (const f of found) {
    if (seen.has(f.lexeme)) continue;
    seen.add(f.lexeme);
    terms.push({ word: f.word, lexeme: f.lexeme, docFreq: f.docFreq, idf: bm25Idf(chunkCount, f.docFreq) });
  }
  const words = new Set(found.map((f) => f.word));
  for (let k = terms.length - 1; k >= 0; k--) if (words.has(terms[k]!.word) && terms[k]!.docFreq === 0) terms.splice(k, 1);
}

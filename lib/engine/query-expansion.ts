import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { capture } from '@/lib/platform/arrays';
import { languageOfConfig, type SearchConfig } from './language';
import { ENGLISH_NUMBER_WORDS, ENGLISH_ORDINAL_WORDS, romanValue } from './numbers';
import { rows } from './sql-rows';
import type { QueryTerm, RetrievedChunk } from './types';
import { irregularForms } from './word-forms';
import { regionalSpelling } from './regional-spellings';
import { lightStem, STOP_WORDS, tokenize } from './text';

/** Other words a question is looked up under (docs/api.md §8.1), as the question words they stand for. */

const NUMBER_WORDS: ReadonlyMap<string, string> = new Map(Object.entries(ENGLISH_NUMBER_WORDS).map(([w, n]) => [w, String(n)]));
const NUMBER_DIGITS: ReadonlyMap<string, string> = new Map([...NUMBER_WORDS].map(([w, d]) => [d, w]));

const ORDINAL_WORDS: ReadonlyMap<number, string> = new Map(Object.entries(ENGLISH_ORDINAL_WORDS).map(([w, n]) => [n, w]));
const ordinalDigits = (n: number) => `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;
/** Nouns a number after which counts in order: "season 2" is the second season, "part 3" the third part. */
const IN_ORDER = new Set(['season', 'series', 'book', 'part', 'chapter', 'episode', 'volume', 'edition', 'generation', 'phase', 'stage', 'wave', 'round']);

/**
 * An English number word and its digits, both ways: a chunk's "38 of 50" answers "fifty states". An ordinal likewise
 * ("19th" and "nineteenth"), and a number after a noun counted in order as its ordinal ("season 2", "second season").
 */
export function numberAliases(words: string[], config: SearchConfig): Array<{ word: string; spelled: string }> {
  if (languageOfConfig(config) !== 'en') return [];
  const out: Array<{ word: string; spelled: string }> = [];
  words.forEach((word, i) => {
    const other = NUMBER_WORDS.get(word) ?? NUMBER_DIGITS.get(word);
    if (other) out.push({ word, spelled: other });
    const ordinal = ENGLISH_ORDINAL_WORDS[word];
    if (ordinal !== undefined) out.push({ word, spelled: ordinalDigits(ordinal) });
    const n = Number(/^(\d{1,2})(?:st|nd|rd|th)$/.exec(word)?.[1]);
    const spelled = ORDINAL_WORDS.get(n);
    if (spelled && word === ordinalDigits(n)) out.push({ word, spelled });
    const counted = /^\d{1,2}$/.test(word) && IN_ORDER.has(words[i - 1] ?? '') ? ORDINAL_WORDS.get(Number(word)) : undefined;
    if (counted) out.push({ word, spelled: counted });
  });
  return out;
}

/** Nouns a Roman numeral after which is one: "Type II", "Title IX", "World War I" (and those counted in order). */
const NUMBERED = new Set([...IN_ORDER, 'type', 'class', 'grade', 'schedule', 'title', 'article', 'amendment', 'category', 'level', 'tier', 'war', 'act']);

/**
 * A Roman numeral in capitals after a name or a numbered noun, looked up as its number too ("World War I" finds "the
 * First World War", "Schedule II" finds "second" and "2", "Henry VIII" finds "eighth"). "I" is a stop word, so the
 * index never holds it: a question's "World War I" is found as "first" and "1st" (a lone "1" is in too many statements,
 * "on 1 September 1939"), and "I" counts only after a name or a numbered noun, never as the pronoun ("Can I…", "what
 * should I do"). "V" and "X" alone are letters as often ("Roe v. Wade") and stay as typed: the documents that mean
 * "Article V" write it so. Never the other way: "season 2" looked up as "II" finds "Yahya Abdul-Mateen II"
 * (bench/engine-quality/README.md, stop 55).
 */
export function romanNumeralAliases(query: string): Array<{ word: string; spelled: string }> {
  const tokens = [...query.matchAll(/[\p{L}\p{N}]+/gu)];
  return tokens.flatMap((m, i) => {
    const token = m[0];
    const roman = token === 'V' || token === 'X' ? null : romanValue(token);
    const previous = tokens[i - 1]?.[0];
    if (roman === null || previous === undefined) return [];
    // "I/O", "Form I-9", "ii-V-I": a letter of a longer name.
    if (/^[/'’-][\p{L}\p{N}]/u.test(query.slice(m.index + token.length)) || /[\p{L}\p{N}][/'’-]$/u.test(query.slice(0, m.index))) return [];
    const afterName = i >= 2 && /^\p{Lu}/u.test(previous) && !STOP_WORDS.has(previous.toLowerCase());
    if (!afterName && !NUMBERED.has(previous.toLowerCase())) return [];
    const word = token.toLowerCase();
    return [ordinalDigits(roman), ORDINAL_WORDS.get(roman), roman >= 2 ? String(roman) : undefined].flatMap((spelled) => (spelled ? [{ word, spelled }] : []));
  });
}

/** An English word's irregular forms (word-forms.ts): "Who wrote…?" finds "write", "written"; "children" finds "child". */
export async function wordFormAliases(words: string[]): Promise<Array<{ word: string; spelled: string }>> {
  const forms = await Promise.all(words.map(irregularForms));
  return words.flatMap((word, k) => (forms[k] ?? []).map((spelled) => ({ word, spelled })));
}

/** An English word's other regional spelling (regional-spellings.ts): "diarrhea" finds "diarrhoea", "colour" finds "color". */
export function regionalSpellingAliases(words: string[]): Array<{ word: string; spelled: string }> {
  return words.flatMap((word) => {
    const spelled = regionalSpelling(word);
    return spelled ? [{ word, spelled }] : [];
  });
}

/** Tokens the parser keeps whole ("140/90", "COVID-19"): looked up as typed too, for retrieval only. */
const COMPOUND = /[\p{L}\p{N}_-]+(?:[.@/:][\p{L}\p{N}_-]+)+|[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu;

export function compoundTokens(query: string): string[] {
  const found = (query.match(COMPOUND) ?? []).map((t) => t.replace(/^[-_]+|[-_]+$/g, '')).filter((t) => /[.@/:]/.test(t) || /\d/.test(t));
  return [...new Set(found)].filter((t) => t.length <= 64).slice(0, 8);
}

export const isCompoundLexeme = (lexeme: string) => /[./@]|\p{L}-|-\p{N}/u.test(lexeme);

export const DEFINITION_PASSAGES = 5;
const MAX_DEFINED_TERMS = 4;
const MIN_DEFINING_IDF = 1;
/** A word is read up to 64 characters: unbounded, a long run without spaces would make the match quadratic. */
const DEFINITION = /((?:[\p{L}][\p{L}\p{N}'’-]{0,63}\s+){0,3}[\p{L}][\p{L}\p{N}'’-]{0,63})\s*\(([\p{L}][\p{L}\p{N}'’ -]{1,40})\)/gu;

/** Terms the passages define for the question ("severe allergic reaction (anaphylaxis)"), as the question word they stand for. */
export async function definedTerms(
  db: Executor,
  kbId: string,
  config: SearchConfig,
  terms: QueryTerm[],
  passages: RetrievedChunk[],
  idf: (docFreq: number) => number,
): Promise<QueryTerm[]> {
  const pairs: Array<{ outer: string[]; inner: string[] }> = [];
  for (const p of passages) {
    for (const m of p.content.matchAll(DEFINITION)) {
      const bracketed = capture(m, 2);
      const outer = tokenize(capture(m, 1));
      const inner = tokenize(bracketed);
      if (inner.length === 0 || inner.length > 3 || /\d/.test(bracketed)) continue;
      let start = outer.length;
      while (start > 0 && !STOP_WORDS.has(outer[start - 1]!)) start--;
      if (start < outer.length) pairs.push({ outer: outer.slice(start), inner });
    }
  }
  if (pairs.length === 0) return [];
  // Without a round trip, a pair whose description cannot hold two question words is dropped: most brackets end here.
  const heavy = terms.filter((t) => t.docFreq > 0 && t.idf >= MIN_DEFINING_IDF);
  const mayMatch = (w: string) => heavy.some((t) => t.word === w || w.startsWith(t.lexeme) || lightStem(w) === lightStem(t.word));
  const plausible = pairs.filter(({ outer, inner }) =>
    (
      [
        [outer, inner],
        [inner, outer],
      ] as const
    ).some(([d, n]) => n.length === 1 && new Set(d.filter(mayMatch)).size >= 2),
  );
  if (plausible.length === 0) return [];
  const looked = rows<{ w: string; lexeme: string; df: number }>(
    await db.execute(sql`
      select t.w, lex.lexeme, coalesce(k.doc_freq, 0)::int as df
      from jsonb_array_elements_text(${JSON.stringify([...new Set(plausible.flatMap((x) => [...x.outer, ...x.inner]))])}::jsonb) as t(w)
      cross join lateral unnest(tsvector_to_array(to_tsvector(${config}::regconfig, t.w))) as lex(lexeme)
      left join kb_terms k on k.kb_id = ${kbId} and k.lexeme = lex.lexeme`),
  );
  const lexemes = new Map<string, string[]>();
  const docFreq = new Map<string, number>();
  for (const r of looked) {
    lexemes.set(r.w, [...(lexemes.get(r.w) ?? []), r.lexeme]);
    docFreq.set(r.lexeme, Number(r.df));
  }
  const byLexeme = new Map(terms.map((t) => [t.lexeme, t]));
  const found = new Map<string, QueryTerm>();
  const side = (words: string[]) => words.flatMap((w) => lexemes.get(w) ?? []);
  for (const { outer, inner } of plausible) {
    // A name is one word: two words each side ("The ABC test (several states)") are a qualifier, not a definition.
    for (const [from, to] of (
      [
        [outer, inner],
        [inner, outer],
      ] as const
    )
      .filter(([, name]) => name.length === 1)
      .map(([d, n]) => [side(d), side(n)] as const)) {
      const hits = from.map((l) => byLexeme.get(l)).filter((t): t is QueryTerm => t !== undefined && t.docFreq > 0 && t.idf >= MIN_DEFINING_IDF);
      if (new Set(hits.map((t) => t.word)).size < 2) continue;
      const heaviest = hits.reduce((a, b) => (b.idf > a.idf ? b : a));
      for (const l of to) {
        const df = docFreq.get(l) ?? 0;
        if (df > 0 && !byLexeme.has(l) && !found.has(l)) found.set(l, { word: heaviest.word, lexeme: l, docFreq: df, idf: idf(df) });
      }
    }
  }
  return [...found.values()].sort((a, b) => b.idf - a.idf || a.lexeme.localeCompare(b.lexeme)).slice(0, MAX_DEFINED_TERMS);
}

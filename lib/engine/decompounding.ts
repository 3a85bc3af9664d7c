import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import type { SearchConfig } from './language';
import { rows } from './sql-rows';

/**
 * German writes a compound as one word ("Fußballweltmeister", "Kündigungsfrist"), and Snowball's German stemmer keeps
 * it whole: a question's compound the knowledge base never uses finds nothing, although its documents say "Weltmeister"
 * and "Fußball", or "Kündigung" and "Frist". A German question word the index lacks is therefore looked up by its two
 * parts, where the knowledge base holds both (docs/api.md §8.1). Measured on XQuAD's German part
 * (bench/engine-quality/README.md, stop 44).
 */

/** Parts shorter than this are too often a prefix or an ending ("un", "ung") rather than a word. */
const MIN_PART = 4;
/** Shorter words are seldom compounds of two parts of MIN_PART letters. */
const MIN_WORD = 2 * MIN_PART;
/** The joints German puts between a compound's parts ("Arbeit-s-vertrag", "Kind-er-garten", "Tage-s-licht"). */
const LINKS = ['', 's', 'es', 'n', 'en', 'e', 'er'] as const;
const MAX_WORDS = 4;

/** Every way to read `word` as two parts with a joint between them, longest first part first. */
export function compoundSplits(word: string): Array<{ head: string; tail: string }> {
  if (word.length < MIN_WORD || !/^\p{L}+$/u.test(word)) return [];
  const out: Array<{ head: string; tail: string }> = [];
  for (let end = word.length - MIN_PART; end >= MIN_PART; end--) {
    const tail = word.slice(end);
    for (const link of LINKS) {
      if (link && !word.slice(0, end).endsWith(link)) continue;
      const head = word.slice(0, end - link.length);
      if (head.length >= MIN_PART) out.push({ head, tail });
    }
  }
  return out;
}

export interface CompoundPart {
  /** The question word the part stands for. */
  word: string;
  lexeme: string;
  docFreq: number;
}

/**
 * The parts of each word the knowledge base holds both of, in one round trip: for each word, the split whose rarer part
 * is most used (a real compound's parts are words of the text; a chance split's seldom both are), the longer first part
 * on a tie.
 */
export async function splitCompounds(db: Executor, kbId: string, config: SearchConfig, words: readonly string[]): Promise<CompoundPart[]> {
  const probes = words
    .slice(0, MAX_WORDS)
    .flatMap((word, k) => compoundSplits(word).flatMap((s, n) => [s.head, s.tail].map((part, side) => ({ k, n, side, part }))));
  if (probes.length === 0) return [];
  const found = rows<{ k: number; n: number; side: number; lexeme: string; df: number }>(
    await db.execute(sql`
      select p.k::int as k, p.n::int as n, p.side::int as side, t.lexeme, t.doc_freq::int as df
      from jsonb_to_recordset(${JSON.stringify(probes)}::jsonb) as p(k int, n int, side int, part text)
      cross join lateral unnest(tsvector_to_array(to_tsvector(${config}::regconfig, p.part))) as lex(lexeme)
      join kb_terms t on t.kb_id = ${kbId} and t.lexeme = lex.lexeme`),
  );
  const parts: CompoundPart[] = [];
  words.slice(0, MAX_WORDS).forEach((word, k) => {
    let best: { n: number; rarer: number; lexemes: Array<{ lexeme: string; df: number }> } | null = null;
    for (let n = 0; n < compoundSplits(word).length; n++) {
      const head = found.find((r) => Number(r.k) === k && Number(r.n) === n && Number(r.side) === 0);
      const tail = found.find((r) => Number(r.k) === k && Number(r.n) === n && Number(r.side) === 1);
      if (!head || !tail || head.lexeme === tail.lexeme) continue;
      const rarer = Math.min(Number(head.df), Number(tail.df));
      if (!best || rarer > best.rarer)
        best = {
          n,
          rarer,
          lexemes: [
            { lexeme: head.lexeme, df: Number(head.df) },
            { lexeme: tail.lexeme, df: Number(tail.df) },
          ],
        };
    }
    for (const l of best?.lexemes ?? []) parts.push({ word, lexeme: l.lexeme, docFreq: l.df });
  });
  return parts;
}

/** A question word is read as the first part of the index's compounds only from this many letters of its lexeme. */
const MIN_PREFIX = 6;
const COMPOUNDS_PER_WORD = 2;

/**
 * The other way round: the question's word is the first part of compounds the documents use ("Kündigungsschutz" of
 * "Kündigungsschutzgesetz"). The knowledge base's most used terms that begin with the word's lexeme, for each word
 * (its lexeme as the index stems it) that the index lacks and that splitCompounds could not split.
 */
export async function compoundsStartingWith(db: Executor, kbId: string, terms: ReadonlyArray<{ word: string; lexeme: string }>): Promise<CompoundPart[]> {
  const probes = terms
    .filter((t) => t.lexeme.length >= MIN_PREFIX && /^\p{L}+$/u.test(t.lexeme))
    .slice(0, MAX_WORDS)
    .map((t, k) => ({ k, word: t.word, lexeme: t.lexeme }));
  if (probes.length === 0) return [];
  const found = rows<{ word: string; lexeme: string; df: number }>(
    await db.execute(sql`
      select p.word, t.lexeme, t.doc_freq::int as df
      from jsonb_to_recordset(${JSON.stringify(probes)}::jsonb) as p(k int, word text, lexeme text)
      cross join lateral (
        select lexeme, doc_freq from kb_terms
        where kb_id = ${kbId} and lexeme > p.lexeme and lexeme like p.lexeme || '%'
        order by doc_freq desc, lexeme limit ${COMPOUNDS_PER_WORD}::int
      ) t`),
  );
  return found.map((r) => ({ word: r.word, lexeme: r.lexeme, docFreq: Number(r.df) }));
}

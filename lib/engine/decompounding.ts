import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import type { SearchConfig } from './language';
import { rows } from './sql-rows';

/**
 * German writes a compound as one word ("Fußballweltmeister", "Kündigungsfrist"), and Snowball's German stemmer keeps
 * it whole: a question's compound the knowledge base never uses finds nothing, although its documents say "Weltmeister"
 * and "Fußball", or "Kündigung" and "Frist". A German question word the index lacks is therefore looked up by its two
 * parts, where the knowledge base holds both, or else as the compounds it begins (term-lookup.ts; docs/api.md §8.1).
 * Measured on XQuAD's German part
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
  const at = new Map(found.map((r) => [`${r.k}|${r.n}|${r.side}`, { lexeme: r.lexeme, df: Number(r.df) }]));
  const parts: CompoundPart[] = [];
  words.slice(0, MAX_WORDS).forEach((word, k) => {
    let best: { rarer: number; lexemes: Array<{ lexeme: string; df: number }> } | null = null;
    for (let n = 0, splits = compoundSplits(word).length; n < splits; n++) {
      const head = at.get(`${k}|${n}|0`);
      const tail = at.get(`${k}|${n}|1`);
      if (!head || !tail || head.lexeme === tail.lexeme) continue;
      const rarer = Math.min(head.df, tail.df);
      if (!best || rarer > best.rarer) best = { rarer, lexemes: [head, tail] };
    }
    for (const l of best?.lexemes ?? []) parts.push({ word, lexeme: l.lexeme, docFreq: l.df });
  });
  return parts;
}

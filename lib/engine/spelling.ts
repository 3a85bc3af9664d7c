import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { isGeneralEnglish } from './general-frequency';

/**
 * Misspelt question words ("endoplasmic reticulm", "coruption", "randomisation" against an index that says
 * "randomization"): a word the knowledge base never uses, that is no word of general English either, is read as the
 * knowledge base's nearest word when one lies within one edit (two for a word of nine letters or more), counting a
 * swap of neighbours as one edit. A real English word the knowledge base lacks ("station" asked of a pharmacology
 * guide that says "statin") is never changed: that absence is what the relevance gate weighs.
 *
 * The knowledge base's words are its stemmed lexemes (kb_terms); candidates share the misspelt stem's first two
 * letters and are read with the primary key's range, so the lookup costs one short index scan per word.
 */
export const MIN_CORRECTED_LENGTH = 6;
/** Candidates read per word, most frequent first. */
const CANDIDATES = 64;

export interface Misspelling {
  /** The question word as typed. */
  word: string;
  /** Its stem in the knowledge base's configuration (a lexeme the index does not hold). */
  lexeme: string;
}

export interface Correction {
  word: string;
  lexeme: string;
  docFreq: number;
}

/** Whether a question word may be a misspelling worth looking up: English letters only, long enough, unknown. */
export function mayBeMisspelt(word: string, lexeme: string): boolean {
  return word.length >= MIN_CORRECTED_LENGTH && lexeme.length >= MIN_CORRECTED_LENGTH - 1 && /^[a-z]+$/.test(word) && !isGeneralEnglish(word);
}

export function allowedEdits(lexeme: string): number {
  return lexeme.length >= 9 ? 2 : 1;
}

/** Optimal string alignment distance (Damerau–Levenshtein with adjacent swaps), stopping early past `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] ?? 0) + 1);
      current.push(d);
      best = Math.min(best, d);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

/** The next string after every string that starts with `prefix` (its last letter moved one on). */
const rangeEnd = (prefix: string) => prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

/** The knowledge base's nearest word for each misspelling that has one (one statement for all of them). */
export async function correctSpelling(db: Executor, kbId: string, words: readonly Misspelling[]): Promise<Correction[]> {
  if (words.length === 0) return [];
  const probes = words.map((w, k) => {
    const edits = allowedEdits(w.lexeme);
    const prefix = w.lexeme.slice(0, 2);
    return { k, lo: prefix, hi: rangeEnd(prefix), shortest: w.lexeme.length - edits, longest: w.lexeme.length + edits };
  });
  const found = (
    await db.execute(sql`
      select q.k::int as k, t.lexeme, t.doc_freq::int as df
      from jsonb_to_recordset(${JSON.stringify(probes)}::jsonb) as q(k int, lo text, hi text, shortest int, longest int)
      cross join lateral (
        select lexeme, doc_freq from kb_terms
        where kb_id = ${kbId} and lexeme >= q.lo and lexeme < q.hi and length(lexeme) between q.shortest and q.longest
        order by doc_freq desc limit ${CANDIDATES}::int
      ) t`)
  ).rows as Array<{ k: number; lexeme: string; df: number }>;
  const corrections: Correction[] = [];
  words.forEach((w, k) => {
    const limit = allowedEdits(w.lexeme);
    let best: { lexeme: string; df: number; distance: number } | null = null;
    for (const row of found) {
      if (Number(row.k) !== k || row.lexeme === w.lexeme) continue;
      const distance = editDistance(w.lexeme, row.lexeme, limit);
      if (distance > limit) continue;
      // Nearest first; among equals, the word the knowledge base uses most.
      if (!best || distance < best.distance || (distance === best.distance && Number(row.df) > best.df))
        best = { lexeme: row.lexeme, df: Number(row.df), distance };
    }
    if (best) corrections.push({ word: w.word, lexeme: best.lexeme, docFreq: best.df });
  });
  return corrections;
}

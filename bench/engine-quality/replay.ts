/**
 * The answer metrics of run.ts, recomputed in seconds from a snapshot (snapshot.ts) of what retrieval gave every
 * question: for iterating on answer selection. Retrieval metrics are run.ts's alone, and the figures of record are
 * run.ts's (it takes the real path end to end); the two agree while the snapshot is fresh.
 *
 *   npx tsx bench/engine-quality/replay.ts [--snapshot file] [--verbose] [--split tune|holdout] [--diagnose] [id…]
 *
 * --verbose lists the misses of the chosen part (tuning by default: held-out and blind misses are not for reading while
 * tuning);
 * --diagnose adds the top candidate statements and the rank of the first one holding the gold fact.
 */
import { composeExtractiveAnswer } from '@/lib/engine/answer';
import { analyseQuestion } from '@/lib/engine/question';
import { rankSentences } from '@/lib/engine/sentence-ranker';
import { itemAt } from '@/lib/platform/arrays';
import {
  answerOutcome,
  containsFact,
  countOutcome,
  emptyAnswerMetrics,
  emptyAnswerParts,
  isHeldOut,
  loadOffTopicSet,
  partOf,
  printAnswerTable,
  type AnswerMetrics,
} from './evaluation-set';
import { DEFAULT_SNAPSHOT, loadSnapshot, snapshotLexicon, type SnapshotAsk } from './snapshot';

const argv = process.argv.slice(2);
const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : null);
const file = option('--snapshot') ?? DEFAULT_SNAPSHOT;
const split = option('--split') ?? 'tune';
const verbose = argv.includes('--verbose');
const diagnose = argv.includes('--diagnose');
/** --thresholds: what abstaining below a best-statement score would cost and save, per score (tuning part). */
const thresholds = argv.includes('--thresholds');
const only = new Set(argv.filter((a, i) => !a.startsWith('--') && !['--snapshot', '--split'].includes(argv[i - 1] ?? '')));

type Part = AnswerMetrics;
const part = emptyAnswerMetrics;
const parts = emptyAnswerParts();
const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);

const snapshot = loadSnapshot(file);
const misses: string[] = [];
const offTopic = { tune: 0, holdout: 0, answered: new Set<string>() };
const sampleFailures: string[] = [];
let samples = 0;

function diagnosis(ask: SnapshotAsk): string {
  const q = analyseQuestion(ask.query, ask.terms, snapshotLexicon(snapshot, ask));
  const ranked = rankSentences(q, ask.chunks);
  const fact = ask.fact ?? '';
  const gold = ranked.findIndex((c) => containsFact(`${c.context ?? ''}: ${c.text}`, fact));
  const inPassages = ask.chunks.findIndex((c) => containsFact(c.content, fact));
  const lines = [`    type ${q.type}; gold at candidate ${gold} of ${ranked.length}; fact in passage ${inPassages}`];
  const show = (i: number) => {
    const c = itemAt(ranked, i);
    lines.push(`    ${i}. ${c.score.toFixed(2)} p${c.passage} ${c.context ? `<${c.context}> ` : ''}${c.text.replace(/\n+/g, ' / ').slice(0, 200)}`);
  };
  for (let i = 0; i < Math.min(4, ranked.length); i++) show(i);
  if (gold >= 4) show(gold);
  return lines.join('\n');
}

/** Per answered tuning question and sample: the best statement's score and the outcome. */
const scored: Array<{ score: number; kind: 'first' | 'later' | 'wrong' | 'sample' | 'added' }> = [];
function bestScore(ask: SnapshotAsk): number {
  const ranked = rankSentences(analyseQuestion(ask.query, ask.terms, snapshotLexicon(snapshot, ask)), ask.chunks);
  return ranked[0]?.score ?? -Infinity;
}

for (const ask of snapshot.asks) {
  const answer = composeExtractiveAnswer(ask.query, ask.terms, ask.chunks, snapshotLexicon(snapshot, ask));
  const answered = answer.citations.length > 0;
  if (ask.kind === 'off-topic') {
    if (!answered) continue;
    const id = ask.id.split('@')[0] ?? '';
    offTopic.answered.add(ask.id);
    if (isHeldOut(id)) offTopic.holdout++;
    else offTopic.tune++;
    if (verbose && (split === 'holdout') === isHeldOut(id)) misses.push(`off-topic answered: ${ask.id}: ${ask.query}\n    A: ${answer.answer.slice(0, 200)}`);
    continue;
  }
  if (ask.kind === 'sample') {
    samples++;
    if (thresholds && answered) scored.push({ score: bestScore(ask), kind: 'sample' });
    if (!answered || !containsFact(answer.answer, ask.fact!))
      sampleFailures.push(`${ask.id} "${ask.query}" expected "${ask.fact}": ${answer.answer.slice(0, 200)}${diagnose ? `\n${diagnosis(ask)}` : ''}`);
    continue;
  }
  const fact = ask.fact!;
  const outcome = answerOutcome(answer, fact, ask.goldDocument);
  const { factFirst, factAnywhere, fillers } = outcome;
  const where = partOf(ask.id);
  if (thresholds && answered && (where === 'tune' || where === 'added'))
    scored.push({ score: bestScore(ask), kind: where === 'added' ? 'added' : factFirst ? 'first' : factAnywhere ? 'later' : 'wrong' });
  for (const m of [parts.all, parts[where]]) countOutcome(m, outcome);
  const listed = only.size ? only.has(ask.id) : verbose && where === split && (!factFirst || fillers.length > 0);
  if (listed) {
    const kind = !answered ? 'ABSTAINED' : factFirst ? 'fact first' : factAnywhere ? 'fact not first' : 'WRONG (fact absent)';
    const filler = fillers.length ? ` FILLER: ${fillers.join('; ')}` : '';
    misses.push(
      `${ask.id} ${kind}${filler}: "${fact}"\n    Q: ${ask.query}\n    A: ${answer.answer.slice(0, 400).replace(/\n+/g, ' / ')}${diagnose || only.size ? `\n${diagnosis(ask)}` : ''}`,
    );
  }
}

printAnswerTable(parts);
const original = { ...part() };
for (const k of Object.keys(original) as Array<keyof Part>) original[k] = parts.tune[k] + parts.holdout[k];
console.log(
  `original 221: first ${pct(original.factFirst, original.n)}, anywhere ${pct(original.factAnywhere, original.n)}, wrong ${pct(original.wrong, original.answered)}, citing a filler ${pct(original.withFiller, original.answered)}, answered ${original.answered}/${original.n}`,
);
const offTopicSet = loadOffTopicSet();
const pairsHeld = (snapshot.offTopicPairs / offTopicSet.length) * offTopicSet.filter((q) => isHeldOut(q.id)).length;
console.log(
  `off-topic refused: all ${pct(snapshot.offTopicPairs - offTopic.answered.size, snapshot.offTopicPairs)} (${offTopic.answered.size} answered), tuning ${pct(snapshot.offTopicPairs - pairsHeld - offTopic.tune, snapshot.offTopicPairs - pairsHeld)}, held out ${pct(pairsHeld - offTopic.holdout, pairsHeld)}`,
);
console.log(`sample questions answered with the expected fact: ${samples - sampleFailures.length}/${samples}`);
for (const f of sampleFailures) console.log(`  SAMPLE FAIL ${f}`);
for (const m of misses) console.log(m);
if (thresholds) {
  console.log('abstain below score: tuning answers lost with the fact first / later / wrong answers removed; added (tuning ids) lost; samples lost');
  for (let t = 2; t <= 10; t += 0.5) {
    const below = scored.filter((x) => x.score < t);
    const n = (k: string) => below.filter((x) => x.kind === k).length;
    console.log(`  ${t.toFixed(2)}: ${n('first')} / ${n('later')} / ${n('wrong')}; ${n('added')}; ${n('sample')}`);
  }
}

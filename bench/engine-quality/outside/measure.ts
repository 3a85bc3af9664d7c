/**
 * One prepared set the way an outside evaluator meets the engine: every document uploaded into ONE knowledge base of a
 * fresh embedded database (file name and bytes, as a publisher's upload), the gate calibrated as the background job
 * does after an upload, then every question asked once through `answerHostedQuery`, extractively, on the live path
 * (gate, sentence encoder, composition). Unlike domains.ts + lodo.ts it fits nothing and replays nothing: it is the
 * shipped engine, on a knowledge base as broad as the whole set (QASPER's papers and CUAD's contracts, one knowledge
 * base each per document in domains.ts, share one here).
 *
 * It reports, before and after calibration: answerable questions refused, gold answer in the first statement and
 * anywhere, the question's own document cited first; the hand-written off-topic list refused; with `--cross`, 25
 * questions of each other prepared set refused; and latency. With `--per-document`, each document is a knowledge base of
 * its own (a narrow one, as most publishers' are), asked its own questions and five of the set's other documents'. With `--trade-off`, what the gate's log-odds could do on
 * this knowledge base against the hand-written rule (passesGate), the calibration questions in its language standing for
 * foreign questions: the rule's refusals, then the answerable questions refused at a threshold refusing as many
 * foreign ones as the rule does, and 80 to 95% of them.
 *
 *   npx tsx bench/engine-quality/outside/measure.ts --set NAME [--dir DIR] [--per-document] [--cross] [--verbose] [--trade-off]
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openPglite } from '@/db/client';
import type { Executor } from '@/lib/platform/db';
import { knowledgeBases, publishers } from '@/db/schema';
import { answerHostedQuery, calibrateGate, ingestDocument, searchChunks } from '@/lib/engine';
import { readQuestion } from '@/lib/engine/answerable';
import { calibrationQuestionsIn } from '@/lib/engine/calibration-questions';
import { searchLanguage } from '@/lib/engine/language';
import { gateEvidence, lexicalScore, passesGate, relevanceFeatures } from '@/lib/engine/relevance-gate';
import { PASSAGES_READ, rankSentences } from '@/lib/engine/sentence-ranker';
import { prepareDatabase } from '@/lib/platform/db';
import { newId } from '@/lib/platform/ids';
import { answers, answerUnits, loadOffTopicSet } from '../evaluation-set';
import { DEFAULT_DIR, listPreparedSets, loadPreparedSet } from './load';
import { sampleByHash } from './gold';
import type { OutsideQuestion } from './types';

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const name = option('--set');
if (!name) {
  console.error('usage: measure.ts --set NAME [--dir DIR] [--cross] [--verbose] [--trade-off]');
  process.exit(2);
}
const dir = option('--dir') ?? DEFAULT_DIR;
const verbose = args.includes('--verbose');
/** Questions each other set lends, as in domains.ts. */
const CROSS_PER_SET = 25;
const perDocument = args.includes('--per-document');
/** With --per-document: questions of the set's other documents asked of each document's knowledge base. */
const FOREIGN_PER_DOCUMENT = 5;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : 'n/a');

interface Ask {
  kbId: string;
  question: OutsideQuestion;
  kind: 'answerable' | 'unanswerable' | 'off-topic' | 'cross';
}

async function askAll(db: Executor, asks: readonly Ask[], setIdOf: Map<string, string | undefined>, label: string) {
  const latencies: number[] = [];
  const tally = { answerable: 0, refused: 0, first: 0, anywhere: 0, ownFirst: 0, foreign: 0, foreignRefused: 0, offTopic: 0, offTopicRefused: 0 };
  for (const { kbId, question: q, kind } of asks) {
    const started = performance.now();
    const answer = await answerHostedQuery({ kbId, query: q.question, requestId: 'outside-measure' }, db, { llm: null, embeddings: null });
    latencies.push(performance.now() - started);
    const refused = answer.citations.length === 0;
    if (kind === 'answerable') {
      tally.answerable++;
      if (refused) tally.refused++;
      const units = answerUnits(answer.answer);
      if (!refused && units[0] && answers(units[0], q)) tally.first++;
      if (!refused && answers(answer.answer, q)) tally.anywhere++;
      if (q.documentId && setIdOf.get(answer.citations[0]?.document_id ?? '') === q.documentId) tally.ownFirst++;
    } else if (kind === 'off-topic') {
      tally.offTopic++;
      if (refused) tally.offTopicRefused++;
      else if (verbose) console.log(`  [${label}] off-topic answered: ${q.question}\n      → ${answer.answer.slice(0, 160)}`);
    } else {
      tally.foreign++;
      if (refused) tally.foreignRefused++;
      else if (verbose) console.log(`  [${label}] ${kind} answered: ${q.question}\n      → ${answer.answer.slice(0, 160)}`);
    }
  }
  latencies.sort((a, b) => a - b);
  console.log(
    `${label}: answerable ${tally.answerable}: refused ${pct(tally.refused, tally.answerable)}, gold in the first statement ${pct(tally.first, tally.answerable)}, ` +
      `anywhere ${pct(tally.anywhere, tally.answerable)}, own document first ${pct(tally.ownFirst, tally.answerable)}; ` +
      `other documents' or sets' and unanswerable questions refused ${pct(tally.foreignRefused, tally.foreign)} of ${tally.foreign}; ` +
      `hand-written off-topic refused ${pct(tally.offTopicRefused, tally.offTopic)} of ${tally.offTopic}; ` +
      `p50 ${percentile(latencies, 0.5).toFixed(0)} ms, p95 ${percentile(latencies, 0.95).toFixed(0)} ms`,
  );
}

/** The gate's lexical log-odds and the rule's verdict for one question, as judgeLexically computes them. */
async function gateOf(db: Executor, kbId: string, text: string): Promise<{ score: number; rule: boolean }> {
  const found = await searchChunks(db, kbId, text, { limit: PASSAGES_READ });
  const q = await readQuestion(db, text, found);
  const best = rankSentences(q, found.chunks)[0];
  const features = best ? relevanceFeatures(q, found.chunks, best.score) : 'none';
  if (features === 'none') return { score: -Infinity, rule: false };
  return { score: lexicalScore(q, features), rule: gateEvidence(q, found.chunks).some((e) => passesGate(q, e)) };
}

async function tradeOff(db: Executor, kbId: string, questions: readonly OutsideQuestion[], language: string) {
  const own = await Promise.all(questions.filter((q) => q.answerable).map((q) => gateOf(db, kbId, q.question)));
  const foreign = await Promise.all(calibrationQuestionsIn(searchLanguage(language)).map((q) => gateOf(db, kbId, q.question)));
  const refused = (xs: typeof own, below: (x: (typeof own)[number]) => boolean) => pct(xs.filter(below).length, xs.length);
  const sorted = foreign.map((x) => x.score).sort((a, b) => a - b);
  const at = (share: number) => (sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? 0) + 1e-9;
  const ruleShare = foreign.filter((x) => !x.rule).length / foreign.length;
  console.log(
    `trade-off: the rule refuses ${refused(own, (x) => !x.rule)} of answerable questions and ${pct(ruleShare * foreign.length, foreign.length)} of foreign ones`,
  );
  for (const share of [ruleShare, 0.8, 0.85, 0.9, 0.95]) {
    const t = at(share);
    console.log(
      `  log-odds refusing ${(100 * share).toFixed(1)}% of foreign ones (threshold ${t.toFixed(2)}): ${refused(own, (x) => x.score < t)} of answerable ones refused`,
    );
  }
}

async function main() {
  const set = loadPreparedSet(name!, dir);
  // The language a publisher declares for the listing: XQuAD's other parts are named by it ("xquad-de").
  const language = /-(de|es|fr)$/.exec(set.name)?.[1] ?? 'en';
  const handle = await openPglite();
  try {
    await prepareDatabase(handle, {});
    const db = handle.db;
    const publisherId = newId('pub');
    await db.insert(publishers).values({ id: publisherId, slug: `outside-${set.name}`, name: 'Outside set' });
    // One knowledge base for the set, or with --per-document one per document (a narrow knowledge base each).
    const groups = perDocument ? set.documents.map((d) => [d]) : [set.documents];
    const kbOf = new Map<string, string>();
    const started = performance.now();
    for (const [k, documents] of groups.entries()) {
      const kbId = newId('kb');
      const slug = perDocument ? `${set.name}-${k}` : set.name;
      await db
        .insert(knowledgeBases)
        .values({ id: kbId, publisherId, slug, title: slug, summary: 'Outside set', category: 'research', tags: [], status: 'published', language });
      for (const doc of documents) {
        const result = await ingestDocument(db, kbId, { sourceName: doc.fileName, bytes: new TextEncoder().encode(doc.text) }, { embeddings: null });
        if (!result.ok) throw new Error(`${doc.fileName}: ${result.message}`);
        kbOf.set(doc.id, kbId);
      }
    }
    const kbIds = [...new Set(kbOf.values())];
    console.log(
      `${set.name}: ${set.documents.length} documents ingested in ${kbIds.length} knowledge base(s) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const rows = (await db.execute(sql`select id, source_name from documents`)).rows as Array<{ id: string; source_name: string }>;
    const setIdOf = new Map(rows.map((r) => [r.id, set.documents.find((d) => d.fileName === r.source_name)?.id]));

    const first = kbIds[0]!;
    const asks: Ask[] = set.questions.map((q) => ({
      kbId: (q.documentId && kbOf.get(q.documentId)) || first,
      question: q,
      kind: q.answerable ? 'answerable' : 'unanswerable',
    }));
    // Questions no knowledge base asked holds, each asked of one knowledge base in turn.
    let turn = 0;
    const next = () => kbIds[turn++ % kbIds.length]!;
    for (const q of loadOffTopicSet())
      asks.push({
        kbId: next(),
        kind: 'off-topic',
        question: { id: q.id, question: q.question, answers: [], evidence: [], documentId: null, answerable: false },
      });
    if (perDocument)
      // Each narrow knowledge base is also asked questions of the set's other documents.
      for (const [doc, kbId] of kbOf)
        for (const q of sampleByHash(
          set.questions.filter((o) => o.answerable && o.documentId !== doc),
          (o) => `${doc}|${o.id}`,
          FOREIGN_PER_DOCUMENT,
        ))
          asks.push({ kbId, kind: 'cross', question: q });
    if (args.includes('--cross'))
      for (const other of listPreparedSets(dir).filter((n) => n !== set.name)) {
        const lent = sampleByHash(
          loadPreparedSet(other, dir).questions.filter((q) => q.answerable),
          (q) => q.id,
          CROSS_PER_SET,
        );
        for (const q of lent) asks.push({ kbId: next(), kind: 'cross', question: q });
      }

    // The curve of one knowledge base holding the whole set (a knowledge base per document has too few questions).
    if (args.includes('--trade-off') && !perDocument) await tradeOff(db, first, set.questions, language);
    await askAll(db, asks, setIdOf, 'shipped threshold');
    const thresholds: Array<number | null> = [];
    for (const kbId of kbIds) thresholds.push(await calibrateGate(db, kbId));
    const calibrated = thresholds.filter((t): t is number => t !== null).sort((a, b) => a - b);
    const shown =
      calibrated.length === 0
        ? 'no threshold'
        : calibrated.length === 1
          ? calibrated[0]!.toFixed(2)
          : `${calibrated[0]!.toFixed(2)} … ${calibrated[Math.floor(calibrated.length / 2)]!.toFixed(2)} … ${calibrated.at(-1)!.toFixed(2)} over ${calibrated.length}`;
    await askAll(db, asks, setIdOf, `calibrated (${shown})`);
  } finally {
    await handle.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

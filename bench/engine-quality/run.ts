/**
 * Retrieval and answer quality of the built-in engine over the labelled evaluation set, next to a plain BM25
 * baseline (wink-bm25-text-search in memory) over the very same chunks, in one run.
 *
 *   npx tsx bench/engine-quality/run.ts            # embedded PGlite (default)
 *   npx tsx bench/engine-quality/run.ts --postgres # a fresh database on the PostgreSQL server, dropped after
 *   add --embeddings to embed every chunk and answer with hybrid retrieval, then report hybrid retrieval next to
 *   lexical retrieval alone (hybrid.ts); vectors come from the endpoint EMBEDDINGS_* name when set (for a real
 *   model: sentence-encoder-server.mjs), else from the tests' deterministic hashed-word endpoint
 *   add --verbose to list every miss
 */
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import { openPglite, openPostgres, type DatabaseHandle } from '@/db/client';
import { prepareDatabase } from '@/lib/platform/db';
import { seedMarketplace } from '@/lib/seed';
import { answerHostedQuery, searchChunks } from '@/lib/engine';
import { randomBase62 } from '@/lib/platform/ids';
import { createScratchDatabase } from '../../test/support/scratch-database';
import { embedEveryKnowledgeBase, reportHybrid } from './hybrid';
import {
  answerOutcome,
  containsFact,
  countOutcome,
  emptyAnswerParts,
  goldSourceName,
  isHeldOut,
  loadEvaluationSet,
  loadOffTopicSet,
  partOf,
  printAnswerTable,
  type EvalQuestion,
} from './evaluation-set';

const require = createRequire(import.meta.url);
const bm25 = require('wink-bm25-text-search');
const nlp = require('wink-nlp-utils');

const argv = process.argv.slice(2);
const args = new Set(argv);
const usePostgres = args.has('--postgres');
const verbose = args.has('--verbose');
const withEmbeddings = args.has('--embeddings');
/** `--split tune|holdout|blind|added`: list misses (with --verbose) only for that part of the set. */
const splitArg = argv.includes('--split') ? argv[argv.indexOf('--split') + 1] : null;

async function openDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (!usePostgres) {
    const handle = await openPglite();
    return { handle, drop: () => handle.close() };
  }
  const scratch = await createScratchDatabase(`almanac_bench_q_${randomBase62(8).toLowerCase()}`);
  const handle = await openPostgres(scratch.url, 4);
  return {
    handle,
    drop: async () => {
      await handle.close();
      await scratch.drop();
    },
  };
}

interface Metrics {
  n: number;
  hit1: number;
  hit5: number;
  rr: number;
  pagedN: number;
  pageHits: number;
  factInAnswer: number;
  factInTopChunk: number;
}

const emptyMetrics = (): Metrics => ({ n: 0, hit1: 0, hit5: 0, rr: 0, pagedN: 0, pageHits: 0, factInAnswer: 0, factInTopChunk: 0 });

/** Documents in order of their best chunk. */
function rankDocuments(chunkDocs: string[]): string[] {
  return [...new Set(chunkDocs)];
}

function score(m: Metrics, q: EvalQuestion, docs: string[], goldId: string) {
  m.n++;
  const rank = docs.indexOf(goldId);
  if (rank === 0) m.hit1++;
  if (rank >= 0 && rank < 5) m.hit5++;
  if (rank >= 0) m.rr += 1 / (rank + 1);
}

const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);

async function main() {
  const questions = loadEvaluationSet();
  const { handle, drop } = await openDatabase();
  try {
    const seedStart = Date.now();
    await prepareDatabase(handle, { seed: seedMarketplace });
    const seedMs = Date.now() - seedStart;
    const db = handle.db;
    // Before the chunks are read: reindexing gives them new ids.
    const embedded = withEmbeddings ? await embedEveryKnowledgeBase(db) : null;
    // Answers are hybrid with --embeddings (as the server's are with EMBEDDINGS_* set), lexical otherwise.
    const embeddings = embedded?.source.config ?? null;
    const kbRows = (await db.execute(sql`select id, slug from knowledge_bases`)).rows as Array<{ id: string; slug: string }>;
    const kbId = new Map(kbRows.map((r) => [r.slug, r.id]));
    const docRows = (await db.execute(sql`select id, kb_id, source_name from documents`)).rows as Array<{ id: string; kb_id: string; source_name: string }>;
    const docId = new Map(docRows.map((r) => [`${r.kb_id}/${r.source_name}`, r.id]));
    const chunkRows = (await db.execute(sql`select id, kb_id, document_id, page, heading, content from chunks order by id`)).rows as Array<{
      id: number;
      kb_id: string;
      document_id: string;
      page: number | null;
      heading: string | null;
      content: string;
    }>;

    // Baseline: one wink BM25 index per knowledge base over the same chunks (heading path + content, as ours).
    const baselines = new Map<
      string,
      { engine: { search(q: string, limit?: number): Array<[string, number]> }; byId: Map<string, (typeof chunkRows)[number]> }
    >();
    for (const [slug, id] of kbId) {
      const rowsOfKb = chunkRows.filter((c) => c.kb_id === id);
      if (rowsOfKb.length < 3 || !questions.some((q) => q.kb === slug)) continue;
      const engine = bm25();
      const prep = [nlp.string.lowerCase, nlp.string.tokenize0, nlp.tokens.removeWords, nlp.tokens.stem];
      engine.defineConfig({ fldWeights: { body: 1 }, bm25Params: { k1: 1.2, b: 0.75 } });
      engine.definePrepTasks(prep);
      for (const c of rowsOfKb) engine.addDoc({ body: `${c.heading ?? ''} ${c.content}` }, String(c.id));
      engine.consolidate();
      baselines.set(slug, { engine, byId: new Map(rowsOfKb.map((c) => [String(c.id), c])) });
    }

    const answerMetrics = emptyAnswerParts();
    const listMiss = (id: string) => splitArg === null || splitArg === partOf(id);
    const ours = emptyMetrics();
    const factInTopK = new Map<number, number>();
    const base = emptyMetrics();
    const latencies: number[] = [];
    let citationPageHits = 0;
    const misses: string[] = [];
    for (const q of questions) {
      const kb = kbId.get(q.kb);
      const gold = kb && docId.get(`${kb}/${goldSourceName(q.gold_document)}`);
      if (!kb || !gold) {
        console.error(`skipping ${q.id}: knowledge base or gold document not seeded`);
        continue;
      }
      const started = performance.now();
      const answer = await answerHostedQuery({ kbId: kb, query: q.question, requestId: q.id }, db, { llm: null, embeddings });
      latencies.push(performance.now() - started);
      const search = await searchChunks(db, kb, q.question, { limit: 20 });
      const docs = rankDocuments(search.chunks.map((c) => c.documentId));
      score(ours, q, docs, gold);
      if (containsFact(answer.answer, q.gold_fact)) ours.factInAnswer++;
      const outcome = answerOutcome(answer, q.gold_fact, gold);
      const { answered, factFirst, factAnywhere, fillers } = outcome;
      for (const m of [answerMetrics.all, answerMetrics[partOf(q.id)]]) countOutcome(m, outcome);
      if (!factFirst && listMiss(q.id)) {
        const kind = !answered ? 'ABSTAINED' : factAnywhere ? 'fact not first' : 'WRONG (fact absent)';
        const where = search.chunks.findIndex((c) => containsFact(c.content, q.gold_fact));
        const found = where === 0 ? ' (in top chunk)' : where > 0 && where < 5 ? ` (in chunk ${where + 1} of the top 5)` : ' (not in the top 5 chunks)';
        misses.push(`${q.id} ${kind}${found}: "${q.gold_fact}"\n    Q: ${q.question}\n    A: ${answer.answer.slice(0, 400)}`);
      }
      if (fillers.length > 0 && listMiss(q.id)) misses.push(`${q.id} FILLER citation(s): ${fillers.join('; ')}\n    Q: ${q.question}`);
      if (search.chunks[0] && containsFact(search.chunks[0].content, q.gold_fact)) ours.factInTopChunk++;
      for (const k of [3, 5, 10, 20])
        if (search.chunks.slice(0, k).some((c) => containsFact(c.content, q.gold_fact))) factInTopK.set(k, (factInTopK.get(k) ?? 0) + 1);
      if (q.gold_page !== null) {
        ours.pagedN++;
        const top = search.chunks[0];
        if (top && top.documentId === gold && top.page === q.gold_page) ours.pageHits++;
        const first = answer.citations[0];
        if (first && first.document_id === gold && first.page === q.gold_page) citationPageHits++;
      }

      const b = baselines.get(q.kb);
      if (b) {
        const hits = b.engine.search(q.question, 20);
        const bChunks = hits.map(([id]) => b.byId.get(id)!);
        score(base, q, rankDocuments(bChunks.map((c) => c.document_id)), gold);
        if (bChunks[0] && containsFact(bChunks[0].content, q.gold_fact)) base.factInTopChunk++;
        if (q.gold_page !== null) {
          base.pagedN++;
          if (bChunks[0] && bChunks[0].document_id === gold && bChunks[0].page === q.gold_page) base.pageHits++;
        }
      }
    }
    // Off-topic questions (5 domains, 4 languages): every knowledge base with documents should say it has nothing
    // relevant. Each question is asked to each of them.
    const offTopicSet = loadOffTopicSet();
    const offTopicKbs = (await db.execute(sql`select distinct k.slug from knowledge_bases k join chunks c on c.kb_id = k.id order by k.slug`)).rows as Array<{
      slug: string;
    }>;
    const offTopic = { all: { n: 0, refused: 0 }, tune: { n: 0, refused: 0 }, holdout: { n: 0, refused: 0 }, overlapping: { n: 0, refused: 0 } };
    const offTopicByLanguage = new Map<string, { n: number; refused: number }>();
    const offTopicQuestionsMissed = new Set<string>();
    for (const { slug } of offTopicKbs) {
      const kb = kbId.get(slug)!;
      for (const q of offTopicSet) {
        const a = await answerHostedQuery({ kbId: kb, query: q.question, requestId: 'off-topic' }, db, { llm: null, embeddings });
        const refused = a.citations.length === 0;
        // The hard cases: the knowledge base shares at least one indexed word with the question.
        const overlaps = (await searchChunks(db, kb, q.question, { limit: 1 })).chunks.length > 0;
        if (overlaps) {
          offTopic.overlapping.n++;
          if (refused) offTopic.overlapping.refused++;
        }
        const lang = offTopicByLanguage.get(q.language) ?? { n: 0, refused: 0 };
        offTopicByLanguage.set(q.language, lang);
        for (const m of [offTopic.all, isHeldOut(q.id) ? offTopic.holdout : offTopic.tune, lang]) {
          m.n++;
          if (refused) m.refused++;
        }
        if (!refused) offTopicQuestionsMissed.add(q.id);
        if (!refused && listMiss(q.id)) misses.push(`off-topic answered in ${slug}: ${q.question}\n    A: ${a.answer.slice(0, 200)}`);
      }
    }
    latencies.sort((a, b) => a - b);
    const p = (x: number) => latencies[Math.min(latencies.length - 1, Math.floor(x * latencies.length))]?.toFixed(1);
    const chunkCount = chunkRows.length;
    console.log(
      `engine-quality: ${ours.n} questions over ${new Set(questions.map((q) => q.kb)).size} knowledge bases, ${chunkCount} chunks, ${usePostgres ? 'PostgreSQL' : 'PGlite'}; seed ${seedMs} ms`,
    );
    console.log('');
    console.log('| metric | Almanac engine | plain BM25 baseline (wink) |');
    console.log('|---|---|---|');
    console.log(`| recall@1 (gold document) | ${pct(ours.hit1, ours.n)} | ${pct(base.hit1, base.n)} |`);
    console.log(`| recall@5 (gold document) | ${pct(ours.hit5, ours.n)} | ${pct(base.hit5, base.n)} |`);
    console.log(`| MRR (gold document) | ${(ours.rr / ours.n).toFixed(3)} | ${(base.rr / Math.max(1, base.n)).toFixed(3)} |`);
    console.log(
      `| page accuracy: top chunk on the gold page (${ours.pagedN} PDF questions) | ${pct(ours.pageHits, ours.pagedN)} | ${pct(base.pageHits, base.pagedN)} |`,
    );
    console.log(`| page accuracy: first citation on the gold page | ${pct(citationPageHits, ours.pagedN)} | n/a |`);
    console.log(`| gold fact in the answer | ${pct(ours.factInAnswer, ours.n)} | n/a (no answer composer) |`);
    console.log(`| gold fact in the top chunk | ${pct(ours.factInTopChunk, ours.n)} | ${pct(base.factInTopChunk, base.n)} |`);
    console.log(`| gold fact in the top 3 / 5 / 10 / 20 chunks | ${[3, 5, 10, 20].map((k) => pct(factInTopK.get(k) ?? 0, ours.n)).join(' / ')} | |`);
    console.log('');
    console.log('Answers (answerable questions; "held out" = never looked at while tuning; "blind" = written after tuning by');
    console.log('someone who saw neither the engine nor its answers; "added" = the questions of the documents written for');
    console.log('issue 14, after the sentence ranker was fitted):');
    console.log('');
    printAnswerTable(answerMetrics);
    console.log('');
    const langs = [...offTopicByLanguage.entries()].map(([l, m]) => `${l} ${pct(m.refused, m.n)}`).join(', ');
    console.log('| off-topic | all | tuning part | held out |');
    console.log('|---|---|---|---|');
    console.log(
      `| refused ("nothing relevant", no citation) | ${pct(offTopic.all.refused, offTopic.all.n)} of ${offTopic.all.n} | ${pct(offTopic.tune.refused, offTopic.tune.n)} | ${pct(offTopic.holdout.refused, offTopic.holdout.n)} |`,
    );
    console.log(
      `| refused where the knowledge base shares a word with the question | ${pct(offTopic.overlapping.refused, offTopic.overlapping.n)} of ${offTopic.overlapping.n} | | |`,
    );
    console.log(
      `off-topic: ${offTopicSet.length} questions (${new Set(offTopicSet.map((q) => q.domain)).size} domains; ${langs}) × ${offTopicKbs.length} knowledge bases; questions answered somewhere: ${offTopicQuestionsMissed.size}`,
    );
    console.log('');
    console.log(`full answer latency (extractive, in process): p50 ${p(0.5)} ms, p95 ${p(0.95)} ms`);
    if (embedded) {
      console.log('');
      console.log(`embedding ${embedded.chunks} chunks (reindex through ${embedded.source.label}): ${embedded.ms} ms`);
      for (const line of await reportHybrid(db, questions, embedded.source, kbId)) console.log(line);
      await embedded.source.close();
    }
    if (verbose) for (const m of misses) console.log(m);
  } finally {
    await drop();
  }
}

await main();

/**
 * Engine speed on the PostgreSQL server (a fresh database, dropped afterwards):
 *  1. ingestion throughput: every seeded source folder (PDF pages through pdf.js) and a 60-page PDF, pages/s;
 *  2. retrieval and full extractive answer latency, p50/p95, with 100,000 chunks in ONE knowledge base.
 *
 *   npx tsx bench/engine-speed/run.ts [--chunks 100000] [--queries 300] [--keep]
 *   (--keep leaves the database in place for EXPLAIN work and prints its name; drop it yourself afterwards)
 *
 * The 100,000 chunks are built from the real seeded sentences, recombined and salted with a long tail of rare
 * words, and written through the engine's own chunk insert (same vectors, lengths and statistics as ingestion).
 */
import path from 'node:path';
import { readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { itemAt } from '@/lib/platform/arrays';
import { createScratchDatabase } from '../../test/support/scratch-database';
import { sql } from 'drizzle-orm';
import { openPostgres } from '@/db/client';
import { prepareDatabase } from '@/lib/platform/db';
import { answerHostedQuery, searchChunks } from '@/lib/engine';
import { resetEnvForTesting } from '@/lib/platform/env';
import { chunkSentences } from '@/lib/engine/paragraphs';
import { ingestDocument, insertChunks, rebuildKnowledgeBaseStats } from '@/lib/engine/ingest';
import { createHostedKnowledgeBase } from '@/lib/publishing/knowledge-bases';
import { parsePdfSource, renderPdfFromSource } from '@/lib/engine/pdf-render';
import { randomBase62 } from '@/lib/platform/ids';
import { loadSeedSources } from '@/lib/seed/hosted';
import { HOSTED_SOURCE_DIR } from '@/lib/seed/sample-data';
import { loadEvaluationSet } from '../engine-quality/evaluation-set';

const { values } = parseArgs({
  options: { chunks: { type: 'string', default: '100000' }, queries: { type: 'string', default: '300' }, keep: { type: 'boolean', default: false } },
});
const TARGET_CHUNKS = Number(values.chunks);
const QUERIES = Number(values.queries);

function percentile(sorted: number[], p: number): number {
  return itemAt(sorted, Math.min(sorted.length - 1, Math.floor(p * sorted.length)));
}

/** Deterministic PRNG so runs are comparable. */
function mulberry32(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main() {
  const scratch = await createScratchDatabase(`almanac_bench_speed_${randomBase62(8).toLowerCase()}`);
  const handle = await openPostgres(scratch.url, 4);
  try {
    await prepareDatabase(handle);
    const db = handle.db;
    const mk = async (title: string) => {
      const r = await createHostedKnowledgeBase(db, { title, publisher: 'Bench Press', category: 'research', tags: [], summary: 'Benchmark knowledge base.' });
      if (!r.ok) throw new Error(r.message);
      return r.id;
    };

    // 1. Ingestion throughput.
    const ingestKb = await mk('Ingestion bench');
    const sources = (
      await Promise.all(
        readdirSync(HOSTED_SOURCE_DIR)
          .sort()
          .map((slug) => loadSeedSources(path.join(HOSTED_SOURCE_DIR, slug))),
      )
    ).flat();
    // pdf.js loads once per process (module and in-process worker); time it apart from the per-page cost.
    const warmStart = performance.now();
    const warm = await ingestDocument(db, ingestKb, {
      sourceName: 'warm-up.pdf',
      bytes: await renderPdfFromSource(parsePdfSource('# Warm up\nOne page of text to load pdf.js.')),
    });
    if (!warm.ok) throw new Error(warm.message);
    const pdfStartupMs = performance.now() - warmStart;
    let pdfPages = 0;
    let pdfMs = 0;
    let otherDocs = 0;
    let otherMs = 0;
    let bytes = 0;
    let chunksWritten = 0;
    for (const [i, s] of sources.entries()) {
      const started = performance.now();
      const r = await ingestDocument(db, ingestKb, { sourceName: `${i}-${s.sourceName}`, bytes: s.bytes });
      const ms = performance.now() - started;
      if (!r.ok) throw new Error(`${s.sourceName}: ${r.message}`);
      bytes += s.bytes.length;
      chunksWritten += r.chunkCount;
      if (r.pageCount) {
        pdfPages += r.pageCount;
        pdfMs += ms;
      } else {
        otherDocs++;
        otherMs += ms;
      }
    }
    const longSource = `# Long Report\nIntro.\n${Array.from({ length: 60 }, (_, p) => `---page---\n## Section ${p + 1}\n\n${sources[p % sources.length] ? 'Page ' + (p + 1) + ' discusses ' : ''}${Array.from({ length: 14 }, (_, k) => `Finding ${k + 1} of section ${p + 1} concerns the measured effect of policy option ${(p * 7 + k) % 23} on regional outcomes.`).join(' ')}`).join('\n')}`;
    const longPdf = await renderPdfFromSource(parsePdfSource(longSource));
    const longStart = performance.now();
    const longResult = await ingestDocument(db, ingestKb, { sourceName: 'long-report.pdf', bytes: longPdf });
    const longMs = performance.now() - longStart;
    if (!longResult.ok) throw new Error(longResult.message);

    console.log('## Ingestion (PostgreSQL)');
    console.log(`- pdf.js start-up (first PDF of the process): ${pdfStartupMs.toFixed(0)} ms`);
    console.log(
      `- seeded PDFs: ${pdfPages} pages in ${(pdfMs / 1000).toFixed(2)} s → ${(pdfPages / (pdfMs / 1000)).toFixed(1)} pages/s (parse with pdf.js + chunk + write + statistics)`,
    );
    console.log(`- 61-page PDF: ${(61 / (longMs / 1000)).toFixed(1)} pages/s (${longResult.chunkCount} chunks, ${longMs.toFixed(0)} ms)`);
    console.log(`- text/Markdown/HTML: ${otherDocs} documents in ${(otherMs / 1000).toFixed(2)} s → ${(otherDocs / (otherMs / 1000)).toFixed(1)} documents/s`);
    console.log(`- all: ${(bytes / 1024).toFixed(0)} KiB, ${chunksWritten} chunks`);

    // 2. A knowledge base with TARGET_CHUNKS chunks.
    const bigKb = await mk('Latency bench');
    const sentenceRows = (await db.execute(sql`select content from chunks where kb_id = ${ingestKb}`)).rows as Array<{ content: string }>;
    const sentences = sentenceRows.flatMap((r) => chunkSentences(r.content).map((s) => r.content.slice(s.start, s.end)));
    const rand = mulberry32(42);
    // A long tail of rare words (Zipf-like), so the vocabulary grows with the corpus as real text does.
    const rareWord = () => `zq${Math.floor(1 / Math.max(rand(), 1e-6)).toString(36)}x${Math.floor(rand() * 50).toString(36)}`;
    const perDocument = 100;
    const loadStart = performance.now();
    let made = 0;
    for (let d = 0; made < TARGET_CHUNKS; d++) {
      const docId = `doc_bench${String(d).padStart(11, '0')}`;
      const n = Math.min(perDocument, TARGET_CHUNKS - made);
      await db.execute(sql`
        insert into documents (id, kb_id, source_name, title, mime_type, content_hash, byte_size, page_count, chunk_count)
        values (${docId}, ${bigKb}, ${`bench-${d}.pdf`}, ${`Bench document ${d}`}, 'application/pdf', ${`hash-${d}`}, 0, ${n}, ${n})`);
      const drafts = Array.from({ length: n }, (_, i) => {
        const parts: string[] = [];
        let words = 0;
        while (words < 170) {
          let s = itemAt(sentences, Math.floor(rand() * sentences.length));
          if (rand() < 0.5) s = s.replace(/\b(\w{5,})\b/, () => rareWord());
          parts.push(s);
          words += s.split(' ').length;
        }
        const content = parts.join(' ');
        return { ordinal: i, page: i + 1, heading: `Bench document ${d} > Section ${i % 7}`, content, start: 0, end: content.length };
      });
      await db.transaction((tx) => insertChunks(tx, bigKb, docId, drafts));
      made += n;
      if (d % 100 === 0) process.stderr.write(`\r${made}/${TARGET_CHUNKS} chunks`);
    }
    process.stderr.write('\n');
    await db.transaction((tx) => rebuildKnowledgeBaseStats(tx, bigKb));
    await db.execute(sql`analyze chunks`);
    await db.execute(sql`analyze kb_terms`);
    const loadMs = performance.now() - loadStart;
    const stats = (await db.execute(sql`select chunk_count, total_length from kb_index_stats where kb_id = ${bigKb}`)).rows[0] as {
      chunk_count: number;
      total_length: number;
    };
    const terms = (await db.execute(sql`select count(*)::int as n from kb_terms where kb_id = ${bigKb}`)).rows[0] as { n: number };

    const questions = loadEvaluationSet().map((q) => q.question);
    const queries = Array.from({ length: QUERIES }, (_, i) => itemAt(questions, i % questions.length));
    // Warm-up: caches and plans, as on a running server.
    for (const q of queries.slice(0, 20)) await answerHostedQuery({ kbId: bigKb, query: q, requestId: 'warm' }, db, { llm: null });
    const retrieval: number[] = [];
    // Each question is answered once per setting, in turn, so that the columns share the machine's state: the default
    // (the encoder decides near the gate's threshold), the encoder also re-reading close statements, and no encoder.
    const settings = [
      { label: 'full extractive answer', env: { ENGINE_ENCODER: 'on', ENGINE_ENCODER_READER: 'off' } },
      { label: 'full extractive answer, ENGINE_ENCODER_READER=on', env: { ENGINE_ENCODER: 'on', ENGINE_ENCODER_READER: 'on' } },
      { label: 'full extractive answer, ENGINE_ENCODER=off', env: { ENGINE_ENCODER: 'off', ENGINE_ENCODER_READER: 'off' } },
    ].map((s) => ({ ...s, times: [] as number[] }));
    let cited = 0;
    for (const q of queries) {
      let t = performance.now();
      await searchChunks(db, bigKb, q, { limit: 5 });
      retrieval.push(performance.now() - t);
      for (const [k, setting] of settings.entries()) {
        Object.assign(process.env, setting.env);
        resetEnvForTesting();
        t = performance.now();
        const a = await answerHostedQuery({ kbId: bigKb, query: q, requestId: 'bench' }, db, { llm: null });
        setting.times.push(performance.now() - t);
        if (k === 0 && a.citations.length) cited++;
      }
    }
    retrieval.sort((a, b) => a - b);
    for (const s of settings) s.times.sort((a, b) => a - b);
    const row = (label: string, times: number[]) =>
      `| ${label} | ${percentile(times, 0.5).toFixed(1)} ms | ${percentile(times, 0.95).toFixed(1)} ms | ${percentile(times, 1).toFixed(1)} ms |`;
    console.log('');
    console.log(
      `## Latency with ${stats.chunk_count} chunks in one knowledge base (PostgreSQL, ${terms.n} distinct lexemes, avg ${(stats.total_length / stats.chunk_count).toFixed(0)} lexemes/chunk; built in ${(loadMs / 1000).toFixed(0)} s)`,
    );
    console.log(`| ${QUERIES} questions, one at a time | p50 | p95 | max |`);
    console.log('|---|---|---|---|');
    console.log(row('retrieval (BM25 top 5)', retrieval));
    for (const s of settings) console.log(row(s.label, s.times));
    console.log(`answers with citations: ${cited}/${QUERIES}`);
    if (values.keep) console.log(`knowledge base ${bigKb}`);
  } finally {
    await handle.close();
    if (values.keep) console.log(`kept database ${scratch.name}`);
    else await scratch.drop();
  }
}

await main();

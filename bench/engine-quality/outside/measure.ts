/**
 * How long a prepared set takes through the engine, to keep each set's size near "about a minute": ingests every
 * document into one knowledge base of a fresh embedded database, as a publisher's upload would (file name and
 * bytes), then asks every question once, extractively. Prints ingestion time, question latency, how many answers cite
 * anything, and how many cite the question's own document first; scoring answers is the benchmark's job, not this.
 *
 *   npx tsx bench/engine-quality/outside/measure.ts --set NAME [--dir DIR]
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openPglite } from '@/db/client';
import { knowledgeBases, publishers } from '@/db/schema';
import { answerHostedQuery, ingestDocument } from '@/lib/engine';
import { prepareDatabase } from '@/lib/platform/db';
import { newId } from '@/lib/platform/ids';
import { DEFAULT_DIR, loadPreparedSet } from './load';

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const name = option('--set');
if (!name) {
  console.error('usage: measure.ts --set NAME [--dir DIR]');
  process.exit(2);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

async function main() {
  const set = loadPreparedSet(name!, option('--dir') ?? DEFAULT_DIR);
  const handle = await openPglite();
  try {
    await prepareDatabase(handle, {});
    const publisherId = newId('pub');
    await handle.db.insert(publishers).values({ id: publisherId, slug: `outside-${set.name}`, name: 'Outside set' });
    const kbId = newId('kb');
    await handle.db
      .insert(knowledgeBases)
      .values({ id: kbId, publisherId, slug: set.name, title: set.name, summary: 'Outside set', category: 'research', tags: [], status: 'published' });
    const started = performance.now();
    for (const doc of set.documents) {
      const result = await ingestDocument(handle.db, kbId, { sourceName: doc.fileName, bytes: new TextEncoder().encode(doc.text) }, { embeddings: null });
      if (!result.ok) throw new Error(`${doc.fileName}: ${result.message}`);
    }
    const ingestSeconds = (performance.now() - started) / 1000;
    const rows = (await handle.db.execute(sql`select id, source_name from documents where kb_id = ${kbId}`)).rows as Array<{ id: string; source_name: string }>;
    const setIdOf = new Map(rows.map((r) => [r.id, set.documents.find((d) => d.fileName === r.source_name)?.id]));
    const latencies: number[] = [];
    let cited = 0;
    let ownFirst = 0;
    for (const q of set.questions) {
      const t = performance.now();
      const answer = await answerHostedQuery({ kbId, query: q.question, requestId: 'outside-measure' }, handle.db, { llm: null, embeddings: null });
      latencies.push(performance.now() - t);
      if (answer.citations.length) cited++;
      if (q.documentId && setIdOf.get(answer.citations[0]?.document_id ?? '') === q.documentId) ownFirst++;
    }
    latencies.sort((a, b) => a - b);
    const asked = set.questions.length;
    console.log(
      `${set.name}: ${set.documents.length} documents ingested in ${ingestSeconds.toFixed(1)} s; ${asked} questions in ` +
        `${(latencies.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s (p50 ${percentile(latencies, 0.5).toFixed(0)} ms, p95 ${percentile(latencies, 0.95).toFixed(0)} ms); ` +
        `${cited} answered with a citation, ${ownFirst} citing the question's document first`,
    );
  } finally {
    await handle.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

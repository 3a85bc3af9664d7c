/**
 * The nearest-chunk query of hybrid retrieval at a size the evaluation set does not reach, on embedded PGlite, in
 * one run: the portable SQL (an inner product over unnest) against pgvector's exact scan over the same rows, both
 * through lib/engine/vector-search.ts, and with --hnsw what an HNSW index would cost and give (the reason the engine
 * has none: see vector-search.ts).
 *
 *   npx tsx bench/engine-quality/vector-scale.ts [--kbs 4] [--chunks 5000] [--dim 384] [--hnsw]
 *
 * Random unit vectors, written straight into chunk_embeddings (foreign keys off for the session: no chunk text is
 * needed to rank vectors).
 */
import { sql } from 'drizzle-orm';
import { openPglite } from '@/db/client';
import { prepareDatabase } from '@/lib/platform/db';
import { realArrayLiteral } from '@/lib/engine/embeddings';
import { nearestChunkIds } from '@/lib/engine/vector-search';
import { itemAt } from '@/lib/platform/arrays';

const argv = process.argv.slice(2);
const numberArg = (name: string, fallback: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const KBS = numberArg('--kbs', 4);
const PER_KB = numberArg('--chunks', 5000);
const DIM = numberArg('--dim', 384);
const QUERIES = 20;
const MODEL = 'random';

let seed = 1;
function random(): number {
  seed = (Math.imul(seed ^ (seed >>> 15), 2246822507) + 12345) >>> 0;
  return seed / 2 ** 32 - 0.5;
}
function unitVector(): number[] {
  const v = Array.from({ length: DIM }, random);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}
const median = (xs: number[]) =>
  itemAt(
    [...xs].sort((a, b) => a - b),
    Math.floor(xs.length / 2),
  );

const handle = await openPglite();
const db = handle.db;
let nextId = 1;
async function insert(count: number, kb: (i: number) => string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i += 500) {
    const batch = Array.from({ length: Math.min(500, count - i) }, (_, k) => ({ id: nextId++, kb: kb(i + k), e: realArrayLiteral(unitVector()) }));
    await db.execute(sql`
      insert into chunk_embeddings (chunk_id, kb_id, model, embedding)
      select x.id, x.kb, ${MODEL}, x.e::real[] from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as x(id bigint, kb text, e text)`);
  }
  return performance.now() - started;
}

try {
  await prepareDatabase(handle);
  await db.execute(sql`set session_replication_role = replica`);
  const loadMs = await insert(KBS * PER_KB, (i) => `kb_${i % KBS}`);
  await db.execute(sql`analyze chunk_embeddings`);
  const extraMs = await insert(200, () => 'kb_0');
  const queries = Array.from({ length: QUERIES }, () => ({ model: MODEL, values: unitVector() }));
  const timings = { portable: [] as number[], pgvector: [] as number[] };
  let differing = 0;
  for (const q of queries) {
    const lists: string[] = [];
    for (const mode of ['portable', 'pgvector'] as const) {
      const started = performance.now();
      lists.push((await nearestChunkIds(db, 'kb_1', q, 20, mode)).join());
      timings[mode].push(performance.now() - started);
    }
    if (lists[0] !== lists[1]) differing++;
  }
  console.log(`vector-scale: PGlite, ${KBS} knowledge bases × ${PER_KB} chunks, ${DIM} dimensions, nearest 20 of one knowledge base, ${QUERIES} queries`);
  console.log('');
  console.log('| | median per query |');
  console.log('|---|---|');
  console.log(`| portable SQL (unnest) | ${median(timings.portable).toFixed(1)} ms |`);
  console.log(`| pgvector, exact | ${median(timings.pgvector).toFixed(1)} ms |`);
  console.log(`| ratio portable / pgvector | ${(median(timings.portable) / median(timings.pgvector)).toFixed(1)}× |`);
  console.log(
    `lists differing between the two: ${differing} of ${QUERIES}; loading ${KBS * PER_KB} vectors ${(loadMs / 1000).toFixed(1)} s, 200 more ${extraMs.toFixed(0)} ms`,
  );
  if (argv.includes('--hnsw')) {
    const started = performance.now();
    await db.execute(
      sql.raw(`create index chunk_embeddings_hnsw_bench on chunk_embeddings using hnsw ((embedding::vector(${DIM})) vector_ip_ops) where model = '${MODEL}'`),
    );
    const buildMs = performance.now() - started;
    const indexedMs = await insert(200, () => 'kb_0');
    // The index orders every knowledge base's vectors; pgvector 0.8's iterative scan goes on until 20 pass the filter.
    await db.execute(sql`set hnsw.iterative_scan = strict_order`);
    const annMs: number[] = [];
    let found = 0;
    for (const q of queries) {
      const exact = await nearestChunkIds(db, 'kb_1', q, 20, 'pgvector');
      const t = performance.now();
      const r = await db.execute(
        sql.raw(`
        select chunk_id from chunk_embeddings where kb_id = 'kb_1' and model = '${MODEL}'
        order by embedding::vector(${DIM}) <#> '${realArrayLiteral(q.values)}'::real[]::vector(${DIM}) limit 20`),
      );
      annMs.push(performance.now() - t);
      const ids = new Set(r.rows.map((x) => Number((x as { chunk_id: number }).chunk_id)));
      found += exact.filter((id) => ids.has(id)).length;
    }
    const plan = await db.execute(
      sql.raw(
        `explain select chunk_id from chunk_embeddings where kb_id = 'kb_1' and model = '${MODEL}' order by embedding::vector(${DIM}) <#> '${realArrayLiteral(itemAt(queries, 0).values)}'::real[]::vector(${DIM}) limit 20`,
      ),
    );
    const usesIndex = plan.rows.some((x) => String(Object.values(x as object)[0]).includes('chunk_embeddings_hnsw_bench'));
    console.log('');
    console.log(
      `HNSW (partial on the model, vector_ip_ops): build ${(buildMs / 1000).toFixed(1)} s; 200 more vectors ${indexedMs.toFixed(0)} ms (${(indexedMs / extraMs).toFixed(1)}× without it); query ${median(annMs).toFixed(1)} ms median${usesIndex ? '' : ' (planner did not use the index)'}; recall of the exact 20: ${((100 * found) / (20 * QUERIES)).toFixed(1)}%`,
    );
  }
} finally {
  await handle.close();
}

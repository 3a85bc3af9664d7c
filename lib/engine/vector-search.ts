import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { realArrayLiteral } from './embeddings';

/**
 * The chunks of one knowledge base nearest a question's vector (hybrid retrieval, docs/api.md §8.1), two ways over
 * the one store, chunk_embeddings.embedding (unit-length real[], written the same on every database):
 *  - `pgvector`: the database has the `vector` extension (always on PGlite, db/client.ts + db/migrate.ts; a
 *    PostgreSQL server when its operator installed it). The real[] is cast to `vector` and ordered by `<#>`
 *    (negative inner product, which for unit vectors ranks as cosine does) in pgvector's C code;
 *  - `portable`: a server without it (the development and CI machines' PostgreSQL 15): the same inner product
 *    summed in SQL over unnest, exact, slower.
 * Both rank by the same quantity, accumulated in single precision in array order, and break ties by chunk id, so
 * the same data ranks the same on both (test/integration/engine-hybrid.test.ts).
 *
 * Exact search, with no HNSW index, on purpose. Measured on PGlite by bench/engine-quality/vector-scale.ts (20,000
 * vectors of 384 dimensions, 5,000 in the knowledge base asked): the portable query takes 378 ms, the pgvector one
 * 24 ms, with the same 20 chunks every time. An HNSW expression index (partial on the model) took 39 s to build and
 * made each later insert about 13 times slower, which ingestion would pay on every upload; it orders every knowledge
 * base's vectors together, so its neighbours must be filtered by knowledge base afterwards (pgvector's iterative
 * scan), and it is approximate (it returned 18.5% of the exact 20 there: random vectors are a hard case, and the
 * knowledge-base filter comes after the index), so rankings would differ from the portable path. A knowledge base's own chunks, found through chunk_embeddings_kb_idx, are
 * few enough to compare them all; an index is the step to take when one holds hundreds of thousands of chunks.
 */
export type VectorSearchMode = 'pgvector' | 'portable';

/** Per database (its Drizzle object): detected on first use, since the extension is created while migrating. */
const MODES = new WeakMap<object, Promise<VectorSearchMode>>();

export function vectorSearchMode(db: Executor): Promise<VectorSearchMode> {
  let mode = MODES.get(db);
  if (!mode) {
    mode = db
      .execute(sql`select exists(select 1 from pg_extension where extname = 'vector') as present`)
      .then((r) => ((r.rows[0] as { present: boolean }).present ? 'pgvector' : 'portable'));
    // A failed look-up (a dropped connection) is not remembered: the next query asks again.
    mode.catch(() => MODES.delete(db));
    MODES.set(db, mode);
  }
  return mode;
}

/** Chunk ids of the knowledge base's `limit` nearest chunks embedded by `model`, nearest first. */
export async function nearestChunkIds(
  db: Executor,
  kbId: string,
  query: { model: string; values: number[] },
  limit: number,
  mode?: VectorSearchMode,
): Promise<number[]> {
  const q = realArrayLiteral(query.values);
  const statement =
    (mode ?? (await vectorSearchMode(db))) === 'pgvector'
      ? // pgvector refuses vectors of different dimensions; a chunk embedded at another size is no neighbour.
        sql`
        select e.chunk_id as id
        from chunk_embeddings e
        where e.kb_id = ${kbId} and e.model = ${query.model} and array_length(e.embedding, 1) = ${query.values.length}::int
        order by e.embedding::vector <#> ${q}::real[]::vector, e.chunk_id
        limit ${limit}::int`
      : sql`
        select e.chunk_id as id
        from chunk_embeddings e
        where e.kb_id = ${kbId} and e.model = ${query.model}
        order by (select sum(a * b) from unnest(e.embedding, ${q}::real[]) as t(a, b)) desc nulls last, e.chunk_id
        limit ${limit}::int`;
  return (await db.execute(statement)).rows.map((r) => Number((r as { id: number }).id));
}

import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { realArrayLiteral } from './embeddings';

/** Exact nearest chunks (docs/api.md §8.1): by pgvector where the database has it, else the same inner product in SQL. */
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

/**
 * The catalogue PAGE's search at 100,000 knowledge bases (issue 17): what `searchCatalog` (lib/catalog) runs for
 * app/(marketplace)/knowledge-bases, which the public API does not (facet counts, the typo fallback), timed through
 * the lib function itself on PostgreSQL: the prefix-stem lookup, then the page (relevance ranks every match) and the
 * facet statement concurrently, and for a search that finds nothing the trigram suggestion and the suggestion's page.
 * Also each statement alone through node-postgres (page, facets), to show where the time goes, and the page as the
 * server serves it: facets from the catalogue's result cache (30 s; misses during the run are counted in).
 *
 *   npx tsx bench/listing/catalogue-page.ts                        # fresh database, 100,000 rows, 100 runs per row
 *   npx tsx bench/listing/catalogue-page.ts --url postgres://…/db  # an already loaded database (kept)
 *
 * The database is loaded as bench/listing/run.ts loads it (bench/listing/load.ts), then VACUUM (ANALYZE).
 */
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { openPostgres, type DatabaseHandle } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import {
  buildListingQueries,
  facetsStatement,
  parseListingParams,
  resolveListingSearch,
  searchCatalog,
  SEARCH_PLANNER_SETTING,
  type ListingParams,
} from '@/lib/catalog';
import { useDatabase } from '@/lib/platform/db';
import { randomBase62 } from '@/lib/platform/ids';
import { itemAt } from '@/lib/platform/arrays';
import { createScratchDatabase, type ScratchDatabase } from '../../test/support/scratch-database';
import { loadBenchCatalog } from './load';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const ROWS = Number(arg('rows') ?? 100_000);
const RUNS = Number(arg('requests') ?? 100);

export const CATALOGUE_PAGE_MATRIX: [string, string][] = [
  ['landing: no search (popular + facets)', ''],
  ['relevance: one common word', 'query=climate'],
  ['relevance: prefix of last word', 'query=constit'],
  ['relevance: two words', 'query=privacy regulation'],
  ['relevance + category + tag', 'query=climate&category=policy&tags=governance'],
  ['relevance, deep page 500', 'query=climate&page=500'],
  ['facets: category only', 'category=health'],
  ['facets: two tags', 'tags=privacy,europe'],
  ['typo: nothing found, suggestion shown', 'query=constituton'],
  ['typo: two words, one wrong', 'query=climate emmisions'],
  ['some words: nothing matches every word', 'query=climate qwzx'],
];

function percentile(sorted: number[], p: number): number {
  return itemAt(sorted, Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)));
}

async function time(runs: number, work: () => Promise<unknown>) {
  for (let i = 0; i < Math.max(10, runs / 10); i++) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await work();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function main() {
  let scratch: ScratchDatabase | null = null;
  let url = arg('url');
  if (!url) {
    scratch = await createScratchDatabase(`almanac_bench_${randomBase62(8).toLowerCase()}`);
    url = scratch.url;
  }
  const handle: DatabaseHandle = await openPostgres(url, 10);
  try {
    if (scratch) {
      await migrateDatabase(handle);
      await loadBenchCatalog(handle.db, ROWS);
      await handle.db.execute(sql`vacuum (analyze)`);
    }
    const dialect = new PgDialect();
    const pool = handle.pool!;
    const inSetting = async (text: string, params: unknown[]) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(SEARCH_PLANNER_SETTING);
        await client.query(text, params);
        await client.query('commit');
      } finally {
        client.release();
      }
    };
    useDatabase(handle);
    console.log(
      `| request | results | suggestion | uncached p50 (ms) | uncached p95 (ms) | page SQL p95 | facets SQL p95 | served p50 (ms) | served p95 (ms) | served p95 < 25 ms |`,
    );
    console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|:---:|');
    for (const [label, qs] of CATALOGUE_PAGE_MATRIX) {
      const parsed = parseListingParams(new URLSearchParams(qs));
      if (!parsed.ok) throw new Error(parsed.message);
      // The page's default order with a search term (app/(marketplace)/knowledge-bases/page.tsx).
      const params: ListingParams = { ...parsed.params, sort: parsed.params.query ? 'relevance' : parsed.params.sort };
      const first = await searchCatalog(params, handle.db);
      const whole = await time(RUNS, () => searchCatalog(params, handle.db));
      const search = await resolveListingSearch(handle.db, params.query);
      const page = buildListingQueries(handle.db, params, search).page.toSQL();
      const facets = dialect.sqlToQuery(facetsStatement(params, search));
      const run = (text: string, values: unknown[]) => (search?.terms ? inSetting(text, values) : pool.query(text, values));
      const pageSql = await time(RUNS, () => run(page.sql, page.params));
      const facetsSql = await time(RUNS, () => run(facets.sql, facets.params));
      const served = await time(RUNS, () => searchCatalog(params));
      const f = (n: number) => n.toFixed(2);
      console.log(
        `| ${label} (\`${qs || '—'}\`) | ${first.total} | ${first.suggestion ? `“${first.suggestion}”${first.showingSuggestion ? ' (shown)' : ''}` : '—'} | ${f(whole.p50)} | ${f(whole.p95)} | ${f(pageSql.p95)} | ${f(facetsSql.p95)} | ${f(served.p50)} | ${f(served.p95)} | ${served.p95 < 25 ? 'yes' : '**no**'} |`,
      );
    }
  } finally {
    await handle.close();
    if (scratch) await scratch.drop();
  }
}

await main();

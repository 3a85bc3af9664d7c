/**
 * Listing benchmark (issue 2): a fresh database on the PostgreSQL server, 100,000 knowledge bases, the REAL route
 * handler of GET /api/marketplace/knowledge-bases behind a minimal node:http server, and next to it the very same SQL
 * (built by lib/catalog's buildListingQueries) run directly through node-postgres in the same run.
 *
 *   npx tsx bench/listing/run.ts [--rows 100000] [--requests 300] [--keep]
 *
 * Requests are sequential (one in flight) so that p50/p95 are latencies, not queueing. The database is dropped at
 * the end unless --keep is given. Needs TEST_POSTGRES_URL or the default postgres://postgres@127.0.0.1:5432/test.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { GET } from '@/app/api/marketplace/knowledge-bases/route';
import { openPostgres } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { SEARCH_PLANNER_SETTING, buildListingQueries, parseListingParams, prefixStemsQuery, resolveListingSearch } from '@/lib/catalog/listing';
import { closeDatabase, useDatabase } from '@/lib/platform/db';
import { resetEnvForTesting } from '@/lib/platform/env';
import { randomBase62 } from '@/lib/platform/ids';
import { itemAt } from '@/lib/platform/arrays';
import { createScratchDatabase } from '../../test/support/scratch-database';
import { loadBenchCatalog } from './load';
import { LISTING_MATRIX } from './matrix';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ROWS = option('rows', 100_000);
const REQUESTS = option('requests', 300);
const WARMUP = Math.max(20, Math.floor(REQUESTS / 10));
const KEEP = args.includes('--keep');

const MATRIX = LISTING_MATRIX;

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return itemAt(sorted, i);
}

async function measure(run: () => Promise<void>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < WARMUP; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

function serve(): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    const { port } = server.address() as AddressInfo;
    const response = await GET(new Request(`http://127.0.0.1:${port}${req.url}`, { method: req.method }));
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function get(agent: http.Agent, port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

async function main() {
  // This benchmark compares the handler with its SQL, so every request must reach the database: no result cache.
  // (bench/listing/server.ts measures the server as deployed, cache included.)
  process.env.CATALOG_CACHE_TTL_MS = '0';
  resetEnvForTesting();
  const scratch = await createScratchDatabase(`almanac_bench_${randomBase62(8).toLowerCase()}`);
  const handle = await openPostgres(scratch.url, 10);
  const rawPool = new pg.Pool({ connectionString: scratch.url, max: 10 });
  let server: http.Server | undefined;
  try {
    await migrateDatabase(handle);
    let t = performance.now();
    await loadBenchCatalog(handle.db, ROWS);
    // What autovacuum does shortly after a bulk load; without it counts cannot use index-only scans.
    await rawPool.query('vacuum (analyze) knowledge_bases, publishers, catalog_search, catalog_words');
    console.log(`loaded and vacuumed ${ROWS} knowledge bases in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    useDatabase(handle);
    server = await serve();
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

    const rows: { name: string; qs: string; total: number; http: { p50: number; p95: number }; sql: { p50: number; p95: number } }[] = [];
    for (const [label, qs] of MATRIX) {
      const path = `/api/marketplace/knowledge-bases${qs ? `?${qs}` : ''}`;
      const check = await get(agent, port, path);
      if (check.status !== 200) throw new Error(`${path} answered ${check.status}: ${check.body}`);
      const total = (JSON.parse(check.body) as { total: number }).total;

      const parsed = parseListingParams(new URLSearchParams(qs));
      if (!parsed.ok) throw new Error(parsed.message);
      const search = await resolveListingSearch(handle.db, parsed.params.query);
      const { page, count } = buildListingQueries(handle.db, parsed.params, search);
      const pageSql = page.toSQL();
      const lookupSql = search?.terms ? prefixStemsQuery(handle.db, search.terms.words.at(-1)!).toSQL() : null;
      const countSql = count.toSQL();

      const httpTimes = await measure(async () => {
        const r = await get(agent, port, path);
        if (r.status !== 200) throw new Error(`status ${r.status}`);
      });
      // Exactly what lib/catalog does: a search first looks up its prefix stems; then page and count run
      // concurrently, a search's count in its own transaction with the planner setting.
      const countWithSetting = async () => {
        const client = await rawPool.connect();
        try {
          await client.query('begin');
          await client.query(SEARCH_PLANNER_SETTING);
          await client.query(countSql.sql, countSql.params as unknown[]);
          await client.query('commit');
        } finally {
          client.release();
        }
      };
      const sqlTimes = await measure(async () => {
        if (lookupSql) await rawPool.query(lookupSql.sql, lookupSql.params as unknown[]);
        await Promise.all([
          rawPool.query(pageSql.sql, pageSql.params as unknown[]),
          parsed.params.query ? countWithSetting() : rawPool.query(countSql.sql, countSql.params as unknown[]),
        ]);
      });
      rows.push({ name: label, qs, total, http: httpTimes, sql: sqlTimes });
      console.log(
        `${label.padEnd(30)} total ${String(total).padStart(6)}  endpoint p50 ${httpTimes.p50.toFixed(2)} p95 ${httpTimes.p95.toFixed(2)} ms  sql p50 ${sqlTimes.p50.toFixed(2)} p95 ${sqlTimes.p95.toFixed(2)} ms`,
      );
    }
    agent.destroy();

    t = performance.now();
    console.log('\n| request | matches | endpoint p50 (ms) | endpoint p95 (ms) | SQL p50 (ms) | SQL p95 (ms) | p95 ratio | p95 < 25 ms |');
    console.log('|---|---:|---:|---:|---:|---:|---:|:---:|');
    for (const r of rows) {
      console.log(
        `| ${r.name} (\`${r.qs || '—'}\`) | ${r.total} | ${r.http.p50.toFixed(2)} | ${r.http.p95.toFixed(2)} | ${r.sql.p50.toFixed(2)} | ${r.sql.p95.toFixed(2)} | ${(r.http.p95 / r.sql.p95).toFixed(2)} | ${r.http.p95 < 25 ? 'yes' : '**no**'} |`,
      );
    }
    console.log(`\n${REQUESTS} sequential requests per row after ${WARMUP} warm-up requests; ${ROWS} knowledge bases (2% drafts).`);
  } finally {
    if (server) await new Promise((resolve) => server!.close(resolve));
    await rawPool.end();
    await closeDatabase();
    await handle.close().catch(() => {});
    if (!KEEP) await scratch.drop();
    else console.log(`kept database ${scratch.name}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

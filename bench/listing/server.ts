/**
 * The public listing through the REAL `npm start` server (scripts/serve.mjs, one build), issue 13 item 5:
 *
 * Throughput rows, interleaved in 2-second slices after a shared warm-up (the method of bench/gateway):
 *   listing  GET /api/marketplace/knowledge-bases, cycling through the 13 requests of LISTING_MATRIX (searches,
 *            filters, sorts, deep pages), at 10 and at 50 connections,
 *   no-op    GET /api/health?probe=live on the same server (a Next route with no I/O: the framework's floor),
 *            at the same connections.
 *   Both carry a new X-Forwarded-For address on every request (the server trusts 127.0.0.1 as its proxy), so the
 *   per-client limit is in force and counted on every listing request without refusing any: many clients, as in
 *   production. Target: listing requests/s ≥ 0.8 × the no-op route's.
 *
 * Isolation rows: the paid POST /kb/{id}/query (an instant publisher, as in bench/gateway) at a steady 200 requests/s
 * over 4 connections, its p50/p99 idle and then while a second process floods the listing at 200 connections with a
 * cache-busting parameter (flood.mjs): from one address (the per-client limit answers it), from a new address per
 * request (the cache answers it), and from a new address with a new search word per request (every request a
 * database load: the load gate is what is left). A prober reads GET /api/health (a database round trip) ten times a
 * second throughout. Target: paid p99 under the flood ≤ 2 × idle p99.
 *
 *   NEXT_SKIP_TYPECHECK=1 NEXT_DIST_DIR=.next-bench npx next build      # once (then take .next-bench out of tsconfig.json)
 *   npx tsx bench/listing/server.ts --db embedded                       # PGlite with the sample marketplace
 *   npx tsx bench/listing/server.ts --db postgres --rows 100000         # PostgreSQL, 100,000 knowledge bases
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
// @ts-expect-error autocannon ships no type declarations
import autocannonModule from 'autocannon';
import { itemAt } from '@/lib/platform/arrays';
import { createScratchDatabase, type ScratchDatabase } from '../../test/support/scratch-database';
import { cpuDelta, snapshotCpu, type CpuGroups } from '../gateway/cpu-accounting';
import { LISTING_MATRIX, LISTING_PATH } from './matrix';

const root = path.resolve(import.meta.dirname, '..', '..');
/** The app whose `npm start` server is measured (BENCH_APP_ROOT: another checkout, e.g. the code before a change). */
const appRoot = path.resolve(process.env.BENCH_APP_ROOT ?? root);
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const DB = option('db', 'embedded') as 'embedded' | 'postgres';
const ROWS = Number(option('rows', '100000'));
const DIST = process.env.NEXT_DIST_DIR ?? '.next-bench';
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const SLICE = Number(process.env.BENCH_SLICE ?? 2);
const ISOLATION_SECONDS = Number(process.env.BENCH_ISOLATION_SECONDS ?? 15);
const PAID_RATE = Number(process.env.BENCH_PAID_RATE ?? 200);
const FLOOD_CONNECTIONS = Number(process.env.BENCH_FLOOD_CONNECTIONS ?? 200);
const FLOOD_NICE = Number(process.env.BENCH_FLOOD_NICE ?? 0);
const SECRET = 'fake-bench-secret-not-for-production-0123456789';
const ONLY = process.env.BENCH_ONLY; // 'throughput' | 'isolation'
/** Diagnostics: a file that receives every line the processes started here print (with BENCH_SERVER_NODE_ARGS=--trace-gc). */
const SERVER_LOG = process.env.BENCH_SERVER_LOG;
const AFTER_THROUGHPUT_MS = Number(process.env.BENCH_AFTER_THROUGHPUT_MS ?? 65_000);

Object.assign(process.env, { ALMANAC_SECRET: SECRET, ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true', LOG_LEVEL: 'warn', SEED_ON_START: 'false' });

interface LoadResult {
  requests: { average: number; total: number };
  timeouts: number;
  latency: { p50: number; p90: number; p99: number; average: number; max: number };
  non2xx: number;
  errors: number;
  '2xx': number;
  statusCodeStats?: Record<string, { count: number }>;
}
interface RawLoadResult {
  totalCompletedRequests: number;
  non2xx: number;
  errors: number;
}
type Request = { method: string; path: string; headers?: Record<string, string>; body?: string };
interface LoadOptions {
  url: string;
  connections: number;
  duration?: number;
  overallRate?: number;
  timeout?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: (Request & { setupRequest?: (r: Request) => Request })[];
}
const autocannon = autocannonModule as ((options: LoadOptions) => Promise<LoadResult>) & {
  aggregateResult(results: RawLoadResult[], opts: { url: string; connections: number }): LoadResult;
};
const autocannonRaw = autocannonModule as (options: LoadOptions & { skipAggregateResult: true }) => Promise<RawLoadResult>;

const children: ChildProcess[] = [];

function startProcess(args: string[], env: Record<string, string>, ready: RegExp, cwd = root): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH, ...env } as Record<string, string | undefined> as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (SERVER_LOG) appendFileSync(SERVER_LOG, `${line}\n`);
      const match = ready.exec(line);
      if (match) resolve({ child, match });
    });
    child.stderr!.on('data', (d) => process.stderr.write(d));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// A new client address for every request: 10.x.y.z, never repeating within a run of under 16 million requests.
let addressCounter = 0;
const nextAddress = () => {
  const i = ++addressCounter;
  return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
};
const manyClients = (paths: string[]) =>
  paths.map((p) => ({ method: 'GET', path: p, setupRequest: (r: Request) => ({ ...r, headers: { ...r.headers, 'x-forwarded-for': nextAddress() } }) }));

interface Measurement {
  name: string;
  opts: LoadOptions;
  slices: RawLoadResult[];
  seconds: number;
  serverCpuMs: number;
}

function toRow(m: Measurement) {
  const merged = autocannon.aggregateResult(m.slices, { url: m.opts.url, connections: m.opts.connections });
  const total = m.slices.reduce((sum, r) => sum + r.totalCompletedRequests, 0);
  return {
    name: m.name,
    rps: Math.round(total / m.seconds),
    p50: merged.latency.p50,
    p90: merged.latency.p90,
    p99: merged.latency.p99,
    non2xx: merged.non2xx,
    errors: merged.errors,
    total,
    serverCpuMsPerRequest: Number((m.serverCpuMs / Math.max(1, total)).toFixed(3)),
  };
}

async function measureInterleaved(rows: Measurement[], groups: CpuGroups) {
  for (let i = 0; i < 2; i++) for (const m of rows) await autocannon({ ...m.opts, duration: 2 });
  while (itemAt(rows, 0).seconds < DURATION) {
    for (const m of rows) {
      const seconds = Math.min(SLICE, DURATION - m.seconds);
      const before = snapshotCpu(groups);
      m.slices.push(await autocannonRaw({ ...m.opts, duration: seconds, skipAggregateResult: true }));
      m.serverCpuMs += cpuDelta(before, snapshotCpu(groups)).server;
      m.seconds += seconds;
    }
  }
}

/** The paid query at a steady rate, with /api/health probed ten times a second, optionally under a flood. */
async function isolationRow(base: string, paid: LoadOptions, flood: string | null) {
  let floodResult: Promise<Record<string, unknown>> | null = null;
  if (flood) {
    const floodArgs = [path.join(import.meta.dirname, 'flood.mjs'), base, flood, String(ISOLATION_SECONDS + 4), String(FLOOD_CONNECTIONS)];
    // FLOOD_NICE > 0 runs the flooding client at a lower CPU priority: it stands for clients elsewhere on the network,
    // whose CPU is not the server's; on this 2-core machine it would otherwise take the cores that the paid path's own
    // processes (PostgreSQL, the publisher, the paid client) need.
    const child = spawn(FLOOD_NICE > 0 ? 'nice' : process.execPath, FLOOD_NICE > 0 ? ['-n', String(FLOOD_NICE), process.execPath, ...floodArgs] : floodArgs, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    floodResult = new Promise((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!)) : reject(new Error(`flood exited with ${code}`))));
    });
    await new Promise((r) => setTimeout(r, 2_000)); // the flood is at full strength before measuring
  }
  const health = autocannon({ url: `${base}/api/health`, connections: 1, overallRate: 10, duration: ISOLATION_SECONDS });
  const paidResult = await autocannon({ ...paid, duration: ISOLATION_SECONDS });
  const healthResult = await health;
  const floodOut = floodResult ? await floodResult : null;
  return {
    flood: flood ?? 'none (idle)',
    paid: {
      rps: Math.round(paidResult.requests.average),
      p50: paidResult.latency.p50,
      p90: paidResult.latency.p90,
      p99: paidResult.latency.p99,
      max: paidResult.latency.max,
      total: paidResult.requests.total,
      non2xx: paidResult.non2xx,
      errors: paidResult.errors,
      timeouts: paidResult.timeouts,
    },
    health: {
      p50: healthResult.latency.p50,
      p99: healthResult.latency.p99,
      max: healthResult.latency.max,
      total: healthResult.requests.total,
      non2xx: healthResult.non2xx,
      errors: healthResult.errors,
    },
    floodClient: floodOut,
  };
}

async function prepareDatabase(publisherUrl: string, infraKey: string, signingSecret: string) {
  const { openPglite, openPostgres } = await import('@/db/client');
  const { prepareDatabase: prepare } = await import('@/lib/platform/db');
  const { seedMarketplace } = await import('@/lib/seed');
  const fixtures = await import('../../test/support/gateway-fixtures');
  let scratch: ScratchDatabase | undefined;
  let dataDir: string | undefined;
  let handle;
  const started = Date.now();
  if (DB === 'embedded') {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'almanac-bench-listing-'));
    handle = await openPglite(path.join(dataDir, 'pglite'));
    await prepare(handle, { seed: seedMarketplace });
  } else {
    scratch = await createScratchDatabase(`almanac_bench_${Math.random().toString(36).slice(2, 10)}`, ADMIN_URL);
    handle = await openPostgres(scratch.url, 4);
    await prepare(handle);
    const { loadBenchCatalog } = await import('./load');
    await loadBenchCatalog(handle.db, ROWS);
    const raw = new pg.Client({ connectionString: scratch.url });
    await raw.connect();
    await raw.query('vacuum (analyze) knowledge_bases, publishers, catalog_search, catalog_words');
    await raw.end();
  }
  const pub = await fixtures.createPublisher(handle.db);
  const kbId = await fixtures.createHttpKnowledgeBase(handle.db, pub, { endpointUrl: publisherUrl, infraKey, signingSecret, timeoutMs: 30_000 });
  const key = await fixtures.buyKey(handle.db, kbId, { cap: 100_000_000, perMinute: 100_000_000 });
  const published = Number(
    ((await handle.db.execute((await import('drizzle-orm')).sql`select count(*)::int as n from catalog_search`)).rows[0] as { n: number }).n,
  );
  await handle.close();
  console.log(`database ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${DB}, ${published} published knowledge bases`);
  return { scratch, dataDir, kbId, key: key.key, published };
}

const loadAtStart = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');

async function main() {
  if (!existsSync(path.join(appRoot, DIST, 'BUILD_ID')))
    throw new Error(`no build in ${DIST}: run NEXT_SKIP_TYPECHECK=1 NEXT_DIST_DIR=${DIST} npx next build first`);
  const infraKey = 'bench_infra_key_0123456789abcdef';
  const signingSecret = 'bench_signing_secret_0123456789abcdef0123';
  const publisher = await startProcess(
    ['examples/publisher-server/server.mjs'],
    { PORT: '0', PUBLISHER_INFRA_KEY: infraKey, PUBLISHER_SIGNING_SECRET: signingSecret, PUBLISHER_DELAY_MS: '0' },
    /listening on (http:\/\/\S+)/,
  );
  const db = await prepareDatabase(`${publisher.match[1]}/query`, infraKey, signingSecret);
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const { child: server } = await startProcess(
      // BENCH_SERVER_NODE_ARGS: diagnostics only, e.g. --trace-gc (with BENCH_SERVER_LOG).
      [
        ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
        path.join(appRoot, 'scripts/serve.mjs'),
        '-p',
        String(port),
        '-H',
        '127.0.0.1',
      ],
      {
        NODE_ENV: 'production',
        NEXT_DIST_DIR: DIST,
        NEXT_TELEMETRY_DISABLED: '1',
        ...(DB === 'postgres' ? { DATABASE_URL: db.scratch!.url, DATABASE_POOL_MAX: '10' } : { DATA_DIR: db.dataDir! }),
        SEED_ON_START: 'false',
        ALMANAC_SECRET: SECRET,
        ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true',
        APP_URL: base,
        LOG_LEVEL: 'warn',
        TRUSTED_PROXIES: '127.0.0.1',
        // PUBLIC_RATE_LIMIT_PER_MINUTE and CATALOG_CACHE_TTL_MS at their defaults (300, 30 s) unless set for a variant.
        ...(process.env.PUBLIC_RATE_LIMIT_PER_MINUTE ? { PUBLIC_RATE_LIMIT_PER_MINUTE: process.env.PUBLIC_RATE_LIMIT_PER_MINUTE } : {}),
        ...(process.env.CATALOG_CACHE_TTL_MS ? { CATALOG_CACHE_TTL_MS: process.env.CATALOG_CACHE_TTL_MS } : {}),
      },
      /Almanac ready on/,
      appRoot,
    );
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${base}/api/health`)
          .then((r) => r.ok)
          .catch(() => false)
      )
        break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const groups: CpuGroups = { server: server.pid!, publisher: [publisher.child.pid!] };
    const listingPaths = LISTING_MATRIX.map(([, qs]) => `${LISTING_PATH}${qs ? `?${qs}` : ''}`);
    const throughput: ReturnType<typeof toRow>[] = [];
    if (ONLY !== 'isolation') {
      for (const connections of [10, 50]) {
        const listing: Measurement = {
          name: `listing (13 requests cycled), ${connections} connections`,
          opts: { url: base, connections, requests: manyClients(listingPaths) },
          slices: [],
          seconds: 0,
          serverCpuMs: 0,
        };
        const noop: Measurement = {
          name: `no-op Next route, ${connections} connections`,
          opts: { url: base, connections, requests: manyClients(['/api/health?probe=live']) },
          slices: [],
          seconds: 0,
          serverCpuMs: 0,
        };
        await measureInterleaved([listing, noop], groups);
        throughput.push(toRow(listing), toRow(noop));
      }
      console.table(throughput);
      // Pairs pushed together above: the listing's row, then the no-op route's.
      for (let i = 0; i + 1 < throughput.length; i += 2) {
        const [listingRow, noopRow] = [throughput[i]!, throughput[i + 1]!];
        console.log(`${listingRow.name}: ${(listingRow.rps / noopRow.rps).toFixed(2)} × the no-op route (target ≥ 0.8)`);
      }
    }

    const isolation: Awaited<ReturnType<typeof isolationRow>>[] = [];
    if (ONLY !== 'throughput') {
      if (throughput.length > 0) {
        // The throughput rows counted a new address per request: ~150,000 per-address logs in the in-process limiter
        // until their minute is over, a heap whose major collections paused the server for 100–300 ms and made the
        // first isolation row measure them (README, "GC"). Let them expire first.
        console.log(`waiting ${AFTER_THROUGHPUT_MS / 1000} s for the throughput rows' per-address counts to leave the window`);
        await new Promise((r) => setTimeout(r, AFTER_THROUGHPUT_MS));
      }
      const paid: LoadOptions = {
        url: `${base}/kb/${db.kbId}/query`,
        method: 'POST',
        connections: 4,
        overallRate: PAID_RATE,
        headers: { authorization: `Bearer ${db.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'When do spring tides occur?' }),
      };
      await autocannon({ ...paid, duration: 3 }); // warm the fast lane
      const floods = (process.env.BENCH_FLOODS ?? 'one-address,many-addresses,many-queries').split(',');
      // Idle and flooded rows alternate, and each flood is compared with the idle row just before it: on a shared
      // machine the idle p99 itself moves between minutes.
      for (const flood of floods) {
        isolation.push(await isolationRow(base, paid, null));
        isolation.push(await isolationRow(base, paid, flood));
        // The flood's queued requests drain and its per-address counts expire from view before the next idle row.
        await new Promise((r) => setTimeout(r, 3_000));
      }
      isolation.push(await isolationRow(base, paid, null));
      for (const [i, row] of isolation.entries()) {
        const idle = row.floodClient ? isolation[i - 1] : null;
        const ratio = idle ? ` (${(row.paid.p99 / Math.max(idle.paid.p99, 1)).toFixed(2)} × the idle p99 before it; target ≤ 2)` : '';
        if (row.paid.total === 0) {
          console.log(
            `paid /query, flood ${row.flood}: NO answer completed in ${ISOLATION_SECONDS} s (${row.paid.timeouts} timed out); health answered ${row.health.total}; flood client ${JSON.stringify(row.floodClient)}`,
          );
          continue;
        }
        console.log(
          `paid /query, flood ${row.flood}: p50 ${row.paid.p50} p99 ${row.paid.p99} max ${row.paid.max} ms${ratio}, ${row.paid.rps} req/s (${row.paid.total}), non-2xx ${row.paid.non2xx}, errors ${row.paid.errors}, timeouts ${row.paid.timeouts}; ` +
            `health p50 ${row.health.p50} p99 ${row.health.p99} ms; flood client ${JSON.stringify(row.floodClient)}`,
        );
      }
    }

    const out = {
      at: new Date().toISOString(),
      machine: `${os.cpus().length} cores, load average ${loadAtStart} at the start and ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the end, node ${process.version}`,
      app: appRoot === root ? 'this checkout' : appRoot,
      database:
        DB === 'embedded' ? `PGlite, sample marketplace (${db.published} published)` : `PostgreSQL, ${ROWS} knowledge bases (${db.published} published)`,
      settings: {
        afterThroughputMs: AFTER_THROUGHPUT_MS,
        duration: DURATION,
        slice: SLICE,
        isolationSeconds: ISOLATION_SECONDS,
        paidRate: PAID_RATE,
        floodConnections: FLOOD_CONNECTIONS,
        floodNice: FLOOD_NICE,
      },
      throughput,
      isolation,
    };
    writeFileSync(path.join(import.meta.dirname, `last-server-results-${DB}.json`), JSON.stringify(out, null, 2) + '\n');
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1_500));
    if (db.scratch) await db.scratch.drop();
    if (db.dataDir) rmSync(db.dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    for (const child of children) child.kill('SIGKILL');
    process.exit(1);
  },
);

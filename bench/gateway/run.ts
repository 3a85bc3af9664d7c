/**
 * Gateway benchmark (issue 3 §9). One run measures, on one build and one database:
 *   (a)  POST /kb/{id}/query on `npm start`'s server (scripts/serve.mjs: the gateway's fast lane) against a local
 *        instant publisher (keys, limits, metering, routing),
 *   (a2) the same request through Next's route handler (a bare `next start` of the same build: the path before the
 *        fast lane, and what `next dev` serves),
 *   (b)  GET /api/health?probe=live on `npm start`'s server, a no-I/O Next route (the framework's floor),
 *   (b2) POST /kb/{id}/query without a key on `npm start`'s server: the fast lane's own floor (401, no I/O),
 *   (c)  the publisher called directly (the backend's own cost),
 * then fires 2,000 concurrent queries at a knowledge base whose publisher takes 1 s through `npm start`'s server and
 * reports how many were answered and its peak RSS. Each row also reports the CPU per request of every process
 * involved. Postgres database created and dropped by the run; memory rate limiter.
 *
 *   NEXT_DIST_DIR=.next-bench npx next build   # once
 *   npx tsx bench/gateway/run.ts               # about two minutes
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { itemAt } from '@/lib/platform/arrays';
import { createScratchDatabase } from '../../test/support/scratch-database';
import { autocannon, autocannonRaw, mergeSlices, type LoadOptions, type RawLoadResult } from '../support/autocannon';
import { addCpu, cpuDelta, cpuPerRequest, NO_CPU, snapshotCpu, type CpuGroups, type CpuPerRequest, type CpuSnapshot } from './cpu-accounting';

const root = path.resolve(import.meta.dirname, '..', '..');
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECRET = 'fake-bench-secret-not-for-production-0123456789';
const DIST = process.env.NEXT_DIST_DIR ?? '.next-bench';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 2_000);
/**
 * How rows (a) and (b) are measured (see README, "Method"). Both measure each row for DURATION seconds at CONNECTIONS
 * connections.
 * - `interleaved` (default): the server is first warmed on both rows (2 s each, twice); then (a) and (b) alternate in
 *   slices of SLICE seconds until each has its DURATION, and each row's latencies are merged over its slices
 *   (autocannon's histograms). Both rows see the same machine: on this shared VM the speed of every process drifts by
 *   up to ±20 % between minutes (consecutive runs of one build gave 1.86 and 2.29 with the sequential method).
 * - `sequential`: the method of the results before 2026-11-22: each row once, after its own 2 s warm-up, (a) first.
 *   Row (a) was then measured while V8 was still optimising Next's own request path (--trace-opt: ~330 functions
 *   optimised and ~30 deoptimised during (a)'s measured seconds, ~50 during (b)'s), work that row (b) found done.
 */
const METHOD = process.env.BENCH_METHOD === 'sequential' ? 'sequential' : 'interleaved';
const SLICE = Number(process.env.BENCH_SLICE ?? 2);
const ROWS = {
  gateway: "(a) gateway, npm start's server (fast lane) → instant publisher",
  routeHandler: "(a2) gateway, Next's route handler (bare next start) → instant publisher",
  noop: '(b) no-op Next route (GET /api/health?probe=live)',
  laneFloor: '(b2) fast-lane floor (POST without a key → 401)',
  direct: '(c) publisher directly',
  mcp: "(d) MCP tools/call ask, npm start's server → instant publisher",
  dify: "(e) Dify retrieval, npm start's server → instant publisher",
} as const;
/** Diagnostic only (slows every row): a directory for V8 CPU profiles of `npm start`'s server (`node --cpu-prof`). */
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR;

// Configuration for the lib modules imported below (same secret as the server so it can decrypt).
Object.assign(process.env, { ALMANAC_SECRET: SECRET, ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true', LOG_LEVEL: 'warn', SEED_ON_START: 'false' });

const children: ChildProcess[] = [];
const childEnv = (vars: Record<string, string | undefined>) => vars as NodeJS.ProcessEnv;

function startProcess(args: string[], env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, { cwd: root, env: childEnv({ PATH: process.env.PATH, ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = ready.exec(line);
      if (match) resolve({ child, match });
    });
    child.stderr!.on('data', (d) => process.stderr.write(d));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

async function startPublisher(delayMs: number, infraKey: string, signingSecret: string) {
  const { child, match } = await startProcess(
    ['examples/publisher-server/server.mjs'],
    { PORT: '0', PUBLISHER_INFRA_KEY: infraKey, PUBLISHER_SIGNING_SECRET: signingSecret, PUBLISHER_DELAY_MS: String(delayMs) },
    /listening on (http:\/\/\S+)/,
  );
  return { url: `${match[1]}/query`, pid: child.pid! };
}

/** Peak resident set (VmHWM) of a process and its children, in MiB (Linux). */
function peakRssMiB(pid: number): number {
  let total = 0;
  const visit = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      total += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      const kids = readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim();
      for (const k of kids ? kids.split(/\s+/) : []) visit(Number(k));
    } catch {
      /* gone */
    }
  };
  visit(pid);
  return Math.round(total);
}

type Row = {
  name: string;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  /** Mean latency (ms, two decimals): p50s are whole milliseconds. */
  mean: number;
  non2xx: number;
  errors: number;
  total: number;
  /** CPU ms per request during the measured seconds, per process group (see cpu-accounting.ts). */
  cpuMsPerRequest: CpuPerRequest;
};

/** Measured windows on the monotonic clock (µs, the clock of V8's .cpuprofile timestamps), to cut a profile by row. */
const windows: { name: string; startUs: number; endUs: number; requests: number }[] = [];
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** One row's measured slices so far: raw autocannon results, the CPU they cost and their seconds. */
interface Measurement {
  name: string;
  opts: LoadOptions;
  /** The processes whose CPU this row is charged (its server, the publishers). */
  groups: CpuGroups;
  slices: RawLoadResult[];
  cpu: CpuSnapshot;
  seconds: number;
}

async function measureSlice(m: Measurement, seconds: number): Promise<void> {
  const before = snapshotCpu(m.groups);
  const startUs = monotonicUs();
  const r = await autocannonRaw({ ...m.opts, duration: seconds, skipAggregateResult: true });
  windows.push({ name: m.name, startUs, endUs: monotonicUs(), requests: r.totalCompletedRequests });
  m.cpu = addCpu(m.cpu, cpuDelta(before, snapshotCpu(m.groups)));
  m.slices.push(r);
  m.seconds += seconds;
}

function toRow(m: Measurement): Row {
  const merged = mergeSlices(m.slices, m.opts, m.seconds);
  return { name: m.name, ...merged, cpuMsPerRequest: cpuPerRequest(m.cpu, merged.total) };
}

const measurement = (name: string, opts: LoadOptions, groups: CpuGroups): Measurement => ({ name, opts, groups, slices: [], cpu: NO_CPU, seconds: 0 });
const warmUp = (opts: LoadOptions) => autocannon({ ...opts, duration: 2 });

/** The server rows by METHOD; see its comment. */
async function measureServerRows(rows: Measurement[]): Promise<void> {
  if (METHOD === 'sequential') {
    for (const m of rows) {
      await warmUp(m.opts);
      await measureSlice(m, DURATION);
    }
    return;
  }
  for (let i = 0; i < 2; i++) for (const m of rows) await warmUp(m.opts);
  while (itemAt(rows, 0).seconds < DURATION) {
    for (const m of rows) await measureSlice(m, Math.min(SLICE, DURATION - m.seconds));
  }
}

/**
 * A port the system just handed out (ephemeral range): a random pick in 4000–5999 sometimes hit a port Next refuses
 * to serve on (4045, on the browsers' unsafe-port list), failing the run.
 */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function main() {
  if (!existsSync(path.join(root, DIST, 'BUILD_ID'))) throw new Error(`no build in ${DIST}: run NEXT_DIST_DIR=${DIST} npx next build first`);
  const scratch = await createScratchDatabase(`almanac_bench_${Math.random().toString(36).slice(2, 10)}`, ADMIN_URL);
  const dbUrl = scratch.url;
  process.env.DATABASE_URL = dbUrl;
  try {
    // Lazy imports: the lib reads the configuration set above.
    const { openPostgres } = await import('@/db/client');
    const { prepareDatabase, useDatabase } = await import('@/lib/platform/db');
    const fixtures = await import('../../test/support/gateway-fixtures');
    const handle = await openPostgres(dbUrl, 4);
    await prepareDatabase(handle);
    useDatabase(handle);

    const infraKey = 'bench_infra_key_0123456789abcdef';
    const signingSecret = 'bench_signing_secret_0123456789abcdef0123';
    const [instant, slow] = await Promise.all([startPublisher(0, infraKey, signingSecret), startPublisher(1_000, infraKey, signingSecret)]);
    const [instantUrl, slowUrl] = [instant.url, slow.url];
    const pub = await fixtures.createPublisher(handle.db);
    const fastKb = await fixtures.createHttpKnowledgeBase(handle.db, pub, { endpointUrl: instantUrl, infraKey, signingSecret, timeoutMs: 30_000 });
    const slowKb = await fixtures.createHttpKnowledgeBase(handle.db, pub, { endpointUrl: slowUrl, infraKey, signingSecret, timeoutMs: 30_000 });
    const fastKey = await fixtures.buyKey(handle.db, fastKb, { cap: 100_000_000, perMinute: 100_000_000 });
    const slowKey = await fixtures.buyKey(handle.db, slowKb, { cap: 100_000_000, perMinute: 100_000_000 });
    await handle.close();

    const serverEnv = {
      NODE_ENV: 'production',
      NEXT_DIST_DIR: DIST,
      NEXT_TELEMETRY_DISABLED: '1',
      DATABASE_URL: dbUrl,
      DATABASE_POOL_MAX: '20',
      SEED_ON_START: 'false',
      ALMANAC_SECRET: SECRET,
      ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true',
      LOG_LEVEL: 'warn',
    };
    // Two servers of the same build on the same database: `npm start`'s (scripts/serve.mjs, the gateway on its fast
    // lane) and a bare `next start` (the gateway through Next's route handler, as before the fast lane).
    const startServer = async (script: string[], profile: boolean) => {
      const port = await freePort();
      const { child } = await startProcess(
        [...(profile && CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(CPU_PROF_DIR)}`] : []), ...script, '-p', String(port), '-H', '127.0.0.1'],
        // A real deployment (DATABASE_URL in production) must name its public address.
        { ...serverEnv, APP_URL: `http://127.0.0.1:${port}` },
        /Ready in|ready on/i,
      );
      const base = `http://127.0.0.1:${port}`;
      // The first request waits for instrumentation (database open; on serve.mjs, the fast lane registered).
      for (let i = 0; i < 50; i++) {
        const ok = await fetch(`${base}/api/health`)
          .then((r) => r.ok)
          .catch(() => false);
        if (ok) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      return { child, base };
    };
    const app = await startServer([path.join(root, 'scripts/serve.mjs')], true);
    const nextOnly = await startServer([path.join(root, 'node_modules/next/dist/bin/next'), 'start'], false);

    const query = JSON.stringify({ query: 'When do spring tides occur?' });
    const gatewayOpts = (base: string) => ({
      url: `${base}/kb/${fastKb}/query`,
      method: 'POST' as const,
      connections: CONNECTIONS,
      headers: { authorization: `Bearer ${fastKey.key}`, 'content-type': 'application/json' },
      body: query,
    });
    const directBody = JSON.stringify({ query: 'When do spring tides occur?', kb_id: fastKb, request_id: 'req_bench' });
    const t = Math.floor(Date.now() / 1000);
    const directOpts = {
      url: instantUrl,
      method: 'POST' as const,
      connections: CONNECTIONS,
      headers: {
        authorization: `Bearer ${infraKey}`,
        'content-type': 'application/json',
        'almanac-signature': `t=${t},v1=${createHmac('sha256', signingSecret).update(`${t}.${directBody}`).digest('hex')}`,
      },
      body: directBody,
    };

    const on = (server: ChildProcess): CpuGroups => ({ server: server.pid!, publisher: [instant.pid] });
    const gateway = measurement(ROWS.gateway, gatewayOpts(app.base), on(app.child));
    const routeHandler = measurement(ROWS.routeHandler, gatewayOpts(nextOnly.base), on(nextOnly.child));
    const noop = measurement(ROWS.noop, { url: `${app.base}/api/health?probe=live`, connections: CONNECTIONS }, on(app.child));
    const laneFloor = measurement(ROWS.laneFloor, { ...gatewayOpts(app.base), headers: { 'content-type': 'application/json' } }, on(app.child));
    const direct = measurement(ROWS.direct, directOpts, on(app.child));
    // The agent faces on the same backend: one MCP tool call (stateless, so no session set-up) and one Dify retrieval.
    const mcpCall = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'ask', arguments: { query: 'When do spring tides occur?' } },
    });
    const mcp = measurement(
      ROWS.mcp,
      {
        url: `${app.base}/kb/${fastKb}/mcp`,
        method: 'POST' as const,
        connections: CONNECTIONS,
        headers: {
          authorization: `Bearer ${fastKey.key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: mcpCall,
      },
      on(app.child),
    );
    const dify = measurement(
      ROWS.dify,
      {
        url: `${app.base}/dify/retrieval`,
        method: 'POST' as const,
        connections: CONNECTIONS,
        headers: { authorization: `Bearer ${fastKey.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ knowledge_id: fastKb, query: 'When do spring tides occur?', retrieval_setting: { top_k: 3, score_threshold: 0 } }),
      },
      on(app.child),
    );
    await measureServerRows([gateway, routeHandler, noop, laneFloor, mcp, dify]);
    await warmUp(direct.opts);
    await measureSlice(direct, DURATION);
    const [rowGateway, rowRouteHandler, rowNoop, rowLaneFloor, rowDirect, rowMcp, rowDify] = [
      toRow(gateway),
      toRow(routeHandler),
      toRow(noop),
      toRow(laneFloor),
      toRow(direct),
      toRow(mcp),
      toRow(dify),
    ];
    const rows = [rowGateway, rowRouteHandler, rowNoop, rowLaneFloor, rowDirect, rowMcp, rowDify];
    nextOnly.child.kill('SIGTERM');

    // 2,000 concurrent in-flight queries against a 1 s publisher.
    const started = Date.now();
    const burst = await autocannon({
      url: `${app.base}/kb/${slowKb}/query`,
      method: 'POST',
      connections: BURST,
      amount: BURST,
      timeout: 60,
      headers: { authorization: `Bearer ${slowKey.key}`, 'content-type': 'application/json' },
      body: query,
    });
    const burstSeconds = (Date.now() - started) / 1000;
    const peak = peakRssMiB(app.child.pid!);

    // p50s are whole milliseconds: a floor whose p50 rounds to 0 has no p50 ratio (null), only mean and CPU ratios.
    const ratio = (a: Row, b: Row) => ({
      p50: b.p50 > 0 ? Number((a.p50 / b.p50).toFixed(2)) : null,
      mean: Number((a.mean / b.mean).toFixed(2)),
      serverCpu: Number((a.cpuMsPerRequest.server / b.cpuMsPerRequest.server).toFixed(2)),
    });
    const result = {
      at: new Date().toISOString(),
      machine: `${process.platform} ${process.arch}, node ${process.version}`,
      settings: {
        method: METHOD,
        sliceSeconds: METHOD === 'interleaved' ? SLICE : DURATION,
        durationSeconds: DURATION,
        connections: CONNECTIONS,
        rateLimiter: 'memory',
        database: 'postgres',
      },
      rows,
      ratios: {
        gatewayVsNoop: ratio(rowGateway, rowNoop),
        routeHandlerVsNoop: ratio(rowRouteHandler, rowNoop),
        gatewayVsLaneFloor: ratio(rowGateway, rowLaneFloor),
        mcpVsGateway: ratio(rowMcp, rowGateway),
        difyVsGateway: ratio(rowDify, rowGateway),
      },
      burst: {
        requests: BURST,
        answered200: burst['2xx'],
        non2xx: burst.non2xx,
        errors: burst.errors,
        timeouts: burst.timeouts,
        seconds: burstSeconds,
        peakRssMiB: peak,
      },
    };
    console.table(rows.map(({ cpuMsPerRequest, ...row }) => row));
    console.log('CPU ms per request (measured seconds only):');
    console.table(Object.fromEntries(rows.map((row) => [row.name, row.cpuMsPerRequest])));
    const show = (r: ReturnType<typeof ratio>) => `p50 ${r.p50 ?? 'n/a'}×, mean ${r.mean}×, server CPU per request ${r.serverCpu}×`;
    console.log(`(a) gateway on npm start's server / (b) no-op Next route: ${show(result.ratios.gatewayVsNoop)} (target: p50 ≤ 1.5×)`);
    console.log(`(a2) gateway through Next's route handler / (b) no-op Next route: ${show(result.ratios.routeHandlerVsNoop)}`);
    console.log(`(a) gateway / (b2) the fast lane's own floor: ${show(result.ratios.gatewayVsLaneFloor)}`);
    console.log(`(d) MCP ask / (a) /query on the same backend: ${show(result.ratios.mcpVsGateway)} (target: p50 ≤ 1.5×)`);
    console.log(`(e) Dify retrieval / (a) /query on the same backend: ${show(result.ratios.difyVsGateway)} (target: p50 ≤ 1.5×)`);
    console.log(
      `burst: ${burst['2xx']}/${BURST} answered 200 in ${burstSeconds.toFixed(1)} s; non-2xx ${burst.non2xx}, errors ${burst.errors}; peak RSS ${peak} MiB`,
    );
    writeFileSync(path.join(import.meta.dirname, 'last-results.json'), JSON.stringify(result, null, 2) + '\n');
    if (CPU_PROF_DIR) writeFileSync(path.join(CPU_PROF_DIR, 'windows.json'), JSON.stringify(windows, null, 2) + '\n');
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1_500));
    await scratch.drop();
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

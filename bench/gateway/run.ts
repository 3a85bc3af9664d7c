/**
 * Gateway benchmark (issue 3 §9). One run measures, on the same `next start` server:
 *   (a) POST /kb/{id}/query against a local instant publisher (keys, limits, metering, routing),
 *   (b) GET /api/health?probe=live, a no-I/O route in the same app (the framework's floor),
 *   (c) the publisher called directly (the backend's own cost),
 * then fires 2,000 concurrent queries at a knowledge base whose publisher takes 1 s and reports how many were
 * answered and the server's peak RSS. Postgres database created and dropped by the run; memory rate limiter.
 *
 *   NEXT_DIST_DIR=.next-bench npx next build   # once
 *   npx tsx bench/gateway/run.ts               # about 2 minutes
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
// @ts-expect-error autocannon ships no type declarations
import autocannonModule from 'autocannon';
import { createScratchDatabase } from '../../test/support/scratch-database';

const root = path.resolve(import.meta.dirname, '..', '..');
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECRET = 'fake-bench-secret-not-for-production-0123456789';
const DIST = process.env.NEXT_DIST_DIR ?? '.next-bench';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 2_000);
const APP_PORT = 3000 + Math.floor(Math.random() * 2000) + 1000;

// Configuration for the lib modules imported below (same secret as the server so it can decrypt).
Object.assign(process.env, { ALMANAC_SECRET: SECRET, ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true', LOG_LEVEL: 'warn', SEED_ON_START: 'false' });

interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  connections: number;
  duration?: number;
  amount?: number;
  timeout?: number;
  headers?: Record<string, string>;
  body?: string;
}
interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}
const autocannon = autocannonModule as (options: LoadOptions) => Promise<LoadResult>;

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
  const { match } = await startProcess(
    ['examples/publisher-server/server.mjs'],
    { PORT: '0', PUBLISHER_INFRA_KEY: infraKey, PUBLISHER_SIGNING_SECRET: signingSecret, PUBLISHER_DELAY_MS: String(delayMs) },
    /listening on (http:\/\/\S+)/,
  );
  return `${match[1]}/query`;
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

type Row = { name: string; rps: number; p50: number; p90: number; p99: number; non2xx: number; errors: number; total: number };

async function load(name: string, opts: LoadOptions): Promise<Row> {
  await autocannon({ ...opts, duration: 2 }); // warm-up (JIT, pools, caches)
  const r = await autocannon({ ...opts, duration: DURATION });
  return { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, total: r.requests.total };
}

async function main() {
  if (!existsSync(path.join(root, DIST, 'BUILD_ID'))) throw new Error(`no build in ${DIST}: run NEXT_DIST_DIR=${DIST} npx next build first`);
  const scratch = await createScratchDatabase(`almanac_bench_${Math.random().toString(36).slice(2, 10)}`, ADMIN_URL);
  const dbUrl = scratch.url;
  process.env.DATABASE_URL = dbUrl;
  try {
    // Lazy imports: the lib reads the configuration set above.
    const { openPostgres } = await import('@/db/client');
    const { prepareDatabase, useDatabase } = await import('@/lib/db');
    const fixtures = await import('../../test/support/gateway-fixtures');
    const handle = await openPostgres(dbUrl, 4);
    await prepareDatabase(handle, { seed: false });
    useDatabase(handle);

    const infraKey = 'bench_infra_key_0123456789abcdef';
    const signingSecret = 'bench_signing_secret_0123456789abcdef0123';
    const [instantUrl, slowUrl] = await Promise.all([startPublisher(0, infraKey, signingSecret), startPublisher(1_000, infraKey, signingSecret)]);
    const pub = await fixtures.createPublisher(handle.db);
    const fastKb = await fixtures.createHttpKnowledgeBase(handle.db, pub, { endpointUrl: instantUrl, infraKey, signingSecret, timeoutMs: 30_000 });
    const slowKb = await fixtures.createHttpKnowledgeBase(handle.db, pub, { endpointUrl: slowUrl, infraKey, signingSecret, timeoutMs: 30_000 });
    const fastKey = await fixtures.buyKey(handle.db, fastKb, { cap: 100_000_000, perMinute: 100_000_000 });
    const slowKey = await fixtures.buyKey(handle.db, slowKb, { cap: 100_000_000, perMinute: 100_000_000 });
    await handle.close();

    const { child: app } = await startProcess(
      [path.join(root, 'node_modules/next/dist/bin/next'), 'start', '-p', String(APP_PORT), '-H', '127.0.0.1'],
      {
        NODE_ENV: 'production',
        NEXT_DIST_DIR: DIST,
        NEXT_TELEMETRY_DISABLED: '1',
        DATABASE_URL: dbUrl,
        DATABASE_POOL_MAX: '20',
        SEED_ON_START: 'false',
        ALMANAC_SECRET: SECRET,
        ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true',
        LOG_LEVEL: 'warn',
      },
      /Ready in|started server|Local:/i,
    );
    const base = `http://127.0.0.1:${APP_PORT}`;
    // First request opens the database (instrumentation already migrated it).
    for (let i = 0; i < 50; i++) {
      const ok = await fetch(`${base}/api/health`).then((r) => r.ok).catch(() => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 200));
    }

    const query = JSON.stringify({ query: 'When do spring tides occur?' });
    const gatewayOpts = {
      url: `${base}/kb/${fastKb}/query`,
      method: 'POST' as const,
      connections: CONNECTIONS,
      headers: { authorization: `Bearer ${fastKey.key}`, 'content-type': 'application/json' },
      body: query,
    };
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

    const rows: Row[] = [];
    rows.push(await load('(a) gateway → instant publisher', gatewayOpts));
    rows.push(await load('(b) no-op route (GET /api/health?probe=live)', { url: `${base}/api/health?probe=live`, connections: CONNECTIONS }));
    rows.push(await load('(c) publisher directly', directOpts));

    // 2,000 concurrent in-flight queries against a 1 s publisher.
    const started = Date.now();
    const burst = await autocannon({
      url: `${base}/kb/${slowKb}/query`,
      method: 'POST',
      connections: BURST,
      amount: BURST,
      timeout: 60,
      headers: { authorization: `Bearer ${slowKey.key}`, 'content-type': 'application/json' },
      body: query,
    });
    const burstSeconds = (Date.now() - started) / 1000;
    const peak = peakRssMiB(app.pid!);

    const ratio = rows[0].p50 / Math.max(rows[1].p50, 0.001);
    const result = {
      at: new Date().toISOString(),
      machine: `${process.platform} ${process.arch}, node ${process.version}`,
      settings: { durationSeconds: DURATION, connections: CONNECTIONS, rateLimiter: 'memory', database: 'postgres' },
      rows,
      gatewayVsNoopP50: Number(ratio.toFixed(2)),
      burst: { requests: BURST, answered200: burst['2xx'], non2xx: burst.non2xx, errors: burst.errors, timeouts: burst.timeouts, seconds: burstSeconds, peakRssMiB: peak },
    };
    console.table(rows);
    console.log(`gateway p50 / no-op p50 = ${result.gatewayVsNoopP50} (target ≤ 1.5)`);
    console.log(`burst: ${burst['2xx']}/${BURST} answered 200 in ${burstSeconds.toFixed(1)} s; non-2xx ${burst.non2xx}, errors ${burst.errors}; peak RSS ${peak} MiB`);
    writeFileSync(path.join(import.meta.dirname, 'last-results.json'), JSON.stringify(result, null, 2) + '\n');
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

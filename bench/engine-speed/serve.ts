/**
 * Hosted answers through `npm start`'s server (scripts/serve.mjs: the gateway's fast lane, then the built-in
 * engine), at 10 connections, next to the no-op Next route (GET /api/health?probe=live) on the same server in the
 * same run, on the embedded PGlite and on the PostgreSQL server.
 *
 *   NEXT_SKIP_TYPECHECK=1 NEXT_DIST_DIR=.next-engine npx next build    # once, after any change to lib/
 *   npx tsx bench/engine-speed/serve.ts [--seconds 10] [--rounds 2] [--only pglite|postgres]
 *
 * Each database is migrated and seeded with the sample marketplace before its server starts (SEED_ON_START=false
 * for the server), and a key with no practical cap or rate limit is bought for the U.S. Constitution Companion.
 * The hosted row cycles through the knowledge base's questions of the evaluation set (every answer is checked to
 * be a 200 with a citation before the run). The two rows alternate, `--rounds` slices of `--seconds` each, so both
 * see the same machine; latencies and throughput are merged over the slices.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
// @ts-expect-error autocannon ships no type declarations
import autocannonModule from 'autocannon';
import { openPglite, openPostgres, type DatabaseHandle } from '@/db/client';
import { prepareDatabase } from '@/lib/platform/db';
import { seedMarketplace } from '@/lib/seed';
import { createScratchDatabase } from '../../test/support/scratch-database';
import { buyKey } from '../../test/support/gateway-fixtures';
import { loadEvaluationSet } from '../engine-quality/evaluation-set';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, rounds: { type: 'string', default: '2' }, only: { type: 'string' } } });
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = 10;
const DIST = process.env.NEXT_DIST_DIR ?? '.next-engine';
const SECRET = 'fake-bench-secret-not-for-production-0123456789';
const root = path.resolve(import.meta.dirname, '..', '..');
const KB_SLUG = 'us-constitution-companion';

interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p97_5: number; p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<LoadResult>;
const autocannon = autocannonModule as Autocannon;

const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function startServer(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(root, 'scripts/serve.mjs'), '-p', String(port), '-H', '127.0.0.1'], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (/Ready in|ready on/i.test(line)) resolve(child);
    });
    child.stderr!.on('data', (d) => process.stderr.write(d));
    child.once('exit', (code) => reject(new Error(`serve.mjs exited with ${code}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** Seeds the database, buys the key; returns what the load needs. */
async function prepare(handle: DatabaseHandle): Promise<{ kbId: string; key: string }> {
  await prepareDatabase(handle, { seed: seedMarketplace });
  const [kb] = (await handle.db.execute(sql`select id from knowledge_bases where slug = ${KB_SLUG}`)).rows as Array<{ id: string }>;
  if (!kb) throw new Error(`the seeded marketplace has no knowledge base ${KB_SLUG}`);
  const bought = await buyKey(handle.db, kb.id, { cap: 100_000_000, perMinute: 100_000_000 });
  return { kbId: kb.id, key: bought.key };
}

const merge = (slices: LoadResult[]) => {
  const total = slices.reduce((n, s) => n + s.requests.total, 0);
  const avg = (f: (s: LoadResult) => number) => slices.reduce((n, s) => n + f(s) * s.requests.total, 0) / Math.max(1, total);
  return {
    rps: slices.reduce((n, s) => n + s.requests.average, 0) / slices.length,
    p50: avg((s) => s.latency.p50),
    p975: avg((s) => s.latency.p97_5),
    p99: Math.max(...slices.map((s) => s.latency.p99)),
    bad: slices.reduce((n, s) => n + s.non2xx + s.errors, 0),
    total,
  };
};

async function measure(kind: 'pglite' | 'postgres'): Promise<string[]> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let dataDir: string | undefined;
  let dropScratch: (() => Promise<void>) | undefined;
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    NEXT_DIST_DIR: DIST,
    NEXT_TELEMETRY_DISABLED: '1',
    SEED_ON_START: 'false',
    ALMANAC_SECRET: SECRET,
    APP_URL: base,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
  };
  let prepared: { kbId: string; key: string };
  if (kind === 'pglite') {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'almanac-engine-serve-'));
    const handle = await openPglite(path.join(dataDir, 'pglite'));
    prepared = await prepare(handle);
    await handle.close();
    env.DATA_DIR = dataDir;
  } else {
    const scratch = await createScratchDatabase(`almanac_bench_serve_${Math.random().toString(36).slice(2, 10)}`);
    dropScratch = scratch.drop;
    const handle = await openPostgres(scratch.url, 4);
    prepared = await prepare(handle);
    await handle.close();
    env.DATABASE_URL = scratch.url;
    env.DATABASE_POOL_MAX = '20';
  }
  const child = await startServer(env, port);
  try {
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${base}/api/health`)
          .then((r) => r.ok)
          .catch(() => false)
      )
        break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const questions = loadEvaluationSet()
      .filter((q) => q.kb === KB_SLUG)
      .map((q) => q.question);
    const headers = { authorization: `Bearer ${prepared.key}`, 'content-type': 'application/json' };
    // Every question is answered with a citation through the server before the load starts.
    let cited = 0;
    for (const q of questions) {
      const r = await fetch(`${base}/kb/${prepared.kbId}/query`, { method: 'POST', headers, body: JSON.stringify({ query: q }) });
      const body = (await r.json()) as { citations?: unknown[] };
      if (r.status === 200 && (body.citations?.length ?? 0) > 0) cited++;
    }
    const hosted = {
      url: `${base}/kb/${prepared.kbId}/query`,
      connections: CONNECTIONS,
      requests: questions.map((q) => ({ method: 'POST', headers, body: JSON.stringify({ query: q }) })),
    };
    const noop = { url: `${base}/api/health?probe=live`, connections: CONNECTIONS };
    await autocannon({ ...hosted, duration: 2 });
    await autocannon({ ...noop, duration: 2 });
    const h: LoadResult[] = [];
    const n: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      n.push(await autocannon({ ...noop, duration: SECONDS }));
      h.push(await autocannon({ ...hosted, duration: SECONDS }));
    }
    const a = merge(h);
    const b = merge(n);
    const label = kind === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL server';
    return [
      `| ${label}: hosted answer, POST /kb/{id}/query (${questions.length} questions in turn; ${cited}/${questions.length} cited) | ${a.rps.toFixed(0)} | ${a.p50.toFixed(1)} | ${a.p975.toFixed(1)} | ${a.p99.toFixed(0)} | ${a.bad} of ${a.total} | ${(a.rps / b.rps).toFixed(2)}× |`,
      `| ${label}: no-op Next route, GET /api/health?probe=live | ${b.rps.toFixed(0)} | ${b.p50.toFixed(1)} | ${b.p975.toFixed(1)} | ${b.p99.toFixed(0)} | ${b.bad} of ${b.total} | 1.00× |`,
    ];
  } finally {
    await stop(child);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await dropScratch?.();
  }
}

async function main() {
  if (!existsSync(path.join(root, DIST, 'BUILD_ID')))
    throw new Error(`no build in ${DIST}: run NEXT_SKIP_TYPECHECK=1 NEXT_DIST_DIR=${DIST} npx next build first`);
  const kinds = (values.only ? [values.only] : ['pglite', 'postgres']) as Array<'pglite' | 'postgres'>;
  const lines: string[] = [];
  for (const kind of kinds) lines.push(...(await measure(kind)));
  console.log(
    `engine-speed/serve: ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s per row, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}`,
  );
  console.log('');
  console.log('| row | requests/s | p50 ms | p97.5 ms | p99 ms | non-2xx or errors | throughput vs no-op |');
  console.log('|---|---|---|---|---|---|---|');
  for (const l of lines) console.log(l);
}

try {
  await main();
} finally {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
}

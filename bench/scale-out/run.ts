/**
 * Two-instance benchmark (issue 30 §5). One run, one build, one PostgreSQL database and one Redis, as compose.yaml
 * deploys Almanac: two instances of `npm run build`'s build (e2e/support/fleet.mjs, as the Playwright project
 * `scale-out` starts them) and two round-robin proxies in processes of their own, one in front of app1 alone and one
 * alternating between app1 and app2. Every figure is measured through both proxies, so the proxy's own cost is the
 * same on both sides of each ratio:
 *   - throughput: POST /kb/{id}/query against a local instant publisher, BUYERS keys in turn, CONNECTIONS connections
 *     (and one instance at half of them, see ThroughputRow), the rows alternating in slices of SLICE seconds until
 *     each has DURATION seconds: answered queries per second, latency p50/p99, CPU of the instances per answered query;
 *   - exact caps: CONCURRENT simultaneous queries with a key whose plan allows CAP (< CONCURRENT): exactly CAP
 *     answered, the rest 429 `query_cap_exceeded`, and every instance's GET /kb/{id}/usage says CAP used;
 *   - revocation: a key in use on every instance is revoked (the store's revokeKey, as the revoke page does; instances
 *     exchange no message, so where the write comes from makes no difference), then the time until each instance
 *     refuses it (403 `key_revoked`), REVOCATIONS times per set-up.
 *
 *   npm run build                                              # once: the build `npm start` serves (CI's build)
 *   node_modules/.bin/node --import tsx bench/scale-out/run.ts  # about 100 s on Node 24, which the instances inherit
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { freePort, migrate, startInstance, stopInstances, waitReady, type Instance } from '../../e2e/support/fleet.mjs';
import { buildState } from '../../scripts/build-stamp.mjs';
import type { BoughtKey, RunningPublisher } from '../../test/support/gateway-fixtures';
import { createScratchDatabase } from '../../test/support/scratch-database';
import { addCpu, cpuDelta, cpuPerRequest, NO_CPU, snapshotCpu, type CpuGroups, type CpuSnapshot } from '../gateway/cpu-accounting';
import { autocannon, autocannonRaw, mergeSlices, type LoadOptions, type RawLoadResult } from '../support/autocannon';

const root = path.resolve(import.meta.dirname, '..', '..');
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECRET = 'fake-bench-secret-not-for-production-0123456789';
const DURATION = Number(process.env.BENCH_DURATION ?? 16);
const SLICE = Number(process.env.BENCH_SLICE ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const BUYERS = Number(process.env.BENCH_BUYERS ?? 20);
const CAP = 100;
const CONCURRENT = 200;
const REVOCATIONS = Number(process.env.BENCH_REVOCATIONS ?? 5);
const QUESTION = JSON.stringify({ query: 'When do spring tides occur?' });
const tag = randomBytes(4).toString('hex');
const RATE_LIMIT_PREFIX = `almanac:bench-scale-out-${tag}:rl`;

// Configuration for the lib modules imported below (the instances' secret, so they can decrypt the publisher's keys).
Object.assign(process.env, { ALMANAC_SECRET: SECRET, ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true', LOG_LEVEL: 'warn', SEED_ON_START: 'false' });

const started = Date.now();
const say = (message: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${message}`);
const loadAverage = () => os.loadavg().map((l) => Number(l.toFixed(2)));

/** One set-up under test: a proxy and the instances behind it. */
interface Setup {
  name: 'one' | 'two';
  base: string;
  instances: Instance[];
}

const proxies: ChildProcess[] = [];

async function startProxyProcess(port: number, upstreams: Instance[]): Promise<string> {
  const args = [path.join(import.meta.dirname, 'proxy.mjs'), String(port), ...upstreams.map((u) => `${u.name}=${u.port}`)];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  proxies.push(child);
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => line.startsWith('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`the proxy exited with ${code}`)));
  });
  return `http://127.0.0.1:${port}`;
}

/**
 * A throughput row: a set-up at a number of connections. Besides one and two at CONNECTIONS, one instance at half of
 * them: the load each instance of two gets, which tells what the split itself costs per instance from what two
 * processes sharing the machine cost.
 */
interface ThroughputRow {
  row: 'one' | 'one, half the connections' | 'two';
  setup: Setup;
  connections: number;
}

/** Throughput of the rows, interleaved in slices so that both see the same (shared, drifting) machine. */
async function measureThroughput(loads: ThroughputRow[], fleet: Instance[], kbId: string, keys: BoughtKey[], publisher: RunningPublisher) {
  const rows = loads.map(({ row: name, setup, connections }) => {
    let turn = 0;
    const nextKey = () => keys[turn++ % keys.length]?.key;
    const opts: LoadOptions = {
      url: `${setup.base}/kb/${kbId}/query`,
      method: 'POST',
      connections,
      headers: { 'content-type': 'application/json' },
      body: QUESTION,
      // Many buyers, as a fleet serves: each request takes the next key.
      requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, authorization: `Bearer ${nextKey()}` } }) }],
    };
    const groups: CpuGroups = { server: setup.instances.map((i) => i.child.pid!), publisher: [publisher.pid] };
    // The instances this row sends nothing to: their CPU meanwhile is what an idle instance costs (timers, job polls).
    const idle: CpuGroups = { server: fleet.filter((i) => !setup.instances.includes(i)).map((i) => i.child.pid!), publisher: [] };
    const each = setup.instances.map((i) => ({ name: i.name, group: { server: i.child.pid!, publisher: [] } as CpuGroups, ms: 0 }));
    return { name, opts, groups, idle, idleMs: 0, each, slices: [] as RawLoadResult[], cpu: NO_CPU as CpuSnapshot, seconds: 0 };
  });
  for (let i = 0; i < 2; i++) for (const row of rows) await autocannon({ ...row.opts, duration: 2 });
  while (rows.some((row) => row.seconds < DURATION)) {
    for (const row of rows) {
      const seconds = Math.min(SLICE, DURATION - row.seconds);
      const [before, idleBefore, eachBefore] = [snapshotCpu(row.groups), snapshotCpu(row.idle), row.each.map((e) => snapshotCpu(e.group))];
      row.slices.push(await autocannonRaw({ ...row.opts, duration: seconds, skipAggregateResult: true }));
      row.cpu = addCpu(row.cpu, cpuDelta(before, snapshotCpu(row.groups)));
      row.idleMs += cpuDelta(idleBefore, snapshotCpu(row.idle)).server;
      row.each.forEach((e, i) => (e.ms += snapshotCpu(e.group).server - (eachBefore[i]?.server ?? NaN)));
      row.seconds += seconds;
    }
  }
  return rows.map((row) => {
    const merged = mergeSlices(row.slices, row.opts, row.seconds);
    const cpu = cpuPerRequest(row.cpu, merged.total);
    return {
      row: row.name,
      connections: row.opts.connections,
      ...merged,
      // PostgreSQL's CPU is not reported: cpu-accounting reads every postgres process of the machine, which here are
      // other sessions' too.
      instanceCpuMsPerQuery: cpu.server,
      idleInstanceCpuMsPerSecond: [row.idle.server].flat().length ? Math.round(row.idleMs / row.seconds) : null,
      // The proxy alternates strictly, so each instance answered its share of the queries.
      cpuMsPerQueryByInstance: Object.fromEntries(row.each.map((e) => [e.name, Number((e.ms / (merged.total / row.each.length)).toFixed(3))])),
    };
  });
}

interface Answer {
  status: number;
  instance: string | null;
  error?: string;
  citations?: unknown[];
}

const query = (base: string, kbId: string, key: string): Promise<Answer> =>
  fetch(`${base}/kb/${kbId}/query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: QUESTION,
  }).then(async (r) => ({ status: r.status, instance: r.headers.get('x-almanac-instance'), ...((await r.json()) as object) }));

/** CONCURRENT queries at once with a key whose cap is CAP, then the count every instance reports. */
async function measureCap(setup: Setup, kbId: string, key: BoughtKey) {
  const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => query(setup.base, kbId, key.key)));
  const answered = answers.filter((a) => a.status === 200 && (a.citations?.length ?? 0) > 0);
  const capRefused = answers.filter((a) => a.status === 429 && a.error === 'query_cap_exceeded');
  const perInstance = Object.fromEntries(setup.instances.map((i) => [i.name, answers.filter((a) => a.instance === i.name).length]));
  const usedByInstance = Object.fromEntries(
    await Promise.all(
      setup.instances.map(async (i) => {
        const r = await fetch(`http://127.0.0.1:${i.port}/kb/${kbId}/usage`, { headers: { authorization: `Bearer ${key.key}` } });
        return [i.name, ((await r.json()) as { used: number }).used] as const;
      }),
    ),
  );
  const exact = answered.length === CAP && capRefused.length === CONCURRENT - CAP && Object.values(usedByInstance).every((used) => used === CAP);
  return {
    setup: setup.name,
    cap: CAP,
    concurrent: CONCURRENT,
    answered: answered.length,
    capRefused: capRefused.length,
    other: CONCURRENT - answered.length - capRefused.length,
    requestsPerInstance: perInstance,
    usedByInstance,
    exact,
  };
}

/**
 * Revokes a key that every instance of the set-up is answering (each instance queried directly, back to back, so
 * each holds the key's record in its cache), and times, from the start of the revocation, until each refuses it.
 */
async function measureRevocation(setup: Setup, kbId: string, key: BoughtKey, revoke: (key: BoughtKey) => Promise<void>) {
  let revokedAt = 0;
  const refusedAfter: Record<string, number> = {};
  const pollers = Promise.all(
    setup.instances.map(async (instance) => {
      const base = `http://127.0.0.1:${instance.port}`;
      for (;;) {
        const answer = await query(base, kbId, key.key);
        if (answer.status === 403 && answer.error === 'key_revoked') {
          refusedAfter[instance.name] = performance.now() - revokedAt;
          return;
        }
        if (answer.status !== 200) throw new Error(`${instance.name} answered ${answer.status} ${answer.error} before it refused the revoked key`);
        if (revokedAt && performance.now() - revokedAt > 30_000) throw new Error(`${instance.name} still answers a key revoked 30 s ago`);
      }
    }),
  );
  // At a random moment within a cache period (500 ms), so the trials sample where a revocation falls in it.
  await Promise.race([pollers, new Promise((resolve) => setTimeout(resolve, 1_000 + Math.random() * 500))]);
  revokedAt = performance.now();
  await revoke(key);
  await pollers;
  return { everyInstanceMs: Math.max(...Object.values(refusedAfter)), byInstance: refusedAfter };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted.at(mid) ?? NaN) : ((sorted.at(mid - 1) ?? NaN) + (sorted.at(mid) ?? NaN)) / 2;
};
const ratio = (two: number, one: number) => (one > 0 ? Number((two / one).toFixed(2)) : null);
const ms = (x: number) => Number(x.toFixed(1));

async function main() {
  if (buildState() !== 'current') throw new Error('no current build of these sources: run `npm run build` first (the instances serve it)');
  const loadAtStart = loadAverage();
  const scratch = await createScratchDatabase(`almanac_bench_scale_${tag}`, ADMIN_URL);
  const instances: Instance[] = [];
  // The instances' logs: removed after a run that succeeded, kept (and named) after one that failed.
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'almanac-bench-scale-out-'));
  let publisher: RunningPublisher | undefined;
  let stopping = false;
  let succeeded = false;
  const cleanUp = async () => {
    stopping = true;
    for (const proxy of proxies) proxy.kill('SIGTERM');
    await stopInstances(instances);
    await publisher?.stop();
    await scratch.drop();
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      for await (const keys of redis.scanStream({ match: `${RATE_LIMIT_PREFIX}*`, count: 1_000 }) as AsyncIterable<string[]>) {
        if (keys.length) await redis.del(...keys);
      }
    } finally {
      redis.disconnect();
    }
    if (succeeded) rmSync(logDir, { recursive: true, force: true });
    else console.error(`The instances' logs are in ${logDir}.`);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
  try {
    process.env.DATABASE_URL = scratch.url;
    const proxyPorts = { one: await freePort(), two: await freePort() };
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      DATABASE_URL: scratch.url,
      DATABASE_POOL_MAX: '20',
      REDIS_URL,
      RATE_LIMIT_PREFIX,
      ALMANAC_SECRET: SECRET,
      // Both proxies forward from loopback: the instances believe their X-Forwarded-For.
      TRUSTED_PROXIES: '127.0.0.1',
      // A deployment's public address: here the proxy in front of both.
      APP_URL: `http://127.0.0.1:${proxyPorts.two}`,
      SEED_ON_START: 'false',
      ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true',
      LOG_LEVEL: 'warn',
    };
    // compose.yaml's migration job, then the instances.
    migrate(env, path.join(logDir, 'migrate.log'));
    const onExit = (name: string, how: unknown) => {
      if (stopping) return;
      console.error(`${name} exited (${String(how)}) during the run`);
      void cleanUp().finally(() => process.exit(1));
    };
    const start = (name: string) => startInstance({ name, env, logDir, logName: 'scale-out', onExit });
    const app1 = await start('app1');
    instances.push(app1);
    const app2 = await start('app2');
    instances.push(app2);

    // The marketplace while they start: a publisher, its knowledge base, and the buyers' keys.
    const { openPostgres } = await import('@/db/client');
    const { useDatabase } = await import('@/lib/platform/db');
    const { revokeKey } = await import('@/lib/keys');
    const fixtures = await import('../../test/support/gateway-fixtures');
    const handle = await openPostgres(scratch.url, 4);
    useDatabase(handle);
    publisher = await fixtures.startExamplePublisher();
    const pub = await fixtures.createPublisher(handle.db);
    const kbId = await fixtures.createHttpKnowledgeBase(handle.db, pub, {
      endpointUrl: publisher.url,
      infraKey: publisher.infraKey,
      signingSecret: publisher.signingSecret,
      timeoutMs: 30_000,
    });
    const unlimited = { cap: 100_000_000, perMinute: 100_000_000 };
    const loadKeys = await Promise.all(Array.from({ length: BUYERS }, () => fixtures.buyKey(handle.db, kbId, unlimited)));
    const capped = { cap: CAP, perMinute: 100_000_000 };
    const capKeys = { one: await fixtures.buyKey(handle.db, kbId, capped), two: await fixtures.buyKey(handle.db, kbId, capped) };
    const revocationKeys = async () => Promise.all(Array.from({ length: REVOCATIONS }, () => fixtures.buyKey(handle.db, kbId, unlimited)));
    const revoke = async (key: BoughtKey) => {
      const result = await revokeKey(handle.db, { userId: key.userId, keyId: key.keyId });
      if (!result.ok) throw new Error(`revokeKey: ${result.message}`);
    };

    await Promise.all(instances.map((i) => waitReady(`http://127.0.0.1:${i.port}/api/health/ready`, i.child, i.name)));
    const one: Setup = { name: 'one', base: await startProxyProcess(proxyPorts.one, [app1]), instances: [app1] };
    const two: Setup = { name: 'two', base: await startProxyProcess(proxyPorts.two, [app1, app2]), instances: [app1, app2] };
    const setups = [one, two];
    say(`app1 and app2 ready on ${scratch.name} and Redis; proxies ${setups.map((s) => `${s.name} ${s.base}`).join(', ')}`);

    for (const setup of setups) {
      const answer = await query(setup.base, kbId, loadKeys[0]?.key ?? '');
      if (answer.status !== 200 || !answer.citations?.length) throw new Error(`proxy ${setup.name}: a query answered ${answer.status} ${answer.error ?? ''}`);
    }
    const throughput = await measureThroughput(
      [
        { row: 'one', setup: one, connections: CONNECTIONS },
        { row: 'one, half the connections', setup: one, connections: Math.max(1, CONNECTIONS >> 1) },
        { row: 'two', setup: two, connections: CONNECTIONS },
      ],
      instances,
      kbId,
      loadKeys,
      publisher,
    );
    say('throughput measured');
    const failed = throughput.filter((row) => row.non2xx > 0 || row.errors > 0);
    if (failed.length) throw new Error(`queries failed under load: ${failed.map((r) => `${r.row}: ${r.non2xx} non-2xx, ${r.errors} errors`).join('; ')}`);
    const caps = [await measureCap(one, kbId, capKeys.one), await measureCap(two, kbId, capKeys.two)];
    say('caps measured');
    const revocationOf = async (setup: Setup) => {
      const times = [];
      for (const key of await revocationKeys()) times.push((await measureRevocation(setup, kbId, key, revoke)).everyInstanceMs);
      return { setup: setup.name, trials: REVOCATIONS, medianMs: ms(median(times)), maxMs: ms(Math.max(...times)), trialsMs: times.map(ms) };
    };
    const revocation = { one: await revocationOf(one), two: await revocationOf(two) };
    say('revocation measured');
    await handle.close();

    const byName = (name: ThroughputRow['row']) => throughput.find((row) => row.row === name) ?? { rps: NaN, p50: NaN, p99: NaN, instanceCpuMsPerQuery: NaN };
    const [oneRow, halfRow, twoRow] = [byName('one'), byName('one, half the connections'), byName('two')];
    const result = {
      at: new Date().toISOString(),
      machine: `${process.platform} ${process.arch}, ${os.cpus().length} cores, node ${process.version}`,
      loadAverage: { atStart: loadAtStart, atEnd: loadAverage() },
      settings: { durationSeconds: DURATION, sliceSeconds: SLICE, connections: CONNECTIONS, buyers: BUYERS, rateLimiter: 'redis', database: 'postgres' },
      throughput,
      caps,
      revocation,
      ratios: {
        answeredPerSecond: ratio(twoRow.rps, oneRow.rps),
        p50: ratio(twoRow.p50, oneRow.p50),
        p99: ratio(twoRow.p99, oneRow.p99),
        instanceCpuPerQuery: ratio(twoRow.instanceCpuMsPerQuery, oneRow.instanceCpuMsPerQuery),
        instanceCpuPerQueryHalfVsOne: ratio(halfRow.instanceCpuMsPerQuery, oneRow.instanceCpuMsPerQuery),
        revocationMedian: ratio(revocation.two.medianMs, revocation.one.medianMs),
      },
    };
    console.table(throughput.map(({ cpuMsPerQueryByInstance, ...row }) => ({ ...row, byInstance: JSON.stringify(cpuMsPerQueryByInstance) })));
    console.table(
      caps.map(({ requestsPerInstance, usedByInstance, ...row }) => ({
        ...row,
        perInstance: JSON.stringify(requestsPerInstance),
        used: JSON.stringify(usedByInstance),
      })),
    );
    console.table([revocation.one, revocation.two].map(({ trialsMs, ...row }) => ({ ...row, trialsMs: trialsMs.join(', ') })));
    const r = result.ratios;
    console.log(
      `two / one: answered queries per second ${r.answeredPerSecond}×, p50 ${r.p50}×, p99 ${r.p99}×, instance CPU per query ${r.instanceCpuPerQuery}× (one at half the connections / one: ${r.instanceCpuPerQueryHalfVsOne}×)`,
    );
    console.log(`two / one: revocation (median, until every instance refuses) ${r.revocationMedian}×; documented bound 1,000 ms (docs/api.md §4.3)`);
    console.log(`load average (1, 5, 15 min): ${loadAtStart.join(', ')} at the start, ${result.loadAverage.atEnd.join(', ')} at the end`);
    writeFileSync(path.join(import.meta.dirname, 'last-results.json'), JSON.stringify(result, null, 2) + '\n');
    if (!caps.every((c) => c.exact)) throw new Error('a cap was not exact (see the table above)');
    succeeded = true;
  } finally {
    await cleanUp();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);

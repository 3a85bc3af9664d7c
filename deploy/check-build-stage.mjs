#!/usr/bin/env node
// The container image's build, without Docker: clones this repository's committed HEAD into a temporary folder, runs
// the Dockerfile's build-stage RUN commands there in order (its COPY lines are the clone itself, its ENV lines their
// environment), then does what the runtime stage does: `npm start` on the built tree with production dependencies
// only, on a fresh embedded database. It fails unless the server gets ready (a restart within 10 s), serves /metrics
// to loopback, and stops on SIGTERM. By hand: `node deploy/check-build-stage.mjs` (about four minutes on two cores).
//
// The 10 s is wall time, measured on machines others share (two CI runs side by side on two cores once made a restart
// take 10.7 s; at a load average of 16 a restart took 13.1 s of wall time for 3.9 s of CPU). Each attempt therefore
// reports its wall time, the CPU time the server's processes used until ready and the load average. A start whose own
// CPU time is over 10 s fails at once: no quieter machine would bring it under. A start that took longer than 10 s of
// wall time on less CPU is tried once more, at a quieter moment (the 1-minute load average below the number of cores,
// waited for up to three minutes), and the check fails unless that start is ready within 10 s. The bar is unchanged:
// one start of the built tree, with the machine to itself as far as can be had, ready within 10 s of wall time.
//
// `--reuse-build` (.ci/run): the tree this runs from is itself a clean clone in which the build stage's first commands,
// `npm ci` and `npm run build`, have just run, and its build is reused rather than made a second time: Next's output
// (without its cache) and dist/ are copied into the clone, which must then find that build current (dist/build.json
// holds a SHA-256 of every source file, so it is the build of exactly the clone's sources); the remaining RUN commands
// run in the clone as usual. It saves the run a second `npm ci` and a second Next build.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildState } from '../scripts/build-stamp.mjs';
import { parseDockerfile } from './dockerfile.mjs';

const root = path.resolve(import.meta.dirname, '..');
const READY_WITHIN_MS = 10_000;
/** How long a retry waits for the machine to quieten down (see above). */
const QUIET_WAIT_MS = 180_000;
const work = mkdtempSync(path.join(os.tmpdir(), 'almanac-build-stage-'));
const tree = path.join(work, 'app');
const reuseBuild = process.argv.includes('--reuse-build');
/** The build stage's commands whose outcome --reuse-build takes from this tree, in the order the stage must begin with. */
const REUSABLE = ['npm ci', 'npm run build'];
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);
const TICK_SECONDS = 1 / 100; // CLK_TCK on Linux

/**
 * CPU seconds a process and its descendants have used (Linux /proc: user + system time, with that of children already
 * waited for), or null where /proc is not there.
 */
function cpuSecondsOfTree(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces) begin after its closing parenthesis.
    const [utime, stime, cutime, cstime] = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .slice(11, 15)
      .map(Number);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    const own = (utime + stime + cutime + cstime) * TICK_SECONDS;
    return (children ? children.split(/\s+/) : []).reduce((sum, child) => sum + (cpuSecondsOfTree(Number(child)) ?? 0), own);
  } catch {
    return null;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitFor(url, deadline) {
  while (Date.now() < deadline) {
    const response = await fetch(url).catch(() => null);
    if (response?.ok) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer 200 in time`);
}

/**
 * `npm start` on the built tree until /api/health/ready answers (its time, which the caller holds against `limitMs`), a
 * /metrics scrape, then SIGTERM.
 */
async function startAndStop(label, limitMs) {
  const port = await freePort();
  const started = Date.now();
  // Its own process group, so that SIGTERM reaches npm, its shell and the server together, as `docker stop` would.
  const server = spawn('npm', ['start', '--', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: tree,
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DATA_DIR: path.join(work, 'data'), NODE_ENV: 'production', LOG_LEVEL: 'warn' },
  });
  const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));
  let timing;
  try {
    // A start slower than the limit is still waited for (a minute at most), so that its report says how slow it was.
    await waitFor(`http://127.0.0.1:${port}/api/health/ready`, started + Math.min(limitMs + 60_000, 180_000));
    timing = { label, wallMs: Date.now() - started, cpuSeconds: cpuSecondsOfTree(server.pid), load: os.loadavg()[0] };
    console.log(`${label}: ${describe(timing)} (production dependencies only).`);
    await waitFor(`http://127.0.0.1:${port}/api/health/ready`, Date.now() + 5_000);
    // A request is counted when its response has been handed to the socket, which may be just after the client has
    // read it: the scrape is repeated for a few seconds before the count is taken as missing.
    const counted = 'almanac_http_requests_total{route="/api/health/ready",method="GET",status="200"}';
    let metrics = '';
    for (const deadline = Date.now() + 10_000; Date.now() < deadline && !metrics.includes(counted);) {
      metrics = await (await waitFor(`http://127.0.0.1:${port}/metrics`, Date.now() + 5_000)).text();
      if (!metrics.includes(counted)) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    if (!metrics.includes(counted)) {
      const lines = metrics
        .split('\n')
        .filter((l) => l.startsWith('almanac_http_requests_total'))
        .slice(0, 5);
      throw new Error(`/metrics does not count the requests it was sent (${lines.join('; ') || 'no request counted'})`);
    }
  } finally {
    process.kill(-server.pid, 'SIGTERM');
  }
  const { code, signal } = await exited;
  // npm passes the signal on; the server drains and exits 143 (128 + SIGTERM), which npm reports as its own status.
  if (signal === null && code !== 0 && code !== 143) throw new Error(`${label}: the server exited with ${code} on SIGTERM`);
  return timing;
}

/** Waits until the 1-minute load average is below the number of cores, or QUIET_WAIT_MS; says which. */
async function waitForQuiet() {
  const cores = os.cpus().length;
  const started = Date.now();
  while (os.loadavg()[0] >= cores && Date.now() - started < QUIET_WAIT_MS) await new Promise((resolve) => setTimeout(resolve, 5_000));
  const load = os.loadavg()[0];
  console.log(`Waited ${seconds(started)} s: load average ${load.toFixed(2)} on ${cores} cores${load >= cores ? ' (no quieter moment came)' : ''}.`);
}

function describe({ wallMs, cpuSeconds, load }) {
  const cpu = cpuSeconds === null ? '' : `, ${cpuSeconds.toFixed(1)} s of CPU`;
  return `ready ${(wallMs / 1000).toFixed(1)} s after \`npm start\`${cpu}, load average ${load.toFixed(2)} on ${os.cpus().length} cores`;
}

/** `ENV A=1 B=2` lines of a stage, as an environment (plain key=value pairs, as this Dockerfile writes them). */
function stageEnv(stage) {
  const env = {};
  for (const { keyword, args } of stage.instructions) {
    if (keyword !== 'ENV') continue;
    for (const pair of args.split(/\s+/)) {
      const at = pair.indexOf('=');
      if (at > 0) env[pair.slice(0, at)] = pair.slice(at + 1);
    }
  }
  return env;
}

try {
  execFileSync('git', ['clone', '--quiet', '--no-local', root, tree], { stdio: 'inherit' });
  const build = parseDockerfile(readFileSync(path.join(tree, 'Dockerfile'), 'utf8')).find((stage) => stage.name === 'build');
  if (!build) throw new Error('the Dockerfile has no stage named build');
  const env = { ...process.env, ...stageEnv(build) };
  let commands = build.run;
  if (reuseBuild) {
    if (REUSABLE.some((command, i) => build.run[i] !== command)) {
      throw new Error(`--reuse-build: the build stage no longer begins with ${REUSABLE.map((c) => `RUN ${c}`).join(', ')}; run without it`);
    }
    const started = Date.now();
    // Next's output as `npm run build` left it, less the build cache (which the stage deletes anyway).
    // Its links into node_modules stay relative (verbatimSymlinks), so they resolve to the clone's production packages.
    cpSync(path.join(root, '.next'), path.join(tree, '.next'), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (from) => from !== path.join(root, '.next', 'cache'),
    });
    cpSync(path.join(root, 'dist'), path.join(tree, 'dist'), { recursive: true });
    const state = buildState(tree);
    if (state !== 'current')
      throw new Error(`--reuse-build: the build of ${root} is ${state} for the committed sources; run \`npm run build\` on a clean tree first`);
    console.log(
      `\n$ ${REUSABLE.join(' && ')}\n(run by .ci/run in its own clean clone of this commit; its build copied here, current for these sources, ${seconds(started)} s)`,
    );
    commands = build.run.slice(REUSABLE.length);
  }
  for (const command of commands) {
    const started = Date.now();
    console.log(`\n$ ${command}`);
    execFileSync('bash', ['-c', command], { cwd: tree, stdio: 'inherit', env });
    console.log(`(${seconds(started)} s)`);
  }

  // First start: migrates and seeds a fresh embedded database. Second start on the same data: what every restart and
  // every further instance of a deploy does, which must answer within READY_WITHIN_MS.
  const first = await startAndStop('first start (migrates and seeds a fresh embedded database)', Infinity);
  const restarts = [await startAndStop('restart on the same data', READY_WITHIN_MS)];
  const slow = (r) => r.wallMs > READY_WITHIN_MS || (r.cpuSeconds ?? 0) * 1000 > READY_WITHIN_MS;
  if (slow(restarts[0]) && (restarts[0].cpuSeconds ?? 0) * 1000 <= READY_WITHIN_MS) {
    await waitForQuiet();
    restarts.push(await startAndStop('restart on the same data, second attempt', READY_WITHIN_MS));
  }
  const report = restarts.map((r) => `${r.label}: ${describe(r)}`).join('; ');
  if (restarts.every(slow)) throw new Error(`no restart was ready within ${READY_WITHIN_MS / 1000} s (${report})`);
  console.log(`\nFirst start: ${describe(first)}. ${report} (limit ${READY_WITHIN_MS / 1000} s of wall time).`);
  console.log('Stopped on SIGTERM. The build stage and the built tree check out.');
} finally {
  rmSync(work, { recursive: true, force: true });
}

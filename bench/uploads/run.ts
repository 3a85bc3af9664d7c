/**
 * Twenty parallel large uploads (bench/uploads/README.md): the server's resident memory and its health latency while
 * they arrive, for main's route (`before`: the body read whole) and the streaming route (`after`), in one run. Each
 * variant gets a fresh server process (bench/uploads/server.ts) and database, so neither inherits the other's heap.
 * This process is the client: it streams each body from one small buffer, so its own memory stays out of the figures.
 *
 *   npx tsx bench/uploads/run.ts [megabytes per file, default 19] [pglite|postgres, default pglite] [rounds, default 1]
 *     [variants, default before,after]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';

const MB = 1024 * 1024;
const FILES = 20;
const megabytes = Number(process.argv[2] ?? 19);
const kind = process.argv[3] ?? 'pglite';
const rounds = Number(process.argv[4] ?? 1);
const variants = (process.argv[5] ?? 'before,after').split(',');

async function startServer(variant: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/uploads/server.ts', variant, kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    if (line.startsWith('{')) return { child, port: (JSON.parse(line) as { port: number }).port };
  }
  throw new Error(`the ${variant} server ended before it was ready`);
}

/** One upload as a browser sends it, streamed from a 64 KiB buffer with its Content-Length. */
function upload(port: number, index: number, size: number): Promise<number> {
  const boundary = `----bench${index}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="part-${index}.txt"\r\nContent-Type: text/plain\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, `upload ${index} `);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/upload/${index}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    void (async () => {
      req.write(head);
      for (let sent = 0; sent < size; sent += chunk.length) {
        if (!req.write(chunk.subarray(0, Math.min(chunk.length, size - sent)))) await new Promise((r) => req.once('drain', r));
      }
      req.end(tail);
    })();
  });
}

/** Health every 25 ms and the server's resident memory every 20 ms, from another thread than the client's. */
const SAMPLER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { readFileSync } = require('node:fs');
let stop = false;
const health = [];
// 'peek' hands over the samples so far and starts afresh; anything else stops.
parentPort.on('message', (m) => { if (m === 'peek') parentPort.postMessage({ health: health.splice(0) }); else stop = true; });
const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync('/proc/' + workerData.pid + '/status', 'utf8'))[1]) * 1024;
const memory = [];
const timer = setInterval(() => { try { memory.push(rss()); } catch {} }, 20);
(async () => {
  while (!stop) {
    const started = performance.now();
    await new Promise((resolve) => http.get(workerData.url, { agent: false }, (res) => { res.resume(); res.on('end', resolve); }).on('error', resolve));
    health.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  clearInterval(timer);
  parentPort.postMessage({ health, memory });
})();`;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

interface Row {
  variant: string;
  /** Health p99 over the second before the uploads: what this machine's load costs by itself. */
  idleP99: number;
  round: number;
  statuses: string;
  seconds: number;
  healthP50: number;
  healthP99: number;
  healthMax: number;
  startRssMb: number;
  peakRssMb: number;
}

async function measure(variant: string, round: number): Promise<Row> {
  const { child, port } = await startServer(variant);
  const sampler = new Worker(SAMPLER, { eval: true, workerData: { url: `http://127.0.0.1:${port}/health`, pid: child.pid } });
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const idle = await new Promise<number[]>((resolve) => {
    sampler.once('message', (m: { health: number[] }) => resolve(m.health));
    sampler.postMessage('peek');
  });
  const started = performance.now();
  const statuses = await Promise.all(Array.from({ length: FILES }, (_, i) => upload(port, i, megabytes * MB).catch(() => 0)));
  const seconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 300));
  const { health, memory } = await new Promise<{ health: number[]; memory: number[] }>((resolve) => {
    sampler.once('message', resolve);
    sampler.postMessage('stop');
  });
  await sampler.terminate();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  const round1 = (n: number) => Math.round(n * 10) / 10;
  return {
    variant,
    idleP99: Math.round(quantile(idle, 0.99)),
    round,
    statuses: [...counts].map(([s, n]) => `${n}× ${s}`).join(', '),
    seconds: round1(seconds),
    healthP50: Math.round(quantile(health, 0.5)),
    healthP99: Math.round(quantile(health, 0.99)),
    healthMax: Math.round(Math.max(...health)),
    startRssMb: Math.round((memory[0] ?? 0) / MB),
    peakRssMb: Math.round(Math.max(...memory) / MB),
  };
}

const rows: Row[] = [];
for (let round = 1; round <= rounds; round++) {
  // Alternated, so that a machine getting busier or quieter weighs on both alike.
  for (const variant of round % 2 ? variants : [...variants].reverse()) {
    const row = await measure(variant, round);
    console.log(JSON.stringify(row));
    rows.push(row);
  }
}

console.log(`\n${FILES} parallel uploads × ${megabytes} MB, ${kind}\n`);
console.log(
  '| code | round | answers | all stored in s | health p50 ms | p99 ms | max ms | idle p99 ms | RSS at start MB | peak RSS MB |\n|---|---|---|---|---|---|---|---|---|---|',
);
for (const r of rows)
  console.log(
    `| ${r.variant} | ${r.round} | ${r.statuses} | ${r.seconds} | ${r.healthP50} | ${r.healthP99} | ${r.healthMax} | ${r.idleP99} | ${r.startRssMb} | ${r.peakRssMb} |`,
  );
const mean = (variant: string, pick: (r: Row) => number) => {
  const of = rows.filter((r) => r.variant === variant).map(pick);
  return of.reduce((a, b) => a + b, 0) / of.length;
};
const ratio = (pick: (r: Row) => number) => (mean('after', pick) / mean('before', pick)).toFixed(2);
console.log(
  `\nafter / before: health p99 ${ratio((r) => r.healthP99)}×, max ${ratio((r) => r.healthMax)}×, peak RSS growth ${ratio((r) => r.peakRssMb - r.startRssMb)}×, time to store all ${ratio((r) => r.seconds)}×`,
);
process.exit(0);

#!/usr/bin/env node
/**
 * Lighthouse (mobile, performance only) on the same pages of two or more running servers, interleaved: run i of every
 * page on server A, then on server B, and so on. On a shared machine whose load drifts by the minute, interleaving
 * is what makes two builds comparable; run.mjs measures one build's absolute figures.
 *
 *   BENCH_SERVERS=http://127.0.0.1:4311,http://127.0.0.1:4312 node bench/pages/compare.mjs / /knowledge-bases
 *   BENCH_RUNS=6 …                                     # runs per page and server (default 4)
 *
 * Start each server from its own build (NEXT_DIST_DIR=… node scripts/serve.mjs -p PORT, with its own DATA_DIR).
 * Prints each run (with the 1-minute load average) and the median performance, TBT, LCP and FCP per page and server.
 */
import os from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const servers = (process.env.BENCH_SERVERS ?? '').split(',').filter(Boolean);
const paths = process.argv.slice(2);
const RUNS = Number(process.env.BENCH_RUNS ?? 4);
if (servers.length < 2 || paths.length === 0) {
  console.error('usage: BENCH_SERVERS=http://a,http://b node bench/pages/compare.mjs /path …');
  process.exit(2);
}
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'];

async function measure(url) {
  const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  try {
    const { lhr } = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
    const ms = (id) => Math.round(lhr.audits[id].numericValue);
    return {
      perf: Math.round(lhr.categories.performance.score * 100),
      tbt: ms('total-blocking-time'),
      lcp: ms('largest-contentful-paint'),
      fcp: ms('first-contentful-paint'),
      load: os.loadavg()[0].toFixed(1),
    };
  } finally {
    await chrome.kill();
  }
}

const runs = new Map();
for (const p of paths) for (const s of servers) await fetch(s + p); // each route rendered once before measuring
for (let i = 0; i < RUNS; i++) {
  for (const p of paths) {
    for (const s of servers) {
      const r = await measure(s + p);
      const key = `${p} on ${s}`;
      runs.set(key, [...(runs.get(key) ?? []), r]);
      console.log(key, JSON.stringify(r));
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`\nmedians of ${RUNS} interleaved runs`);
for (const [key, list] of runs) {
  console.log(
    `${key}: performance ${median(list.map((r) => r.perf))}, TBT ${median(list.map((r) => r.tbt))} ms, LCP ${median(list.map((r) => r.lcp))} ms, FCP ${median(list.map((r) => r.fcp))} ms`,
  );
}

#!/usr/bin/env node
/**
 * Lighthouse 12 (the `lighthouse` package with `chrome-launcher`, driving Debian's /usr/bin/chromium) on the home
 * page, the catalogue, a knowledge-base page and the signed-in dashboard (/account), against a production build served by
 * scripts/serve.mjs (`npm start`'s server) with a fresh embedded database (seeded on first start).
 *
 *   node bench/pages/run.mjs            # build into .next-bench-pages, start, measure, stop
 *   BENCH_BASE_URL=http://host:port node bench/pages/run.mjs   # measure a running server instead
 *   BENCH_RUNS=5 BENCH_PRESET=desktop node bench/pages/run.mjs
 *   BENCH_PAGES=home,catalogue node bench/pages/run.mjs         # only these pages
 *   BENCH_REPORT_DIR=/tmp/lh node bench/pages/run.mjs           # also keep every run's full Lighthouse report
 *
 * Lighthouse's default mobile profile is used (Moto G Power emulation, simulated slow 4G, 4x CPU slowdown) unless
 * BENCH_PRESET=desktop. Each page is measured BENCH_RUNS times (default 3) in a fresh Chromium and the median run
 * (by performance score) is reported. The dashboard is measured signed in: a buyer is signed up through the real
 * form, buys a plan in test mode, and the session cookie is passed to Lighthouse as a request header.
 * Results: printed, and written to bench/pages/results/latest.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..', '..');
const CHROMIUM = '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PRESET = process.env.BENCH_PRESET === 'desktop' ? 'desktop' : 'mobile';
const TARGETS = { performance: 95, accessibility: 95 };
const PAGES = (process.env.BENCH_PAGES ?? 'home,catalogue,knowledge-base,dashboard').split(',').map((p) => p.trim());
const REPORT_DIR = process.env.BENCH_REPORT_DIR;

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms`);
}

async function startServer() {
  const distDir = process.env.NEXT_DIST_DIR || '.next-bench-pages';
  const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
  const env = { ...process.env, NEXT_DIST_DIR: distDir, NEXT_SKIP_TYPECHECK: '1', NEXT_TELEMETRY_DISABLED: '1' };
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    console.log(`building into ${distDir} …`);
    const tsconfigPath = path.join(root, 'tsconfig.json');
    const tsconfig = readFileSync(tsconfigPath);
    const build = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env });
    // `next build` adds its dist folder to tsconfig.json's include list; the shared file must not change.
    if (!readFileSync(tsconfigPath).equals(tsconfig)) writeFileSync(tsconfigPath, tsconfig);
    if (build.status !== 0) throw new Error('next build failed');
  }
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'almanac-bench-pages-'));
  const server = spawn(process.execPath, [path.join(root, 'scripts', 'serve.mjs'), '-p', String(port), '-H', '127.0.0.1'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...env,
      APP_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      STRIPE_SECRET_KEY: '',
      REDIS_URL: '',
      SMTP_URL: '',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
  });
  await waitFor(`${baseUrl}/knowledge-bases`, 180_000);
  return {
    baseUrl,
    dataDir,
    async stop() {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A signed-in buyer with one test-mode subscription; returns the Cookie header value. */
/**
 * The confirmation link of the newest email to `email`, from the server's outbox (no SMTP_URL: the outbox is the
 * delivery) through the operator CLI, which shares the server's embedded database. Null without a server data dir.
 */
function confirmationLink(dataDir, email) {
  if (!dataDir) return null;
  const cli = spawnSync(path.join(root, 'node_modules', '.bin', 'tsx'), ['scripts/almanac.ts', 'outbox', '--to', email, '--json'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'error' },
  });
  const mails = cli.status === 0 ? JSON.parse(cli.stdout) : [];
  return mails.map((m) => /https?:\/\/\S*\/verify-email\?token=\S+/.exec(m.text)?.[0]).find(Boolean) ?? null;
}

async function signedInBuyer(baseUrl, kbPath, dataDir) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS.filter((f) => !f.startsWith('--headless')) });
  try {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/signup?callbackUrl=${encodeURIComponent(kbPath)}`);
    await page.waitForLoadState('networkidle');
    const email = `bench-${Date.now()}@example.test`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('benchmark password 123');
    await page.getByRole('button', { name: 'Create account' }).click();
    // Sign-up asks to confirm the address (docs/api.md §11.3): follow the emailed link, which confirms and signs in.
    await page.getByText('Check your inbox').waitFor({ timeout: 30_000 });
    const link = confirmationLink(dataDir, email);
    if (!link) throw new Error('no confirmation email in the outbox (BENCH_BASE_URL servers need the sign-up confirmed by hand)');
    await page.goto(link);
    await page.getByRole('button', { name: 'Confirm my email address' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/verify-email'));
    await page.goto(`${baseUrl}${kbPath}`);
    try {
      await page.getByRole('button', { name: /^Buy Starter/ }).click();
      await page.getByRole('button', { name: 'Complete test purchase' }).click({ timeout: 15_000 });
      await page.waitForURL(/\/checkout\/success/, { timeout: 15_000 });
    } catch (error) {
      console.warn(`note: test purchase did not complete (${error.message.split('\n')[0]}); measuring an empty dashboard`);
    }
    const cookies = await page.context().cookies(baseUrl);
    return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  } finally {
    await browser.close();
  }
}

/** The scripts that kept the main thread busiest (Lighthouse's bootup-time audit), for finding what blocks. */
function busiestScripts(lhr) {
  const items = lhr.audits['bootup-time']?.details?.items ?? [];
  return items.slice(0, 4).map((i) => `${String(i.url).replace(/^https?:\/\/[^/]+/, '')} ${Math.round(i.total)} ms`);
}

async function measure(url, cookie, reportName) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  try {
    const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] };
    if (cookie) flags.extraHeaders = { Cookie: cookie };
    const result = await lighthouse(url, flags, PRESET === 'desktop' ? desktopConfig : undefined);
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
    const audit = (id) => lhr.audits[id]?.numericValue;
    if (REPORT_DIR) {
      mkdirSync(REPORT_DIR, { recursive: true });
      writeFileSync(path.join(REPORT_DIR, `${reportName}.json`), JSON.stringify(lhr));
    }
    return {
      finalUrl: lhr.finalDisplayedUrl,
      performance: Math.round(lhr.categories.performance.score * 100),
      accessibility: Math.round(lhr.categories.accessibility.score * 100),
      fcpMs: Math.round(audit('first-contentful-paint')),
      lcpMs: Math.round(audit('largest-contentful-paint')),
      tbtMs: Math.round(audit('total-blocking-time')),
      cls: Number(audit('cumulative-layout-shift').toFixed(3)),
      speedIndexMs: Math.round(audit('speed-index')),
      mainThreadMs: Math.round(audit('mainthread-work-breakdown')),
      busiestScripts: busiestScripts(lhr),
      failedA11yAudits: Object.values(lhr.audits)
        .filter((a) => lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id && r.weight > 0) && a.score === 0)
        .map((a) => a.id),
    };
  } finally {
    await chrome.kill();
  }
}

const median = (runs) => [...runs].sort((a, b) => a.performance - b.performance)[Math.floor(runs.length / 2)];

const external = process.env.BENCH_BASE_URL;
const server = external ? { baseUrl: external, stop: async () => {} } : await startServer();
try {
  const listing = await (await fetch(`${server.baseUrl}/api/marketplace/knowledge-bases`)).json();
  const kbPath = `/knowledge-bases/${listing.items[0].id}`;
  const cookie = PAGES.includes('dashboard') ? await signedInBuyer(server.baseUrl, kbPath, server.dataDir) : undefined;
  const pages = [
    { name: 'home', url: `${server.baseUrl}/` },
    { name: 'catalogue', url: `${server.baseUrl}/knowledge-bases` },
    { name: 'knowledge-base', url: `${server.baseUrl}${kbPath}` },
    { name: 'dashboard', url: `${server.baseUrl}/account`, cookie },
  ].filter((p) => PAGES.includes(p.name));
  const results = [];
  for (const p of pages) {
    // One warm-up request so the first measured run does not pay for the server's first render of the route.
    await fetch(p.url, { headers: p.cookie ? { Cookie: p.cookie } : {} });
    const loadBefore = os.loadavg()[0];
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measure(p.url, p.cookie, `${p.name}-${PRESET}-${i + 1}`));
    const m = median(runs);
    if (p.cookie && new URL(m.finalUrl).pathname !== '/account') throw new Error(`dashboard run ended at ${m.finalUrl}: the session cookie was not accepted`);
    results.push({
      page: p.name,
      path: new URL(p.url).pathname,
      runs: runs.map((r) => r.performance),
      tbtRuns: runs.map((r) => r.tbtMs),
      loadAverage1m: [loadBefore, os.loadavg()[0]].map((l) => l.toFixed(1)),
      ...m,
    });
  }
  const report = {
    measuredAt: new Date().toISOString(),
    preset: PRESET,
    runsPerPage: RUNS,
    lighthouse: '12.8',
    cpus: os.cpus().length,
    loadAverage: os.loadavg().map((l) => l.toFixed(1)),
    results,
  };
  mkdirSync(path.join(root, 'bench/pages/results'), { recursive: true });
  writeFileSync(path.join(root, `bench/pages/results/latest-${PRESET}.json`), JSON.stringify(report, null, 2) + '\n');
  console.log(`\nLighthouse ${PRESET}, median of ${RUNS} runs per page (load average ${report.loadAverage.join(' ')} on ${report.cpus} CPUs)\n`);
  console.log('page            perf  a11y   FCP ms   LCP ms   TBT ms    CLS  main ms   perf runs (TBT ms)');
  for (const r of results) {
    console.log(
      `${r.page.padEnd(15)} ${String(r.performance).padStart(4)}  ${String(r.accessibility).padStart(4)}  ${String(r.fcpMs).padStart(7)}  ${String(r.lcpMs).padStart(7)}  ${String(r.tbtMs).padStart(7)}  ${r.cls.toFixed(3).padStart(5)}  ${String(r.mainThreadMs).padStart(7)}   ${r.runs.join(', ')} (${r.tbtRuns.join(', ')})`,
    );
    console.log(`  load average (1 min) ${r.loadAverage1m.join(' → ')}; busiest scripts: ${r.busiestScripts.join('; ')}`);
    if (r.failedA11yAudits.length) console.log(`  failed accessibility audits: ${r.failedA11yAudits.join(', ')}`);
  }
  const missed = results.filter((r) => r.performance < TARGETS.performance || r.accessibility < TARGETS.accessibility);
  console.log(
    missed.length
      ? `\nBelow target (perf ≥ ${TARGETS.performance}, a11y ≥ ${TARGETS.accessibility}): ${missed.map((r) => r.page).join(', ')}`
      : '\nAll pages meet the targets.',
  );
  process.exitCode = missed.length ? 1 : 0;
} finally {
  await server.stop();
}

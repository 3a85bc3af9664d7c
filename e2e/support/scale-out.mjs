#!/usr/bin/env node
// The Playwright project `scale-out` (playwright.config.ts): Almanac as compose.yaml runs it, without Docker. A scratch
// PostgreSQL database, migrated once by `npm run db:migrate` (compose's migration job); two instances of the same
// build (e2e/support/start-server.mjs, E2E_SKIP_BUILD=1: the build the run already has) on that database and on Redis
// for the rate limits, both with SEED_ON_START (they race for the start-up lock; one seeds); and in front of them a
// proxy that alternates every request between the two, as compose's Caddy does (round robin). The proxy listens on
// E2E_SCALE_OUT_PORT once both instances are ready, and names the instance that answered in `X-Almanac-Instance`.
// SIGTERM or SIGINT (Playwright's end of run) stops the instances and drops the database.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '..', '..');
const port = Number(process.env.E2E_SCALE_OUT_PORT);
if (!port) throw new Error('E2E_SCALE_OUT_PORT is not set (playwright.config.ts sets it)');
const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.E2E_REDIS_URL ?? 'redis://127.0.0.1:6379';
const logDir = process.env.ALMANAC_TEST_LOG_DIR ?? os.tmpdir();
const publicUrl = `http://127.0.0.1:${port}`;
const tag = randomBytes(5).toString('hex');
const databaseName = `almanac_e2e_scale_${tag}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString();
const started = Date.now();
const say = (message) => console.log(`[scale-out ${((Date.now() - started) / 1000).toFixed(1)} s] ${message}`);

async function admin(sql) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
    probe.on('error', reject);
  });
}

/** What every instance and the migration job share, as compose.yaml's x-almanac environment. */
const shared = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  // Its own keys in the shared Redis, so no other run's windows count here.
  RATE_LIMIT_PREFIX: `almanac:e2e-scale-out-${tag}:rl`,
  ALMANAC_SECRET: randomBytes(32).toString('base64url'),
  APP_URL: publicUrl,
  // Only the proxy's X-Forwarded-For is believed.
  TRUSTED_PROXIES: '127.0.0.1',
  SEED_ON_START: 'true',
  LOG_LEVEL: 'info',
  // The same settings as Playwright's own server (playwright.config.ts): sign-ups from one address, the job queue's
  // poll, the operator address, no outside service but the run's SMTP server, no sign-in provider.
  SIGN_UPS_PER_ADDRESS_PER_HOUR: '1000',
  JOB_POLL_MS: '500',
  ADMIN_EMAILS: 'operator@example.test',
  STRIPE_SECRET_KEY: '',
  STRIPE_WEBHOOK_SECRET: '',
  UPSTASH_REDIS_REST_URL: '',
  UPSTASH_REDIS_REST_TOKEN: '',
  SMTP_URL: process.env.E2E_SMTP_URL ?? '',
  GITHUB_CLIENT_ID: '',
  GITHUB_CLIENT_SECRET: '',
  GOOGLE_CLIENT_ID: '',
  GOOGLE_CLIENT_SECRET: '',
};
// lib/accounts/auth.ts derives next-auth's URL from APP_URL only when NEXTAUTH_URL is unset.
delete shared.NEXTAUTH_URL;

const instances = [];
const dataDirs = [];
let proxy;
let stopping;

async function stop(code) {
  stopping ??= (async () => {
    proxy?.close();
    proxy?.closeAllConnections();
    await Promise.all(
      instances.map(({ child }) =>
        child.exitCode !== null || child.signalCode !== null ? null : new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
      ),
    );
    await admin(`drop database if exists ${databaseName} with (force)`).catch((error) => say(`could not drop ${databaseName}: ${error.message}`));
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    process.exit(code);
  })();
  return stopping;
}
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => void stop(0));

async function waitReady(url, child, name) {
  for (const deadline = Date.now() + 240_000; Date.now() < deadline;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} before it was ready`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} was not ready at ${url} within 240 s`);
}

/** Alternates requests between the instances (round robin), streaming both ways, as a reverse proxy does. */
function startProxy(upstreams) {
  const agent = new http.Agent({ keepAlive: true });
  let turn = 0;
  const server = http.createServer((req, res) => {
    const target = upstreams[turn++ % upstreams.length];
    const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const headers = { ...req.headers, 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'http', 'x-forwarded-host': req.headers.host };
    delete headers.connection;
    delete headers['keep-alive'];
    const upstream = http.request({ host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      const answerHeaders = { ...answer.headers, 'x-almanac-instance': target.name };
      delete answerHeaders.connection;
      delete answerHeaders['keep-alive'];
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answerHeaders);
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`${target.name}: ${error.message}`);
      else res.destroy(error);
    });
    // A client that goes away (a stream cancelled) ends the upstream request too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

try {
  await admin(`create database ${databaseName}`);
  // compose.yaml's migration job: the schema, pg-boss and the queues, once, before any instance starts.
  const migrate = spawnSync(process.execPath, [path.join(root, 'scripts', 'run.mjs'), 'db-migrate'], {
    cwd: root,
    env: { ...shared, LOG_FILE: path.join(logDir, 'scale-out-migrate.log') },
    encoding: 'utf8',
  });
  if (migrate.status !== 0) throw new Error(`npm run db:migrate failed (${migrate.status}):\n${migrate.stdout}${migrate.stderr}`);
  say(`migrated ${databaseName}`);

  for (const name of ['app1', 'app2']) {
    const instancePort = await freePort();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `almanac-e2e-scale-out-${name}-`));
    dataDirs.push(dataDir);
    const output = createWriteStream(path.join(logDir, `scale-out-${name}-console.log`));
    const child = spawn(process.execPath, [path.join(root, 'e2e', 'support', 'start-server.mjs')], {
      cwd: root,
      env: { ...shared, E2E_PORT: String(instancePort), E2E_SKIP_BUILD: '1', DATA_DIR: dataDir, LOG_FILE: path.join(logDir, `scale-out-${name}.log`) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(output);
    child.stderr.pipe(output);
    child.stderr.on('data', (chunk) => process.stderr.write(`[${name}] ${chunk}`));
    child.on('exit', (code, signal) => {
      if (!stopping) {
        say(`${name} exited (${signal ?? code}) while the run needed it`);
        void stop(1);
      }
    });
    instances.push({ name, port: instancePort, child });
  }
  await Promise.all(instances.map(({ name, port: p, child }) => waitReady(`http://127.0.0.1:${p}/api/health/ready`, child, name)));
  say(`app1 and app2 ready (ports ${instances.map((i) => i.port).join(', ')})`);
  proxy = await startProxy(instances);
  say(`proxy on ${publicUrl}, alternating between app1 and app2`);
} catch (error) {
  console.error(`scale-out: ${error instanceof Error ? error.stack : String(error)}`);
  await stop(1);
}

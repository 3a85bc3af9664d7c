#!/usr/bin/env node
// The Playwright project `scale-out`: two instances (e2e/support/fleet.mjs) on a scratch database, both with
// SEED_ON_START so they race for the start-up lock; the proxy listens on E2E_SCALE_OUT_PORT once both are ready.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate, startInstance, startProxy, stopInstances, waitReady } from './fleet.mjs';

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
  // The same settings as Playwright's own server.
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

let instances = [];
let proxy;
let stopping;

async function stop(code) {
  stopping ??= (async () => {
    proxy?.close();
    proxy?.closeAllConnections();
    await stopInstances(instances);
    await admin(`drop database if exists ${databaseName} with (force)`).catch((error) => say(`could not drop ${databaseName}: ${error.message}`));
    process.exit(code);
  })();
  return stopping;
}
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => void stop(0));

try {
  await admin(`create database ${databaseName}`);
  migrate(shared, path.join(logDir, 'scale-out-migrate.log'));
  say(`migrated ${databaseName}`);
  const onExit = (name, how) => {
    say(`${name} exited (${how}) while the run needed it`);
    void stop(1);
  };
  instances = await Promise.all(['app1', 'app2'].map((name) => startInstance({ name, env: shared, logDir, logName: 'scale-out', onExit })));
  await Promise.all(instances.map(({ name, port: p, child }) => waitReady(`http://127.0.0.1:${p}/api/health/ready`, child, name)));
  say(`app1 and app2 ready (ports ${instances.map((i) => i.port).join(', ')})`);
  proxy = await startProxy(port, instances);
  say(`proxy on ${publicUrl}, alternating between app1 and app2`);
} catch (error) {
  console.error(`scale-out: ${error instanceof Error ? error.stack : String(error)}`);
  await stop(1);
}

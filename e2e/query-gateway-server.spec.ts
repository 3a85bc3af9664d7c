import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { openPostgres, type DatabaseHandle } from '@/db/client';
import { resetEnvForTesting } from '@/lib/platform/env';
import { itemAt } from '@/lib/platform/arrays';
import {
  buyKey,
  createHttpKnowledgeBase,
  createPublisher,
  startExamplePublisher,
  startMisbehavingPublisher,
  type BoughtKey,
  type RunningPublisher,
} from '../test/support/gateway-fixtures';
import { findLeaks, issuedSecrets, rememberSecret } from '../test/support/log-scan';
import { startAppServer, type AppServer } from './support/app-server';

/**
 * The keyed API as `npm start` serves it: the fast lane in front of Next. Keys are bought with the gateway fixtures in
 * this process, which therefore shares the server's ALMANAC_SECRET (to encrypt the publisher secrets the server
 * decrypts) and allows loopback publisher endpoints like the server does.
 */

const SERVER_SECRET = randomBytes(32).toString('base64url');
/** This process's own lib/ configuration while the file runs (restored afterwards: other specs share the worker). */
const OWN_ENV = {
  ALMANAC_SECRET: SERVER_SECRET,
  ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true',
  LOG_LEVEL: 'info',
  LOG_FILE: path.join(process.env.ALMANAC_TEST_LOG_DIR ?? os.tmpdir(), `gateway-fixtures-${randomBytes(4).toString('hex')}.log`),
} satisfies Record<string, string>;
const DEPLOY_QUERIES = 30;

let app: AppServer;
let handle: DatabaseHandle;
let publisher: RunningPublisher;
/** Valid answers of 8 KiB at /long, after a second at /slow, a 500 at /status-500. */
let testPublisher: Awaited<ReturnType<typeof startMisbehavingPublisher>>;
let publisherId: string;
let kb: string;
const savedEnv: Record<string, string | undefined> = {};
const agent = new http.Agent({ keepAlive: true });

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body bytes as they came over the wire (still gzipped when Content-Encoding says so). */
  raw: Buffer;
  json(): any;
}

/** One request as the wire carries it: no automatic Accept-Encoding, decompression or redirect following. */
function call(method: string, urlPath: string, options: { headers?: Record<string, string>; body?: string; agent?: http.Agent } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers };
    if (options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body));
    const request = http.request(`${app.url}${urlPath}`, { method, headers, agent: options.agent ?? agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ status: response.statusCode!, headers: response.headers, raw, json: () => JSON.parse(raw.toString('utf8')) });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

function ask(kbId: string, key: string, options: { query?: string; acceptEncoding?: string; suffix?: string; agent?: http.Agent } = {}): Promise<Reply> {
  return call('POST', `/kb/${kbId}/query${options.suffix ?? ''}`, {
    agent: options.agent,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Accept-Encoding': options.acceptEncoding ?? 'identity' },
    body: JSON.stringify({ query: options.query ?? 'When do neap tides occur?' }),
  });
}

/** Next's responses vary on its router headers; the fast lane's only on Accept-Encoding. */
const fromFastLane = (reply: Reply) => !/\brsc\b/i.test(String(reply.headers.vary ?? ''));

/** Next answers the path with its route handler until instrumentation.ts has registered the lane; wait for the lane. */
async function waitForFastLane(): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const probe = await call('POST', '/kb/kb_probe/query', { headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(probe.status).toBe(401);
    if (fromFastLane(probe)) return;
    if (Date.now() > deadline) throw new Error(`the fast lane was not registered within 30 s (Vary: ${probe.headers.vary})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A new knowledge base of its own: the example publisher, or a path of the test publisher ('/long', '/slow', …). */
function knowledgeBase(testPublisherPath?: string): Promise<string> {
  const endpointUrl = testPublisherPath ? `${testPublisher.base}${testPublisherPath}` : publisher.url;
  return createHttpKnowledgeBase(handle.db, publisherId, { endpointUrl, infraKey: publisher.infraKey, signingSecret: publisher.signingSecret });
}

async function buy(kbId: string, options: { cap?: number } = {}): Promise<BoughtKey> {
  return buyKey(handle.db, kbId, { cap: options.cap ?? 100, perMinute: 1_000 });
}

async function usedThisPeriod(subscriptionId: string): Promise<number> {
  const row = itemAt(
    await app.query<{ used: number }>('select coalesce(sum(used), 0)::int as used from usage_periods where subscription_id = $1', [subscriptionId]),
    0,
  );
  return row.used;
}

/** Waits until that many cap units are reserved: the requests holding them are past every check, at the publisher. */
async function waitUntilReserved(subscriptionId: string, units: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await usedThisPeriod(subscriptionId)) < units && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await usedThisPeriod(subscriptionId)).toBe(units);
}

/** docs/api.md §3.4: exactly {error, message, request_id} plus the extras, the id also in X-Request-Id. */
function expectErrorBody(reply: Reply, status: number, error: string, extras: Record<string, unknown> = {}) {
  expect(reply.status, reply.raw.toString('utf8')).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  const requestId = reply.headers['x-request-id'];
  expect(requestId).toMatch(/^req_/);
  expect(reply.json()).toEqual({ error, message: expect.stringMatching(/\S/), request_id: requestId, ...extras });
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  for (const [name, value] of Object.entries(OWN_ENV)) {
    savedEnv[name] = process.env[name];
    process.env[name] = value;
  }
  resetEnvForTesting();
  [publisher, testPublisher] = await Promise.all([startExamplePublisher(), startMisbehavingPublisher({ slowMs: 1_000 })]);
  rememberSecret(publisher.infraKey, publisher.signingSecret);
  app = await startAppServer({
    name: 'gateway',
    readyPath: '/api/health',
    env: { ALMANAC_SECRET: SERVER_SECRET, ALLOW_PRIVATE_PUBLISHER_ENDPOINTS: 'true', SEED_ON_START: 'false' },
  });
  // The server migrates the empty database before it registers the lane: once the lane answers, the tables exist.
  await waitForFastLane();
  handle = await openPostgres(app.databaseUrl, 2);
  publisherId = await createPublisher(handle.db);
  kb = await knowledgeBase();
});

test.afterAll(async () => {
  agent.destroy();
  await handle?.close();
  await app?.close();
  await Promise.all([publisher?.stop(), testPublisher?.stop()]);
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTesting();
});

test('a keyed query is answered on the fast lane: 200 with the answer, the rate-limit, usage and request-id headers', async () => {
  const k = await buy(kb, { cap: 100 });
  const before = Math.floor(Date.now() / 1000);
  const reply = await ask(kb, k.key);

  expect(reply.status, reply.raw.toString('utf8')).toBe(200);
  expect(fromFastLane(reply)).toBe(true);
  expect(reply.headers.vary).toBe('Accept-Encoding');
  const body = reply.json();
  expect(Object.keys(body).sort()).toEqual(['answer', 'citations', 'tokens_used']);
  expect(body.answer).toContain('Neap tides occur near the quarter moons');
  expect(body.citations).toContainEqual({ document_id: 'tide-tables', title: 'Reading Tide Tables', excerpt: expect.stringContaining('Neap tides'), page: 2 });
  for (const citation of body.citations) expect(Object.keys(citation).sort()).toEqual(['document_id', 'excerpt', 'page', 'title']);
  expect(Number.isInteger(body.tokens_used) && body.tokens_used >= 0).toBe(true);

  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  expect(reply.headers['content-length']).toBe(String(reply.raw.length));
  expect(reply.headers['transfer-encoding']).toBeUndefined();
  expect(reply.headers['content-encoding']).toBeUndefined();
  expect(reply.headers['x-request-id']).toMatch(/^req_/);
  expect(reply.headers['cache-control']).toBe('no-store');
  expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  expect(reply.headers['x-ratelimit-limit']).toBe('1000');
  expect(reply.headers['x-ratelimit-remaining']).toBe('999');
  expect(Number(reply.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(before);
  expect([reply.headers['x-usage-used'], reply.headers['x-usage-cap'], reply.headers['x-usage-remaining']]).toEqual(['1', '100', '99']);

  // A query string does not take the path away from the lane.
  const withSearch = await ask(kb, k.key, { suffix: '?trace=1' });
  expect(withSearch.status).toBe(200);
  expect(fromFastLane(withSearch)).toBe(true);
  expect(withSearch.headers['x-usage-used']).toBe('2');
});

test('the documented error bodies over the real server: 401, 405 for every other method, 413', async () => {
  const missing = await call('POST', `/kb/${kb}/query`, { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: 'tides' }) });
  expectErrorBody(missing, 401, 'missing_api_key');
  expect(fromFastLane(missing)).toBe(true);
  const empty = await call('POST', `/kb/${kb}/query`, { headers: { Authorization: '', 'Content-Type': 'application/json' }, body: '{"query":"tides"}' });
  expectErrorBody(empty, 401, 'missing_api_key');

  for (const method of ['GET', 'OPTIONS', 'PUT', 'DELETE']) {
    const reply = await call(method, `/kb/${kb}/query`);
    expectErrorBody(reply, 405, 'method_not_allowed');
    expect(reply.headers.allow, method).toBe('POST');
    expect(reply.json().message).toBe(`${method} is not allowed here; use POST.`);
    expect(fromFastLane(reply), method).toBe(true);
  }
  const head = await call('HEAD', `/kb/${kb}/query`);
  expect(head.status).toBe(405);
  expect(head.headers.allow).toBe('POST');
  expect(head.headers['x-request-id']).toMatch(/^req_/);
  expect(head.raw.length).toBe(0);

  const k = await buy(kb, { cap: 10 });
  const oversized = await call('POST', `/kb/${kb}/query`, {
    headers: { Authorization: `Bearer ${k.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: 'x'.repeat(17 * 1024) }),
  });
  expectErrorBody(oversized, 413, 'payload_too_large');
  expect(fromFastLane(oversized)).toBe(true);
  // Refused before the cap: nothing counted.
  expect(oversized.headers['x-usage-used']).toBe('0');
});

test('gzip for an answer of 1 KiB or more when the client accepts it, the same JSON as without', async () => {
  const longKb = await knowledgeBase('/long');
  const k = await buy(longKb);

  const plain = await ask(longKb, k.key, { acceptEncoding: 'identity' });
  expect(plain.status).toBe(200);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.raw.length).toBeGreaterThanOrEqual(1024);
  const plainBody = plain.json();

  const zipped = await ask(longKb, k.key, { acceptEncoding: 'gzip, deflate' });
  expect(zipped.status).toBe(200);
  expect(zipped.headers['content-encoding']).toBe('gzip');
  expect(zipped.headers.vary).toBe('Accept-Encoding');
  expect(zipped.headers['content-length']).toBe(String(zipped.raw.length));
  expect(zipped.raw.length).toBeLessThan(plain.raw.length);
  const unzipped = JSON.parse(gunzipSync(zipped.raw).toString('utf8'));
  expect(unzipped).toEqual(plainBody);
  expect(Object.keys(unzipped).sort()).toEqual(['answer', 'citations', 'tokens_used']);

  // Below 1 KiB an answer goes out as it is, gzip accepted or not.
  const short = await ask(kb, (await buy(kb)).key, { acceptEncoding: 'gzip' });
  expect(short.status).toBe(200);
  expect(short.raw.length).toBeLessThan(1024);
  expect(short.headers['content-encoding']).toBeUndefined();
  expect(Object.keys(short.json()).sort()).toEqual(['answer', 'citations', 'tokens_used']);
});

test('a trailing slash is no endpoint: a JSON 404 from the front door, not a redirect, nothing counted (docs/api.md §7.1)', async () => {
  const k = await buy(kb, { cap: 10 });
  const reply = await ask(kb, k.key, { suffix: '/' });
  expect(reply.status).toBe(404);
  expect(reply.headers.location).toBeUndefined();
  expect(reply.json()).toEqual({ error: 'not_found', message: expect.any(String), request_id: reply.headers['x-request-id'] });
  expect(await usedThisPeriod(k.subscriptionId)).toBe(0);
});

test('every other path still reaches Next: the health API and a page', async () => {
  const health = await call('GET', '/api/health');
  expect(health.status).toBe(200);
  expect(health.headers['content-type']).toMatch(/^application\/json/);
  expect(health.json()).toMatchObject({ status: 'ok' });
  expect(fromFastLane(health)).toBe(false);

  const page = await call('GET', '/signin', { headers: { Accept: 'text/html' } });
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toMatch(/^text\/html/);
  expect(page.raw.toString('utf8')).toMatch(/^<!DOCTYPE html>/i);
  expect(fromFastLane(page)).toBe(false);
});

test('requests in flight at SIGTERM are answered and counted before the server exits', async () => {
  test.setTimeout(60_000);
  const slowKb = await knowledgeBase('/slow');
  const k = await buy(slowKb);
  const ownAgent = new http.Agent({ keepAlive: true });
  const inFlight = Array.from({ length: 5 }, (_, i) => ask(slowKb, k.key, { query: `slack water ${i}`, agent: ownAgent }));
  await waitUntilReserved(k.subscriptionId, 5);

  const stoppedAt = Date.now();
  const exitCode = app.stop('SIGTERM');
  const replies = await Promise.all(inFlight);
  expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  expect(replies.map((r) => r.json().answer)).toEqual(Array(5).fill('Fine.'));
  expect(await exitCode).toBe(143);
  // The drain ends with the last connection (at the latest after 10 s), then the recorder's last flush.
  expect(Date.now() - stoppedAt).toBeLessThan(5_000);
  ownAgent.destroy();
  const volume = itemAt(await app.query<{ n: number }>('select query_volume::int as n from knowledge_bases where id = $1', [slowKb]), 0);
  expect(volume.n).toBe(5);
  expect(await usedThisPeriod(k.subscriptionId)).toBe(5);

  await app.start();
  await waitForFastLane();
});

test(`a deploy loses nothing: ${DEPLOY_QUERIES} answers, SIGTERM at once, every count written; after a restart the cap still holds`, async () => {
  test.setTimeout(120_000);
  // A knowledge base of its own, so its query_volume counts only this test's answers.
  const deployKb = await knowledgeBase();
  const cap = DEPLOY_QUERIES + 2;
  const k = await buy(deployKb, { cap });

  const replies = await Promise.all(Array.from({ length: DEPLOY_QUERIES }, (_, i) => ask(deployKb, k.key, { query: `neap tides ${i}` })));
  expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
  expect(replies.every(fromFastLane)).toBe(true);
  // The recorder flushes once a second; the server is stopped before that, so the last batch is written on the way out.
  const stoppedAt = Date.now();
  expect(await app.stop('SIGTERM')).toBe(143);
  const stopMs = Date.now() - stoppedAt;
  expect(stopMs, 'idle keep-alive connections must not hold the drain').toBeLessThan(8_000);

  const volume = itemAt(await app.query<{ n: number }>('select query_volume::int as n from knowledge_bases where id = $1', [deployKb]), 0);
  expect(volume.n).toBe(DEPLOY_QUERIES);
  const period = itemAt(
    await app.query<{ used: number; period_end: Date }>('select used, period_end from usage_periods where subscription_id = $1', [k.subscriptionId]),
    0,
  );
  expect(period.used).toBe(DEPLOY_QUERIES);
  const [daily] = await app.query<{ n: number }>('select coalesce(sum(queries), 0)::int as n from usage_daily where subscription_id = $1', [k.subscriptionId]);
  expect(daily?.n).toBe(DEPLOY_QUERIES);
  const [logged] = await app.query<{ n: number }>('select count(*)::int as n from query_log where subscription_id = $1 and status = 200', [k.subscriptionId]);
  expect(logged?.n).toBe(DEPLOY_QUERIES);
  const key = itemAt(await app.query<{ last_used_at: Date | null }>('select last_used_at from api_keys where id = $1', [k.keyId]), 0);
  expect(key.last_used_at).not.toBeNull();

  await app.start();
  await waitForFastLane();
  for (const used of [DEPLOY_QUERIES + 1, DEPLOY_QUERIES + 2]) {
    const reply = await ask(deployKb, k.key);
    expect(reply.status, reply.raw.toString('utf8')).toBe(200);
    expect(reply.headers['x-usage-used']).toBe(String(used));
  }
  const refused = await ask(deployKb, k.key);
  expectErrorBody(refused, 429, 'query_cap_exceeded', {
    usage: { used: cap, cap },
    resets_at: new Date(period.period_end).toISOString(),
    upgrade_url: `${app.url}/account/subscriptions/${k.subscriptionId}`,
  });
  expect(fromFastLane(refused)).toBe(true);
  expect([refused.headers['x-usage-used'], refused.headers['x-usage-cap'], refused.headers['x-usage-remaining']]).toEqual([String(cap), String(cap), '0']);
});

test("no issued key and no publisher secret appears in the server's output or logs", async () => {
  // A publisher failure makes the gateway log the request (lib/gateway/pipeline.ts, 'query not answered'): real log lines to scan.
  const failingKb = await knowledgeBase('/status-500');
  const failed = await ask(failingKb, (await buy(failingKb)).key);
  expectErrorBody(failed, 502, 'publisher_error');
  expect(failed.headers['x-usage-used']).toBe('0');

  const output = app.output();
  expect(output).toContain('Almanac ready on');
  const logged = output.split('\n').filter((line) => line.includes(String(failed.headers['x-request-id'])));
  expect(logged.some((line) => line.includes('"msg":"query not answered"'))).toBe(true);
  const ownLog = existsSync(OWN_ENV.LOG_FILE) ? readFileSync(OWN_ENV.LOG_FILE, 'utf8') : '';
  expect(issuedSecrets.size).toBeGreaterThan(2);
  expect(findLeaks(output, issuedSecrets), "the server's output").toEqual([]);
  expect(findLeaks(ownLog, issuedSecrets), "this process's log").toEqual([]);
});

// A client keeping its connection alive must be told to leave while the server drains: an answer given after SIGTERM
// says `Connection: close`, so the client reconnects (to another instance) instead of being served on this connection
// until the 10 s drain cuts whatever it has in flight.
test('while the server drains, an answer closes its connection (Connection: close)', async () => {
  const slowKb = await knowledgeBase('/slow');
  const k = await buy(slowKb);
  const ownAgent = new http.Agent({ keepAlive: true });
  const inFlight = ask(slowKb, k.key, { agent: ownAgent });
  await waitUntilReserved(k.subscriptionId, 1);
  const exitCode = app.stop('SIGTERM');
  const stoppedAt = Date.now();
  const reply = await inFlight;
  expect(await exitCode).toBe(143);
  // Nobody hangs up but the server: the exit is not held by the kept-alive connection.
  expect(Date.now() - stoppedAt).toBeLessThan(5_000);
  ownAgent.destroy();
  expect(reply.status).toBe(200);
  expect(reply.headers.connection).toBe('close');
});

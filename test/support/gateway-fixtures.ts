import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { eq } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { knowledgeBases, plans, publishers, users } from '@/db/schema';
import { newId, randomBase62 } from '@/lib/platform/ids';
import { configureHttpBackend } from '@/lib/routing/backends';
import { purchaseSubscription } from '@/lib/subscriptions';
import { itemAt, capture } from '@/lib/platform/arrays';
import { listenOnLoopback } from './listen';
import { rememberSecret } from './log-scan';

/** Builders for the gateway suites: a publisher, knowledge bases with chosen backends, and bought keys. */

export async function createPublisher(db: Executor): Promise<string> {
  const id = newId('pub');
  await db.insert(publishers).values({ id, slug: `gw-${randomBase62(8).toLowerCase()}`, name: 'Gateway Test Press' });
  return id;
}

export async function createKnowledgeBase(
  db: Executor,
  publisherId: string,
  options: { status?: 'draft' | 'published' | 'suspended' | 'archived'; title?: string } = {},
): Promise<string> {
  const id = newId('kb');
  await db.insert(knowledgeBases).values({
    id,
    publisherId,
    slug: `kb-${randomBase62(8).toLowerCase()}`,
    title: options.title ?? 'Seamanship Basics',
    summary: 'Tides, knots and lights.',
    category: 'education',
    tags: ['sailing'],
    status: options.status ?? 'published',
  });
  return id;
}

export interface HttpBackendConfig {
  endpointUrl: string;
  infraKey: string;
  signingSecret: string;
  timeoutMs?: number;
}

export async function createHttpKnowledgeBase(db: Executor, publisherId: string, backend: HttpBackendConfig): Promise<string> {
  rememberSecret(backend.infraKey, backend.signingSecret);
  const kbId = await createKnowledgeBase(db, publisherId);
  const configured = await configureHttpBackend(db, { kbId, ...backend });
  if (!configured.ok) throw new Error(`configureHttpBackend failed: ${configured.message}`);
  return kbId;
}

export interface BoughtKey {
  key: string;
  keyId: string;
  subscriptionId: string;
  userId: string;
  planId: string;
  kbId: string;
}

export async function buyKey(db: Executor, kbId: string, options: { cap?: number; perMinute?: number } = {}): Promise<BoughtKey> {
  // Publish for the purchase (purchases need a published knowledge base), then restore the status.
  const kb = itemAt(await db.select({ status: knowledgeBases.status }).from(knowledgeBases).where(eq(knowledgeBases.id, kbId)), 0);
  if (kb.status !== 'published') await db.update(knowledgeBases).set({ status: 'published' }).where(eq(knowledgeBases.id, kbId));
  const userId = newId('usr');
  await db.insert(users).values({ id: userId, email: `buyer-${randomBase62(10).toLowerCase()}@example.test`, name: 'Test Buyer' });
  const planId = newId('plan');
  await db.insert(plans).values({
    id: planId,
    kbId,
    name: 'Test plan',
    priceCents: 1_000,
    queriesPerPeriod: options.cap ?? 100,
    requestsPerMinute: options.perMinute ?? 1_000,
  });
  const purchase = await purchaseSubscription(db, { userId, planId, mode: 'live' });
  if (kb.status !== 'published') await db.update(knowledgeBases).set({ status: kb.status }).where(eq(knowledgeBases.id, kbId));
  if (!purchase.ok) throw new Error(`purchase failed: ${purchase.message}`);
  rememberSecret(purchase.key.plaintext);
  return { key: purchase.key.plaintext, keyId: purchase.key.id, subscriptionId: purchase.subscription.id, userId, planId, kbId };
}

// ── Publishers ─────────────────────────────────────────────────────────────────────────────────────────

export interface RunningPublisher {
  url: string;
  pid: number;
  infraKey: string;
  signingSecret: string;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '..', '..');

/** examples/publisher-server/server.mjs as a separate process on a random port. */
export async function startExamplePublisher(options: { delayMs?: number } = {}): Promise<RunningPublisher> {
  const infraKey = `pub_infra_${randomBase62(24)}`;
  const signingSecret = `pub_sign_${randomBase62(40)}`;
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'examples/publisher-server/server.mjs')], {
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      PUBLISHER_INFRA_KEY: infraKey,
      PUBLISHER_SIGNING_SECRET: signingSecret,
      PUBLISHER_DELAY_MS: String(options.delayMs ?? 0),
    } as Record<string, string | undefined> as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Never outlive the test process, even when a hook times out before stop() runs.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) resolve(capture(match, 1));
    });
    child.once('exit', (code) => reject(new Error(`example publisher exited with ${code}`)));
  });
  return {
    url: `${url}/query`,
    pid: child.pid!,
    infraKey,
    signingSecret,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        // A publisher still holding a connection open is killed after 5 s: a hook must never wait on it for a minute.
        const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

const VALID_ANSWER = { answer: 'Fine.', citations: [{ document_id: 'doc-1', title: 'Doc', excerpt: 'Fine.', page: null }], tokens_used: 3 };

/**
 * A publisher that misbehaves on purpose, one path per failure mode: /ok, /slow, /status-500, /invalid-json,
 * /oversized (Content-Length says 2 MiB), /oversized-chunked (no Content-Length), /schema (breaks the answer
 * schema), /reset (drops the connection); and /long, a valid 8 KiB answer. It does not check signatures; the
 * example publisher does.
 */
export async function startMisbehavingPublisher(options: { slowMs?: number } = {}): Promise<{ base: string; hits: () => number; stop(): Promise<void> }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits++;
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const sendJson = (status: number, body: unknown) => {
        const text = JSON.stringify(body);
        res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
      };
      switch (path) {
        case '/ok':
          return sendJson(200, VALID_ANSWER);
        case '/abstain':
          return sendJson(200, { answer: 'Nothing in this knowledge base answers that.', citations: [], tokens_used: 9 });
        case '/long':
          return sendJson(200, { ...VALID_ANSWER, answer: 'The tide turns twice a day. '.repeat(300) });
        case '/slow':
          return void setTimeout(() => !res.destroyed && sendJson(200, VALID_ANSWER), options.slowMs ?? 3_000);
        case '/stream': {
          // A publisher that streams its answer over 2 s when asked to (citations at once, a piece every 400 ms), and
          // answers JSON after the same 2 s otherwise.
          const pieces = ['The tide ', 'turns ', 'twice ', 'a day.'];
          if (!String(req.headers.accept ?? '').includes('text/event-stream')) {
            return void setTimeout(() => !res.destroyed && sendJson(200, { ...VALID_ANSWER, answer: pieces.join('') }), 2_000);
          }
          res.writeHead(200, { 'Content-Type': 'text/event-stream' });
          res.write(`event: citations\ndata: ${JSON.stringify(VALID_ANSWER.citations)}\n\n`);
          pieces.forEach((text, i) => setTimeout(() => !res.destroyed && res.write(`event: delta\ndata: ${JSON.stringify({ text })}\n\n`), 400 * (i + 1)));
          return void setTimeout(() => !res.destroyed && res.end(`: almost\n\nevent: done\ndata: {"tokens_used":7}\n\n`), 2_000);
        }
        case '/status-500':
          return sendJson(500, { error: 'boom' });
        case '/invalid-json':
          res.writeHead(200, { 'Content-Type': 'application/json' });
          return res.end('{"answer": "unterminated');
        case '/oversized': {
          const big = JSON.stringify({ ...VALID_ANSWER, answer: 'x'.repeat(2 * 1024 * 1024) });
          res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(big) });
          return res.end(big);
        }
        case '/oversized-chunked': {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.write('{"answer":"');
          const chunk = 'y'.repeat(64 * 1024);
          let sent = 0;
          const pump = () => {
            while (sent < 2 * 1024 * 1024) {
              sent += chunk.length;
              if (!res.write(chunk)) return void res.once('drain', pump);
            }
            res.end('","citations":[],"tokens_used":1}');
          };
          res.on('error', () => {});
          return pump();
        }
        case '/schema':
          return sendJson(200, { answer: 'no citations key', tokens_used: -1 });
        case '/reset':
          return req.socket.destroy();
        default:
          return sendJson(404, { error: 'no such path' });
      }
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return { base: url, hits: () => hits, stop: close };
}

/** A loopback port with nothing listening on it (a publisher that is down). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

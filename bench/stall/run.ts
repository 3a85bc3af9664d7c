/**
 * Stall monitor (bench/stall/README.md): how long a health check waits while one hostile input is handled, before
 * (the code paths main had: parsing on the event loop's thread, bodies read whole, bytes stored in a PGlite row, a
 * publisher's JSON parsed inline) and after (this branch's paths), on the embedded database and on PostgreSQL.
 *
 * In-process and scaled down: a health endpoint (`select 1` on the same database handle, as /api/health) is served by
 * this process on the same event loop as the work, and a worker thread asks it every 25 ms over HTTP. Each row sends
 * one input the way the server handles it; the inputs have the probe's shapes at sizes a shared machine can bear.
 * On PostgreSQL a peer instance (bench/stall/peer.ts: a second process on the same database and Redis, running the
 * job worker) is asked too, and takes its share of the ingestion jobs.
 *
 *   npx tsx bench/stall/run.ts                    # both databases
 *   npx tsx bench/stall/run.ts pglite             # one
 *   npx tsx bench/stall/run.ts pglite "idle|unbroken"  # the rows whose input names one of these
 * STALL_CODE=before labels the rows that run this branch's code path "before": for a run of this file on a
 * checkout of main, where the same call takes main's path (the one-word rows).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import { deflateSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';

process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'almanac-stall-'));
process.env.LOG_LEVEL = 'silent';
// Both instances count on one limiter, as two instances behind a load balancer do.
process.env.REDIS_URL ??= 'redis://127.0.0.1:6379';
process.env.RATE_LIMIT_PREFIX = `stall-${Date.now()}`;

const { openPglite, openPostgres } = await import('@/db/client');
const { prepareDatabase, useDatabase } = await import('@/lib/platform/db');
const { newId } = await import('@/lib/platform/ids');
const { parseSource } = await import('@/lib/engine/parsers');
const { parseInWorker } = await import('@/lib/engine/parse-in-worker');
const { admitUpload, registerContentJobs, uploadDocument } = await import('@/lib/engine');
const { startJobWorker } = await import('@/lib/platform/jobs');
const { documents } = await import('@/db/schema');
const { decodePublisherAnswer } = await import('@/lib/routing/answer-task');
const { decodeAnswer } = await import('@/lib/routing/http-connector');
const { createScratchDatabase } = await import('@/test/support/scratch-database');

const MB = 1024 * 1024;
const kinds = process.argv[2] && process.argv[2] !== 'both' ? [process.argv[2]] : ['pglite', 'postgres'];
const only = process.argv[3];
const thisCode = process.env.STALL_CODE === 'before' ? 'before' : 'after';

// ── hostile inputs ───────────────────────────────────────────────────────────────────────────────────────────────
async function inflateBomb(inflated: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage();
  page.drawText('A page with a very large content stream.', { font: await doc.embedFont(StandardFonts.Helvetica) });
  const contents = deflateSync(Buffer.alloc(inflated, 0x20), { level: 9 });
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(contents, { Filter: 'FlateDecode', Length: contents.length })));
  return doc.save({ useObjectStreams: false });
}
const nestedHtml = (depth: number) => new TextEncoder().encode(`<html><body>${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}</body></html>`);
const nestedJson = (depth: number) =>
  Buffer.from(`{"answer":"Spring tides follow the full moon.","citations":[],"tokens_used":1,"meta":${'['.repeat(depth)}1${']'.repeat(depth)}}`);
function endlessBody(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  const chunk = new Uint8Array(MB).fill(0x61);
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

// ── the health endpoint and its sampler ──────────────────────────────────────────────────────────────────────────
const SAMPLER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
let stop = false;
parentPort.on('message', () => { stop = true; });
const ask = async (url, samples) => {
  while (!stop) {
    const started = performance.now();
    // A health check that never answers is recorded as 30 s rather than waited for.
    await new Promise((resolve) => http.get(url, { agent: false, timeout: 30000 }, (res) => { res.resume(); res.on('end', resolve); }).on('timeout', function () { this.destroy(); }).on('error', resolve));
    samples.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};
const all = workerData.urls.map(() => []);
Promise.all(workerData.urls.map((url, i) => ask(url, all[i]))).then(() => parentPort.postMessage(all));`;

interface Row {
  input: string;
  kind: string;
  version: 'before' | 'after';
  p50: number;
  p99: number;
  max: number;
  /** Health of the peer instance (PostgreSQL only). */
  peerP99: number | null;
  peerMax: number | null;
  /** `done`, or the sentence the work was refused with. */
  outcome: string;
  rssMb: number;
  rssGrowthMb: number;
  seconds: number;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

async function measure(urls: string[], work: () => Promise<unknown>): Promise<Omit<Row, 'input' | 'kind' | 'version'>> {
  const sampler = new Worker(SAMPLER, { eval: true, workerData: { urls } });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const startRss = process.memoryUsage().rss;
  let peakRss = startRss;
  const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const started = performance.now();
  // A refusal is the expected end of most rows (a budget, no text): its sentence is kept with the row.
  const outcome = await work().then(
    (result) => (result && typeof result === 'object' && 'settled' in result ? String(result.settled) : 'done'),
    (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 100),
  );
  const seconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 200));
  clearInterval(rssTimer);
  const [samples, peer] = await new Promise<number[][]>((resolve) => {
    sampler.once('message', resolve);
    sampler.postMessage('stop');
  });
  await sampler.terminate();
  const round = (n: number) => Math.round(n);
  return {
    p50: round(quantile(samples!, 0.5)),
    p99: round(quantile(samples!, 0.99)),
    max: round(Math.max(...samples!)),
    peerP99: peer ? round(quantile(peer, 0.99)) : null,
    peerMax: peer ? round(Math.max(...peer)) : null,
    outcome,
    rssMb: round(peakRss / MB),
    rssGrowthMb: round((peakRss - startRss) / MB),
    seconds: Math.round(seconds * 10) / 10,
  };
}

/** The peer instance on the same PostgreSQL database (bench/stall/peer.ts), once it serves health. */
async function startPeer(databaseUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/stall/peer.ts', databaseUrl], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('{')) return { child, url: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}/` };
  }
  throw new Error('the peer instance ended before it was ready');
}

async function runOn(kind: string): Promise<Row[]> {
  let handle;
  let drop = async () => {};
  let peer: { child: ChildProcess; url: string } | null = null;
  let databaseUrl = '';
  if (kind === 'pglite') handle = await openPglite();
  else {
    const scratch = await createScratchDatabase(`stall_${Date.now()}`);
    handle = await openPostgres(scratch.url, 10);
    drop = scratch.drop;
    databaseUrl = scratch.url;
  }
  await prepareDatabase(handle);
  useDatabase(handle);
  if (databaseUrl) peer = await startPeer(databaseUrl);
  // This instance takes ingestion jobs too, as a server does (instrumentation.ts).
  registerContentJobs();
  const worker = await startJobWorker();
  const { db } = handle;
  const server = http.createServer((_req, res) => {
    void db.execute(sql`select 1`).then(() => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  // A publisher with a hosted knowledge base, for the uploads.
  const userId = newId('usr');
  await db.execute(sql`insert into users (id, email, email_verified_at) values (${userId}, ${`${userId}@example.com`}, now())`);
  const publisherId = newId('pub');
  await db.execute(
    sql`insert into publishers (id, slug, name, owner_user_id) values (${publisherId}, ${`p-${userId.slice(-8).toLowerCase()}`}, 'Stall Press', ${userId})`,
  );
  const kbId = newId('kb');
  await db.execute(
    sql`insert into knowledge_bases (id, publisher_id, slug, title, summary, category) values (${kbId}, ${publisherId}, ${`kb-${kbId.slice(-8).toLowerCase()}`}, 'Stall', 's', 'education')`,
  );

  const bomb = await inflateBomb(40 * MB);
  const html = nestedHtml(20_000);
  const json = nestedJson(400_000);
  // Bytes that are not a PDF, named .pdf: their ingestion jobs fail at once, so that the rows after this one measure
  // their own input. (2 MB of one unbroken word named .txt holds the ingesting instance's event loop for minutes: see
  // README.md.)
  const uploadBytes = new Uint8Array(2 * MB).fill(0x61);
  const storeInRow = (i: number) =>
    db.transaction(async (tx) => {
      const id = newId('doc');
      await tx.execute(sql`insert into documents (id, kb_id, source_name, title, mime_type, content_hash, byte_size, status)
        values (${id}, ${kbId}, ${`row-${i}.txt`}, 'row', 'text/plain', 'hash', ${uploadBytes.length}, 'queued')`);
      await tx.execute(
        sql`insert into document_sources (document_id, kb_id, bytes, mime_type) values (${id}, ${kbId}, ${Buffer.from(uploadBytes)}, 'text/plain')`,
      );
    });
  /** Uploads one file and waits until its ingestion job has settled it (ready or failed), on whichever instance. */
  const uploadAndIngest = async (name: string, bytes: Uint8Array) => {
    const stored = await uploadDocument(db, userId, kbId, { name, bytes });
    if (!stored.ok) throw new Error(stored.message);
    for (const deadline = Date.now() + 180_000; Date.now() < deadline;) {
      const [doc] = await db.select({ status: documents.status, error: documents.errorMessage }).from(documents).where(eq(documents.id, stored.document.id));
      if (doc?.status === 'ready' || doc?.status === 'failed') return { settled: `${doc.status}${doc.error ? `: ${doc.error}` : ''}` };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${name} was not ingested within 3 minutes`);
  };
  /** Uploads `files` text files of one unbroken word of `bytes` each, and waits until every one has settled. */
  const oneWordUploads = async (files: number, bytes: number) => {
    const settled = await Promise.all(
      Array.from({ length: files }, (_, i) => uploadAndIngest(`word-${bytes}-${i}.txt`, new Uint8Array(bytes).fill(0x61 + (i % 26)))),
    );
    const counts = new Map<string, number>();
    for (const s of settled) counts.set(s.settled.slice(0, 60), (counts.get(s.settled.slice(0, 60)) ?? 0) + 1);
    return { settled: [...counts].map(([what, n]) => `${n}× ${what}`).join('; ') };
  };
  const { POST: signInPost } = await import('@/app/api/auth/[...nextauth]/route');
  const posted = (body: ReadableStream<Uint8Array>) =>
    new Request('http://localhost:3000/api/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      duplex: 'half',
    } as RequestInit);

  const cases: [string, 'before' | 'after', () => Promise<unknown>][] = [
    ['idle', 'after', async () => new Promise((resolve) => setTimeout(resolve, 2_000))],
    ['PDF inflating to 40 MB', 'before', () => parseSource('pdf', bomb, 'bomb.pdf')],
    ['PDF inflating to 40 MB', 'after', () => parseInWorker('pdf', bomb, 'bomb.pdf')],
    ['HTML nested 20,000 deep (220 KB)', 'before', () => parseSource('html', html, 'deep.html')],
    ['HTML nested 20,000 deep (220 KB)', 'after', () => parseInWorker('html', html, 'deep.html')],
    // main stored the bytes in their row, in the upload's transaction.
    ['20 uploads × 2 MB', 'before', () => Promise.all(Array.from({ length: 20 }, (_, i) => storeInRow(i)))],
    // As the upload route does: admitted first (two at a time per account), the rest refused before their body is read.
    [
      '20 uploads × 2 MB',
      'after',
      () =>
        Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const admitted = await admitUpload(userId);
            if (!admitted.ok) return;
            try {
              await uploadDocument(db, userId, kbId, { name: `part-${i}.pdf`, bytes: uploadBytes });
            } finally {
              admitted.release();
            }
          }),
        ),
    ],
    // Through the queue, as an upload is ingested: on PostgreSQL either instance may take the job.
    ['PDF inflating to 40 MB, uploaded and ingested by a job', 'after', () => uploadAndIngest('bomb.pdf', bomb)],
    ['HTML nested 20,000 deep, uploaded and ingested by a job', 'after', () => uploadAndIngest('deep.html', html)],
    ['100 MB body to the sign-in callback', 'before', () => posted(endlessBody(100 * MB)).text()],
    [
      '100 MB body to the sign-in callback',
      'after',
      () => signInPost(posted(endlessBody(100 * MB)), { params: Promise.resolve({ nextauth: ['callback', 'credentials'] }) }),
    ],
    [
      'publisher answer: 800 KB nested JSON ×10',
      'before',
      async () => {
        for (let i = 0; i < 10; i++) decodePublisherAnswer(json);
      },
    ],
    ['publisher answer: 800 KB nested JSON ×10', 'after', () => Promise.all(Array.from({ length: 10 }, () => decodeAnswer(json)))],
    // The finding of the second run (README.md): text files of one unbroken word, uploaded and ingested by jobs. Main's
    // path is this same call on a checkout of main (STALL_CODE=before): its chunking and token counting on the event
    // loop's thread, inside the document's transaction.
    ['20 uploads × 32 KB of one unbroken word (.txt), ingested by jobs', thisCode, () => oneWordUploads(20, 32 * 1024)],
    ['20 uploads × 2 MB of one unbroken word (.txt), ingested by jobs', thisCode, () => oneWordUploads(20, 2 * MB)],
  ];
  // Unmeasured: one ordinary document through upload, job, worker and calibration, so that no row pays for loading
  // those modules (tsx compiles them on the event loop's thread; a built server has them bundled).
  await uploadAndIngest('warm-up.txt', new TextEncoder().encode('Warm up\n\nThe tide rises at dawn over the harbour wall.'));
  const rows: Row[] = [];
  for (const [input, version, work] of cases) {
    if (only && !only.split('|').some((term) => input.includes(term))) continue;
    const row = { input, kind, version, ...(await measure(peer ? [url, peer.url] : [url], work)) };
    console.log(JSON.stringify(row));
    rows.push(row);
  }
  server.close();
  await worker.stop();
  if (peer) {
    const exited = new Promise((resolve) => peer!.child.once('exit', resolve));
    peer.child.kill('SIGTERM');
    await exited;
  }
  await handle.close();
  await drop();
  return rows;
}

const all: Row[] = [];
for (const kind of kinds) all.push(...(await runOn(kind)));
console.log(
  '\n| input | database | code | health p50 ms | p99 ms | max ms | peer p99 ms | peer max ms | RSS growth MB | work s |\n|---|---|---|---|---|---|---|---|---|---|',
);
const orDash = (n: number | null) => (n === null ? '–' : n);
for (const r of all)
  console.log(
    `| ${r.input} | ${r.kind} | ${r.version} | ${r.p50} | ${r.p99} | ${r.max} | ${orDash(r.peerP99)} | ${orDash(r.peerMax)} | ${r.rssGrowthMb} | ${r.seconds} |`,
  );
process.exit(0);

/**
 * Stall monitor (bench/stall/README.md): how long a health check waits while one hostile input is handled, before
 * (the code paths main had: parsing on the event loop's thread, bodies read whole, bytes stored in a PGlite row, a
 * publisher's JSON parsed inline) and after (this branch's paths), on the embedded database and on PostgreSQL.
 *
 * In-process and scaled down: a health endpoint (`select 1` on the same database handle, as /api/health) is served by
 * this process on the same event loop as the work, and a worker thread asks it every 25 ms over HTTP. Each row sends
 * one input the way the server handles it; the inputs have the probe's shapes at sizes a shared machine can bear.
 *
 *   npx tsx bench/stall/run.ts            # both databases
 *   npx tsx bench/stall/run.ts pglite     # one
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { deflateSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';

process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'almanac-stall-'));
process.env.LOG_LEVEL = 'silent';

const { openPglite, openPostgres } = await import('@/db/client');
const { prepareDatabase, useDatabase } = await import('@/lib/platform/db');
const { newId } = await import('@/lib/platform/ids');
const { parseSource } = await import('@/lib/engine/parsers');
const { parseInWorker } = await import('@/lib/engine/parse-in-worker');
const { admitUpload, uploadDocument } = await import('@/lib/engine');
const { decodePublisherAnswer } = await import('@/lib/routing/answer-task');
const { decodeAnswer } = await import('@/lib/routing/http-connector');
const { createScratchDatabase } = await import('@/test/support/scratch-database');

const MB = 1024 * 1024;
const kinds = process.argv[2] ? [process.argv[2]] : ['pglite', 'postgres'];

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
(async () => {
  const samples = [];
  while (!stop) {
    const started = performance.now();
    await new Promise((resolve) => http.get(workerData.url, (res) => { res.resume(); res.on('end', resolve); }).on('error', resolve));
    samples.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  parentPort.postMessage(samples);
})();`;

interface Row {
  input: string;
  kind: string;
  version: 'before' | 'after';
  p50: number;
  p99: number;
  max: number;
  rssMb: number;
  rssGrowthMb: number;
  seconds: number;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

async function measure(url: string, work: () => Promise<unknown>): Promise<Omit<Row, 'input' | 'kind' | 'version'>> {
  const sampler = new Worker(SAMPLER, { eval: true, workerData: { url } });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const startRss = process.memoryUsage().rss;
  let peakRss = startRss;
  const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const started = performance.now();
  await work().catch(() => {});
  const seconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 200));
  clearInterval(rssTimer);
  const samples = await new Promise<number[]>((resolve) => {
    sampler.once('message', resolve);
    sampler.postMessage('stop');
  });
  await sampler.terminate();
  const round = (n: number) => Math.round(n);
  return { p50: round(quantile(samples, 0.5)), p99: round(quantile(samples, 0.99)), max: round(Math.max(...samples)), rssMb: round(peakRss / MB), rssGrowthMb: round((peakRss - startRss) / MB), seconds: Math.round(seconds * 10) / 10 };
}

async function runOn(kind: string): Promise<Row[]> {
  let handle;
  let drop = async () => {};
  if (kind === 'pglite') handle = await openPglite();
  else {
    const scratch = await createScratchDatabase(`stall_${Date.now()}`);
    handle = await openPostgres(scratch.url, 10);
    drop = scratch.drop;
  }
  await prepareDatabase(handle);
  useDatabase(handle);
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
  await db.execute(sql`insert into publishers (id, slug, name, owner_user_id) values (${publisherId}, ${`p-${userId.slice(-8).toLowerCase()}`}, 'Stall Press', ${userId})`);
  const kbId = newId('kb');
  await db.execute(sql`insert into knowledge_bases (id, publisher_id, slug, title, summary, category) values (${kbId}, ${publisherId}, ${`kb-${kbId.slice(-8).toLowerCase()}`}, 'Stall', 's', 'education')`);

  const bomb = await inflateBomb(40 * MB);
  const html = nestedHtml(20_000);
  const json = nestedJson(400_000);
  const uploadBytes = new Uint8Array(2 * MB).fill(0x61);
  const storeInRow = (i: number) =>
    db.transaction(async (tx) => {
      const id = newId('doc');
      await tx.execute(sql`insert into documents (id, kb_id, source_name, title, mime_type, content_hash, byte_size, status)
        values (${id}, ${kbId}, ${`row-${i}.txt`}, 'row', 'text/plain', 'hash', ${uploadBytes.length}, 'queued')`);
      await tx.execute(sql`insert into document_sources (document_id, kb_id, bytes, mime_type) values (${id}, ${kbId}, ${Buffer.from(uploadBytes)}, 'text/plain')`);
    });
  const { POST: signInPost } = await import('@/app/api/auth/[...nextauth]/route');
  const posted = (body: ReadableStream<Uint8Array>) =>
    new Request('http://localhost:3000/api/auth/callback/credentials', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, duplex: 'half' } as RequestInit);

  const cases: [string, 'before' | 'after', () => Promise<unknown>][] = [
    ['idle', 'after', async () => new Promise((resolve) => setTimeout(resolve, 2_000))],
    ['PDF inflating to 40 MB', 'before', () => parseSource('pdf', bomb, 'bomb.pdf')],
    ['PDF inflating to 40 MB', 'after', () => parseInWorker('pdf', bomb, 'bomb.pdf')],
    ['HTML nested 20,000 deep (220 KB)', 'before', () => parseSource('html', html, 'deep.html')],
    ['HTML nested 20,000 deep (220 KB)', 'after', () => parseInWorker('html', html, 'deep.html')],
    // main stored the bytes in their row, in the upload's transaction.
    ['20 uploads × 2 MB', 'before', () => Promise.all(Array.from({ length: 20 }, (_, i) => storeInRow(i)))],
    // As the upload route does: admitted first (two at a time per account), the rest refused before their body is read.
    ['20 uploads × 2 MB', 'after', () =>
      Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const admitted = await admitUpload(userId);
          if (!admitted.ok) return;
          try {
            await uploadDocument(db, userId, kbId, { name: `part-${i}.txt`, bytes: uploadBytes });
          } finally {
            admitted.release();
          }
        }),
      )],
    ['100 MB body to the sign-in callback', 'before', () => posted(endlessBody(100 * MB)).text()],
    ['100 MB body to the sign-in callback', 'after', () => signInPost(posted(endlessBody(100 * MB)), { params: Promise.resolve({ nextauth: ['callback', 'credentials'] }) })],
    ['publisher answer: 800 KB nested JSON ×10', 'before', async () => {
      for (let i = 0; i < 10; i++) decodePublisherAnswer(json);
    }],
    ['publisher answer: 800 KB nested JSON ×10', 'after', () => Promise.all(Array.from({ length: 10 }, () => decodeAnswer(json)))],
  ];
  const rows: Row[] = [];
  for (const [input, version, work] of cases) {
    const row = { input, kind, version, ...(await measure(url, work)) };
    console.log(JSON.stringify(row));
    rows.push(row);
  }
  server.close();
  await handle.close();
  await drop();
  return rows;
}

const all: Row[] = [];
for (const kind of kinds) all.push(...(await runOn(kind)));
console.log('\n| input | database | code | health p50 ms | p99 ms | max ms | RSS growth MB | work s |\n|---|---|---|---|---|---|---|---|');
for (const r of all) console.log(`| ${r.input} | ${r.kind} | ${r.version} | ${r.p50} | ${r.p99} | ${r.max} | ${r.rssGrowthMb} | ${r.seconds} |`);
process.exit(0);

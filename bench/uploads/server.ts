/**
 * The server side of bench/uploads (README.md there): one process, one fresh database, twenty publishers with a
 * hosted knowledge base each, a health endpoint that does what /api/health does (`select 1` on the same handle), and
 * POST /upload/<n> storing the multipart body for publisher n the way `before` (main's route: the body read whole,
 * parsed by `Response.formData()`, the file copied out) or `after` (the route now: streamed to disk by
 * receiveUploadedFile) does it. Prints one JSON line, `{"port": …}`, when it is ready.
 *
 *   npx tsx bench/uploads/server.ts before|after [pglite|postgres]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';

const variant = process.argv[2];
const kind = process.argv[3] ?? 'pglite';
if (variant !== 'before' && variant !== 'after') throw new Error('usage: server.ts before|after [pglite|postgres]');
process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'almanac-bench-uploads-'));
process.env.LOG_LEVEL = 'silent';
process.env.UPLOADS_PER_HOUR = '1000';

const { openPglite, openPostgres } = await import('@/db/client');
const { prepareDatabase, useDatabase } = await import('@/lib/platform/db');
const { getEnv } = await import('@/lib/platform/env');
const { startJobQueue } = await import('@/lib/platform/jobs');
const { newId } = await import('@/lib/platform/ids');
const { readBodyWithin } = await import('@/lib/platform/http');
const { MULTIPART_OVERHEAD, receiveUploadedFile } = await import('@/lib/platform/multipart-upload');
const { admitUpload, sourceNameOf, uploadDocument, uploadStagingDirectory } = await import('@/lib/engine');
const { createScratchDatabase } = await import('@/test/support/scratch-database');

export const ACCOUNTS = 20;

let drop = async () => {};
let handle;
if (kind === 'pglite') handle = await openPglite();
else {
  const scratch = await createScratchDatabase(`bench_uploads_${Date.now()}`);
  handle = await openPostgres(scratch.url, 10);
  drop = scratch.drop;
}
await prepareDatabase(handle);
useDatabase(handle);
// Send-only: the uploads' ingestion jobs are queued, not run, so that storing them is what is measured.
await startJobQueue('enqueue');
const { db } = handle;

// Twenty publishers, so that the per-account limit of two uploads at a time lets all twenty in at once.
const owners: { userId: string; kbId: string }[] = [];
for (let i = 0; i < ACCOUNTS; i++) {
  const userId = newId('usr');
  const publisherId = newId('pub');
  const kbId = newId('kb');
  const tail = userId.slice(-8).toLowerCase();
  await db.execute(sql`insert into users (id, email, email_verified_at) values (${userId}, ${`${userId}@example.com`}, now())`);
  await db.execute(sql`insert into publishers (id, slug, name, owner_user_id) values (${publisherId}, ${`p-${tail}`}, ${`Press ${i}`}, ${userId})`);
  await db.execute(
    sql`insert into knowledge_bases (id, publisher_id, slug, title, summary, category) values (${kbId}, ${publisherId}, ${`kb-${tail}`}, 'Uploads', 's', 'education')`,
  );
  owners.push({ userId, kbId });
}

/** main's route body: read whole within the limit, parsed by undici's FormData, the file copied out of it. */
async function storeBefore(request: Request, owner: { userId: string; kbId: string }): Promise<number> {
  const max = getEnv().MAX_UPLOAD_BYTES;
  const bytes = await readBodyWithin(request, max + MULTIPART_OVERHEAD);
  if (bytes === null) return 413;
  const form = await new Response(bytes, { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData();
  const file = form.get('file');
  if (!file || typeof file === 'string') return 400;
  const result = await uploadDocument(db, owner.userId, owner.kbId, { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()), type: file.type });
  return result.ok ? 202 : 400;
}

/** The route's body now (app/publish/listings/[kbId]/content/documents/route.ts). */
async function storeAfter(request: Request, owner: { userId: string; kbId: string }): Promise<number> {
  const file = await receiveUploadedFile(request, {
    field: 'file',
    maxBytes: getEnv().MAX_UPLOAD_BYTES,
    directory: await uploadStagingDirectory(),
    nameOf: sourceNameOf,
  });
  try {
    const result = await uploadDocument(db, owner.userId, owner.kbId, { name: file.name, type: file.type, staged: file });
    return result.ok ? 202 : 400;
  } finally {
    await file.discard();
  }
}

const store = variant === 'before' ? storeBefore : storeAfter;

const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    void db.execute(sql`select 1`).then(() => res.writeHead(200).end('ok'));
    return;
  }
  const owner = owners[Number(req.url?.split('/').pop())];
  if (!owner) return void res.writeHead(404).end();
  // As Next hands a route handler its request: the socket's body as a web stream.
  const request = new Request(`http://localhost${req.url}`, {
    method: 'POST',
    headers: req.headers as Record<string, string>,
    body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  void (async () => {
    const admitted = await admitUpload(owner.userId);
    if (!admitted.ok) return res.writeHead(429).end();
    try {
      res.writeHead(await store(request, owner)).end();
    } catch (error) {
      if (!(error as { status?: number }).status) console.error(error);
      res.writeHead((error as { status?: number }).status ?? 500).end();
    } finally {
      admitted.release();
    }
  })();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));

process.on('SIGTERM', () => {
  server.close();
  void handle
    .close()
    .then(drop)
    .finally(() => process.exit(0));
});

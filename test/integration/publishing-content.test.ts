import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Database, DatabaseHandle } from '@/db/client';
import { documents, knowledgeBases, publishers } from '@/db/schema';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import {
  admitUpload,
  CALIBRATE_DEBOUNCE_SECONDS,
  CALIBRATE_QUEUE,
  deleteDocumentForOwner,
  INGEST_QUEUE,
  REINDEX_QUEUE,
  listDocumentsForOwner,
  parsePdfSource,
  registerContentJobs,
  renderPdfFromSource,
  requestReindex,
  runIngestJob,
  uploadDocument,
  uploadStagingDirectory,
} from '@/lib/engine';
import { getEnv, resetEnvForTesting } from '@/lib/platform/env';
import { newId } from '@/lib/platform/ids';
import { withEventLoopLag } from '../support/event-loop-lag';
import { startEarlyInWindow } from '../support/debounce-window';
import { defineJobHandler, runDueJobs } from '@/lib/platform/jobs';
import { createTestDatabase, testDbKind } from '../support/db';
import { createUser } from './subscriptions-fixtures';

/** The documents route runs as Next runs it, signed in as whoever `session.userId` names. */
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock('@/lib/accounts/session', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/accounts/session')>()),
  getSessionUser: async () => (session.userId ? { id: session.userId, email: 'owner@example.com', name: null } : null),
}));

/**
 * Hosted content from the console (lib/engine/uploads.ts): an upload is stored and queued in one transaction, a
 * background job ingests it (queued → ingesting → ready | failed), and ownership is checked on every action. The
 * process tests (PostgreSQL only: PGlite is one process's database) run the worker in child processes: kill -9 during
 * an ingestion, and two instances draining one queue.
 */

let handle: DatabaseHandle & { url?: string };
let db: Database;
let owner: string;
let stranger: string;

const enc = (s: string) => new TextEncoder().encode(s);
const text = (topic: string) => enc(`# ${topic}\n\n${`The ${topic} guide explains ${topic} in plain words. `.repeat(12)}`);

async function newHostedKb(): Promise<string> {
  const [pub] = await db.select().from(publishers).where(eq(publishers.ownerUserId, owner));
  const kbId = newId('kb');
  await db
    .insert(knowledgeBases)
    .values({ id: kbId, publisherId: pub!.id, slug: `kb-${kbId.slice(-8).toLowerCase()}`, title: 'Content test', summary: 's', category: 'education' });
  return kbId;
}

const docStatus = async (id: string) => (await db.select().from(documents).where(eq(documents.id, id)))[0];

beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
  owner = await createUser(db);
  stranger = await createUser(db);
  await db.insert(publishers).values({ id: newId('pub'), slug: `content-${owner.slice(-6).toLowerCase()}`, name: 'Content Press', ownerUserId: owner });
  await db.insert(publishers).values({ id: newId('pub'), slug: `other-${stranger.slice(-6).toLowerCase()}`, name: 'Other Press', ownerUserId: stranger });
  registerContentJobs(async () => db);
});

describe('console content', () => {
  it('an upload is queued at once and becomes ready (a PDF with its page count) after the job runs', async () => {
    const kbId = await newHostedKb();
    const pdf = await renderPdfFromSource(
      parsePdfSource('# Tide Tables\nHow tides rise.\n---page---\n## Springs\nSpring tides are large.\n---page---\n## Neaps\nNeap tides are small.'),
    );
    const uploaded = await Promise.all([
      uploadDocument(db, owner, kbId, { name: 'tides.pdf', bytes: pdf, type: 'application/pdf' }),
      uploadDocument(db, owner, kbId, { name: 'knots.md', bytes: text('knots') }),
      uploadDocument(db, owner, kbId, { name: 'C:\\docs\\lights.txt', bytes: text('lights') }),
    ]);
    expect(uploaded.map((u) => (u.ok ? [u.document.name, u.document.status] : u.code))).toEqual([
      ['tides.pdf', 'queued'],
      ['knots.md', 'queued'],
      ['lights.txt', 'queued'],
    ]);
    expect(await runDueJobs({ queues: [INGEST_QUEUE], limit: 10 })).toBe(3);
    const listed = await listDocumentsForOwner(db, owner, kbId);
    if (!listed.ok) throw new Error(listed.message);
    expect(listed.documents.map((d) => [d.name, d.status, d.pageCount, d.chunkCount > 0, d.error])).toEqual([
      ['knots.md', 'ready', null, true, null],
      ['lights.txt', 'ready', null, true, null],
      ['tides.pdf', 'ready', 3, true, null],
    ]);
    const [kb] = await db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
    expect(kb!.documentsCount).toBe(3);
  });

  it('refuses what the browser should have refused, and a file that cannot be read fails with the reason', async () => {
    const kbId = await newHostedKb();
    const big = new Uint8Array(21 * 1024 * 1024);
    const cases = [
      { name: 'huge.txt', bytes: big, code: 'payload_too_large' },
      { name: 'empty.md', bytes: new Uint8Array(), code: 'invalid_request' },
      { name: 'sheet.xlsx', bytes: enc('x'), code: 'unsupported_media_type' },
    ];
    for (const c of cases) {
      const result = await uploadDocument(db, owner, kbId, { name: c.name, bytes: c.bytes });
      expect(result.ok ? 'ok' : result.code, c.name).toBe(c.code);
    }
    const huge = await uploadDocument(db, owner, kbId, { name: 'huge.txt', bytes: big });
    expect(huge.ok ? 'ok' : huge.message).toBe('“huge.txt” is 21 MB; the limit is 20 MB per file.');
    const broken = await uploadDocument(db, owner, kbId, { name: 'broken.pdf', bytes: enc('not a pdf at all') });
    expect(broken.ok).toBe(true);
    await runDueJobs({ queues: [INGEST_QUEUE] });
    const doc = await docStatus(broken.ok ? broken.document.id : '');
    expect(doc).toMatchObject({ status: 'failed' });
    expect(doc!.errorMessage).toMatch(/pdf/i);
  });

  it('a replacement that cannot be read fails with the reason, and the last good version keeps its passages', async () => {
    const kbId = await newHostedKb();
    const first = await uploadDocument(db, owner, kbId, {
      name: 'tides.html',
      bytes: enc('<h1>Tides</h1><p>Spring tides follow the new and the full moon by about two days.</p>'),
    });
    await runDueJobs({ queues: [INGEST_QUEUE] });
    const good = await docStatus(first.ok ? first.document.id : '');
    expect(good).toMatchObject({ status: 'ready' });
    expect(good!.chunkCount).toBeGreaterThan(0);
    const chunksOf = async (id: string) =>
      ((await db.execute(sql`select count(*)::int as n from chunks where document_id = ${id}`)).rows[0] as { n: number }).n;
    // The same name again, with a page that holds no text once its markup is gone: its ingestion fails.
    const second = await uploadDocument(db, owner, kbId, { name: 'tides.html', bytes: enc('<html><body><script>nothing to read</script></body></html>') });
    expect(second.ok).toBe(true);
    await runDueJobs({ queues: [INGEST_QUEUE] });
    const after = await docStatus(good!.id);
    expect(after).toMatchObject({ status: 'failed', chunkCount: good!.chunkCount });
    expect(after!.errorMessage).toBeTruthy();
    expect(await chunksOf(good!.id)).toBe(good!.chunkCount);
  });

  it('replace keeps the document id and re-ingests; delete and reindex work; strangers get not_found for everything', async () => {
    // Both ingestions and the deletion below fall in one debounce window (the test takes about a second). A calibration
    // itself (240 searches: seconds on a loaded machine) is tested in engine-gate-calibration.test.ts; here it is only
    // counted, so that it cannot carry the test past the window.
    const calibrated: unknown[] = [];
    defineJobHandler(CALIBRATE_QUEUE, async (data) => void calibrated.push(data.kbId));
    onTestFinished(() => registerContentJobs(async () => db));
    await startEarlyInWindow(CALIBRATE_DEBOUNCE_SECONDS);
    const kbId = await newHostedKb();
    const first = await uploadDocument(db, owner, kbId, { name: 'guide.md', bytes: text('anchors') });
    await runDueJobs({ queues: [INGEST_QUEUE] });
    const second = await uploadDocument(db, owner, kbId, { name: 'guide.md', bytes: text('moorings and anchors') });
    expect(second.ok && first.ok && second.document.id === first.document.id).toBe(true);
    expect((await docStatus(first.ok ? first.document.id : ''))!.status).toBe('queued');
    await runDueJobs({ queues: [INGEST_QUEUE] });
    const replaced = await docStatus(first.ok ? first.document.id : '');
    expect(replaced).toMatchObject({ status: 'ready', title: 'moorings and anchors' });
    const chunkRows = await db.execute(sql`select count(*)::int as n from chunks where document_id = ${replaced!.id}`);
    expect((chunkRows.rows[0] as { n: number }).n).toBe(replaced!.chunkCount);

    const denials = [
      await uploadDocument(db, stranger, kbId, { name: 'x.md', bytes: text('x') }),
      await listDocumentsForOwner(db, stranger, kbId),
      await deleteDocumentForOwner(db, stranger, kbId, replaced!.id),
      await requestReindex(db, stranger, kbId),
    ];
    expect(denials.map((d) => (d.ok ? 'ok' : d.code))).toEqual(['not_found', 'not_found', 'not_found', 'not_found']);

    // Each ingestion that changed the index asks for the relevance gate to be measured again (gate-calibration.ts),
    // debounced: the first runs now, a second within the window waits for the next one, and later ones add nothing.
    const calibrations = async () =>
      (
        await db.execute(
          sql`select count(*) filter (where start_after <= now())::int as due, count(*) filter (where start_after > now())::int as waiting
              from pgboss.job where name = ${CALIBRATE_QUEUE} and data->>'kbId' = ${kbId} and state = 'created'`,
        )
      ).rows[0] as { due: number; waiting: number };
    expect(await calibrations()).toEqual({ due: 1, waiting: 1 });
    await runDueJobs({ queues: [CALIBRATE_QUEUE], limit: 100 });
    expect(calibrated.filter((id) => id === kbId)).toEqual([kbId]);
    expect(await calibrations()).toEqual({ due: 0, waiting: 1 });
    expect(await requestReindex(db, owner, kbId)).toEqual({ ok: true });
    expect(await runDueJobs({ queues: [REINDEX_QUEUE] })).toBe(1);
    expect(await deleteDocumentForOwner(db, owner, kbId, replaced!.id)).toEqual({ ok: true });
    // The waiting one starts after the deletion: it measures the index without the document.
    expect(await calibrations()).toEqual({ due: 0, waiting: 1 });
    expect(await docStatus(replaced!.id)).toBeUndefined();
    expect((await db.execute(sql`select count(*)::int as n from document_sources where document_id = ${replaced!.id}`)).rows[0]).toEqual({ n: 0 });
  });
});

describe('upload defects from QA', () => {
  it('a duplicate of another document names it by its file name, never by an internal id', async () => {
    const kbId = await newHostedKb();
    const bytes = text('varroa treatment');
    await uploadDocument(db, owner, kbId, { name: 'varroa-treatment.txt', bytes });
    await runDueJobs({ queues: [INGEST_QUEUE] });
    const copy = await uploadDocument(db, owner, kbId, { name: 'copy of varroa.txt', bytes });
    await runDueJobs({ queues: [INGEST_QUEUE] });
    const doc = await docStatus(copy.ok ? copy.document.id : '');
    expect(doc).toMatchObject({ status: 'failed', errorMessage: 'The same content is already here as “varroa-treatment.txt”.' });
    expect(doc!.errorMessage).not.toMatch(/doc_/);
  });

  it('a very long file name is shortened within 200 characters and keeps its extension, and the file is read by it', async () => {
    const kbId = await newHostedKb();
    const up = await uploadDocument(db, owner, kbId, { name: `${'a'.repeat(240)}.txt`, bytes: text('long names') });
    if (!up.ok) throw new Error(up.message);
    expect(up.document.name).toBe(`${'a'.repeat(196)}.txt`);
    await runDueJobs({ queues: [INGEST_QUEUE] });
    expect(await docStatus(up.document.id)).toMatchObject({ status: 'ready', sourceName: `${'a'.repeat(196)}.txt` });
  });

  it('a Latin-1 .txt becomes ready and keeps its accents; binary data named .txt fails with what to do', async () => {
    const kbId = await newHostedKb();
    const latin1 = new Uint8Array(Buffer.from('Cafés of Lisbon\n\nThe café on the corner serves a bica for one euro, with a pastel de nata.\n', 'latin1'));
    const up = await uploadDocument(db, owner, kbId, { name: 'cafes.txt', bytes: latin1 });
    const binary = await uploadDocument(db, owner, kbId, {
      name: 'photo.txt',
      bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]),
    });
    if (!up.ok || !binary.ok) throw new Error('upload refused');
    await runDueJobs({ queues: [INGEST_QUEUE] });
    expect(await docStatus(up.document.id)).toMatchObject({ status: 'ready', title: 'Cafés of Lisbon', errorMessage: null });
    const chunks = (await db.execute(sql`select content from chunks where document_id = ${up.document.id}`)).rows as { content: string }[];
    expect(chunks.map((c) => c.content).join(' ')).toContain('The café on the corner');
    const failed = await docStatus(binary.document.id);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed!.errorMessage).toMatch(/Save .* as UTF-8 text and upload it again\./);
  });

  describe('POST /publish/listings/[kbId]/content/documents', () => {
    const MB = 1024 * 1024;
    /**
     * The upload as the server receives it: bytes, not a FormData stream. A route that refuses early cancels the body,
     * and undici's FormData encoder then writes into the closed stream (an unhandled rejection on Node 24); a browser's
     * body arrives as bytes from the network.
     */
    const uploadRequest = async (kbId: string, body: FormData, headers: Record<string, string> = {}) => {
      const url = `http://localhost:3000/publish/listings/${kbId}/content/documents`;
      const encoded = new Request(url, { method: 'POST', body });
      const type = encoded.headers.get('content-type')!;
      return new Request(url, {
        method: 'POST',
        headers: { origin: 'http://localhost:3000', 'content-type': type, ...headers },
        body: await encoded.arrayBuffer(),
      });
    };
    const post = async (kbId: string, body: FormData, headers: Record<string, string> = {}) => {
      const { POST } = await import('@/app/publish/listings/[kbId]/content/documents/route');
      const request = await uploadRequest(kbId, body, headers);
      session.userId = owner;
      try {
        const response = await POST(request, {
          params: Promise.resolve({ kbId }),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      } finally {
        session.userId = null;
      }
    };
    const form = (name: string, bytes: Uint8Array<ArrayBuffer>) => {
      const body = new FormData();
      body.append('file', new Blob([bytes]), name);
      return body;
    };

    it('a file over the limit is refused with 413, a sentence with its name and size, and the limit', async () => {
      const kbId = await newHostedKb();
      const answer = await post(kbId, form('big.pdf', new Uint8Array(20 * MB + 10 * 1024)));
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({ error: 'payload_too_large', message: '“big.pdf” is 20.1 MB; the limit is 20 MB per file.', limit_bytes: 20 * MB });
    });

    it('a body with no Content-Length stops being read at the limit', async () => {
      const kbId = await newHostedKb();
      // A Request built from FormData declares no length, as a chunked upload does not.
      const answer = await post(kbId, form('huge.pdf', new Uint8Array(Math.round(30.2 * MB))));
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({
        error: 'payload_too_large',
        message: 'The upload is larger than the limit of 20 MB per file.',
        limit_bytes: 20 * MB,
      });
    });

    it('a body announced as too large is refused before it is read, with the limit', async () => {
      const kbId = await newHostedKb();
      const answer = await post(kbId, form('small.md', text('tiny')), { 'content-length': String(31 * MB) });
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({ error: 'payload_too_large', message: 'The upload is 31 MB; the limit is 20 MB per file.', limit_bytes: 20 * MB });
    });

    it('twenty parallel uploads from one account: two at a time are taken, the rest refused at once, and the event loop stays free', async () => {
      const kbId = await newHostedKb();
      const { POST } = await import('@/app/publish/listings/[kbId]/content/documents/route');
      session.userId = owner;
      // The probe sent 19 MB twenty times; 4 MB keeps the shape on a shared test machine.
      // Files that are not PDFs: their ingestion fails at once, so the queue drains quickly; storing them is measured.
      const bodies = Array.from({ length: 20 }, (_, i) => form(`part-${i}.pdf`, enc(`part ${i} ${'x'.repeat(4 * MB)}`)));
      const requests = await Promise.all(bodies.map((body) => uploadRequest(kbId, body)));
      const send = (request: Request) => POST(request, { params: Promise.resolve({ kbId }) });
      let responses: Response[];
      let worstMs: number;
      try {
        ({ result: responses, worstMs } = await withEventLoopLag(() => Promise.all(requests.map(send))));
      } finally {
        session.userId = null;
        // Drained whatever happens: the process tests below start workers that take whatever is queued.
        await runDueJobs({ queues: [INGEST_QUEUE], limit: 20 });
      }
      const statuses = responses.map((r) => r.status);
      expect(
        statuses.every((s) => s === 202 || s === 429),
        statuses.join(' '),
      ).toBe(true);
      expect(statuses.filter((s) => s === 202).length).toBeGreaterThanOrEqual(2);
      const refused = responses.find((r) => r.status === 429)!;
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toMatchObject({
        error: 'rate_limit_exceeded',
        message: 'An account may send 2 files at once; wait for an upload to finish, then try again.',
        retry_after: 1,
      });
      // Before the bytes went to a file, PGlite held the event loop about 0.7 s per MB written (3 s for this upload).
      // The bound is loose because this machine's scheduling delays count too; bench/stall measures health latency.
      expect(worstMs).toBeLessThan(1_500);
    });

    it('an upload is streamed to its place: on the embedded database its file is moved, never read; nothing is left behind', async () => {
      const kbId = await newHostedKb();
      const staging = await uploadStagingDirectory();
      const leftovers = async () => (existsSync(staging) ? await readdir(staging) : []);
      const body = 'Spring tides follow the new and the full moon. '.repeat(2_000);
      const answer = await post(kbId, form('tides.txt', enc(body)));
      expect(answer.status).toBe(202);
      const id = (answer.body.document as { id: string }).id;
      const [row] = (await db.execute(sql`select length(bytes)::int as n from document_sources where document_id = ${id}`)).rows as { n: number }[];
      const file = path.join(path.resolve(getEnv().DATA_DIR), 'sources', `${id}.bin`);
      if (testDbKind() === 'pglite') {
        expect(row!.n).toBe(0);
        expect(await readFile(file, 'utf8')).toBe(body);
      } else {
        expect(row!.n).toBe(Buffer.byteLength(body));
      }
      expect((await post(kbId, form('big.txt', new Uint8Array(20 * MB + 1)))).status).toBe(413);
      // The staging directory on PostgreSQL is the machine's, shared with other test files running now.
      if (testDbKind() === 'pglite') expect(await leftovers()).toEqual([]);
      await runDueJobs({ queues: [INGEST_QUEUE] });
      expect(await docStatus(id)).toMatchObject({ status: 'ready', byteSize: Buffer.byteLength(body) });
    });

    it('stores the bytes off the database thread on the embedded database, and a delete removes them', async () => {
      const kbId = await newHostedKb();
      const up = await uploadDocument(db, owner, kbId, { name: 'kept.md', bytes: text('kept') });
      if (!up.ok) throw new Error(up.message);
      const stored = (await db.execute(sql`select length(bytes)::int as n from document_sources where document_id = ${up.document.id}`)).rows[0] as {
        n: number;
      };
      const file = path.join(path.resolve(getEnv().DATA_DIR), 'sources', `${up.document.id}.bin`);
      if (testDbKind() === 'pglite') {
        expect([stored.n, existsSync(file)]).toEqual([0, true]);
      } else {
        expect([stored.n > 0, existsSync(file)]).toEqual([true, false]);
      }
      await runDueJobs({ queues: [INGEST_QUEUE] });
      expect(await docStatus(up.document.id)).toMatchObject({ status: 'ready' });
      expect(await deleteDocumentForOwner(db, owner, kbId, up.document.id)).toEqual({ ok: true });
      expect(existsSync(file)).toBe(false);
    });

    it('an attempt at an upload whose outcome is already stored does nothing (a lease taken over after the work was done)', async () => {
      const kbId = await newHostedKb();
      const up = await uploadDocument(db, owner, kbId, { name: 'settled.md', bytes: text('settled') });
      if (!up.ok) throw new Error(up.message);
      const [job] = (await db.execute(sql`select data as payload from pgboss.job where name = ${INGEST_QUEUE} and data->>'documentId' = ${up.document.id}`))
        .rows as { payload: { documentId: string; kbId: string; hash: string } }[];
      await runDueJobs({ queues: [INGEST_QUEUE] });
      const ready = await docStatus(up.document.id);
      expect(ready).toMatchObject({ status: 'ready' });
      let parsedAgain = false;
      await runIngestJob(db, job!.payload, 2, { afterParse: async () => void (parsedAgain = true) });
      expect(parsedAgain).toBe(false);
      expect(await docStatus(up.document.id)).toEqual(ready);
    });

    it('limits the files an account uploads in an hour, naming the limit', async () => {
      process.env.UPLOADS_PER_HOUR = '2';
      resetEnvForTesting();
      try {
        const hurried = await createUser(db);
        for (let i = 0; i < 2; i++) {
          const admitted = await admitUpload(hurried);
          expect(admitted.ok).toBe(true);
          if (admitted.ok) admitted.release();
        }
        expect(await admitUpload(hurried)).toEqual({
          ok: false,
          code: 'rate_limit_exceeded',
          message: expect.stringMatching(/^An account may upload 2 files an hour; try again in (a minute|\d+ minutes)\.$/),
          retryAfterSeconds: expect.any(Number),
        });
        expect((await admitUpload(stranger)).ok).toBe(true);
      } finally {
        delete process.env.UPLOADS_PER_HOUR;
        resetEnvForTesting();
      }
    });

    it('a file within the limit is accepted', async () => {
      const kbId = await newHostedKb();
      const answer = await post(kbId, form('small.md', text('tiny')));
      expect(answer.status).toBe(202);
      expect(answer.body).toMatchObject({ document: { name: 'small.md', status: 'queued' } });
      // Drained here: the process tests below start workers that take whatever is queued.
      expect(await runDueJobs({ queues: [INGEST_QUEUE] })).toBe(1);
    });
  });
});

interface Worker {
  child: ChildProcess;
  ran: string[];
  kill(signal: NodeJS.Signals): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '..', '..');

async function startWorker(env: Record<string, string> = {}): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test/support/job-worker.ts')], {
    cwd: root,
    env: { PATH: process.env.PATH, NODE_ENV: 'test', DATABASE_URL: handle.url!, JOB_LEASE_MS: '10000', JOB_POLL_MS: '500', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const ran: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line === 'worker ready') resolve();
      const match = /^ran (\S+)/.exec(line);
      if (match) ran.push(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
  return {
    child,
    ran,
    kill: (signal) =>
      new Promise((resolve) => {
        process.off('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

describe.runIf(testDbKind() === 'postgres')('ingestion across processes', () => {
  it(
    'a worker killed with SIGKILL during an ingestion: the job resumes in another after its heartbeat lapses and the document is ready once',
    { timeout: 90_000 },
    async () => {
      const kbId = await newHostedKb();
      // The job's heartbeat is set where it is sent: 10 s, as the workers' JOB_LEASE_MS.
      process.env.JOB_LEASE_MS = '10000';
      resetEnvForTesting();
      const up = await uploadDocument(db, owner, kbId, { name: 'storm.md', bytes: text('storm warnings') }).finally(() => {
        delete process.env.JOB_LEASE_MS;
        resetEnvForTesting();
      });
      if (!up.ok) throw new Error(up.message);
      const paused = await startWorker({ PAUSE_AFTER_PARSE: '1' });
      await expect.poll(async () => (await docStatus(up.document.id))!.status, { timeout: 20_000 }).toBe('ingesting');
      await paused.kill('SIGKILL');
      const next = await startWorker();
      try {
        // One heartbeat (JOB_LEASE_MS, 10 s) plus a monitor pass (5 s) plus the retry's backoff.
        await expect.poll(async () => (await docStatus(up.document.id))!.status, { timeout: 45_000 }).toBe('ready');
      } finally {
        await next.kill('SIGTERM');
      }
      const job = (await db.execute(sql`select state, retry_count from pgboss.job where name = ${INGEST_QUEUE} and data->>'documentId' = ${up.document.id}`))
        .rows;
      // The second attempt: the first one's heartbeats stopped with its worker.
      expect(job).toEqual([{ state: 'completed', retry_count: 1 }]);
      const doc = await docStatus(up.document.id);
      const chunks = await db.execute(sql`select count(*)::int as n from chunks where document_id = ${up.document.id}`);
      expect((chunks.rows[0] as { n: number }).n).toBe(doc!.chunkCount);
    },
  );

  it('two instances draining one queue never ingest the same job twice', async () => {
    const kbId = await newHostedKb();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const up = await uploadDocument(db, owner, kbId, { name: `part-${i}.md`, bytes: text(`topic ${i} alpha${i}`) });
      if (up.ok) ids.push(up.document.id);
    }
    const workers = await Promise.all([startWorker(), startWorker()]);
    try {
      await expect
        .poll(
          async () =>
            Number(((await db.execute(sql`select count(*)::int as n from documents where kb_id = ${kbId} and status = 'ready'`)).rows[0] as { n: number }).n),
          { timeout: 30_000 },
        )
        .toBe(12);
    } finally {
      await Promise.all(workers.map((w) => w.kill('SIGTERM')));
    }
    const ran = workers.flatMap((w) => w.ran);
    expect(ran.length).toBe(12);
    expect(new Set(ran).size).toBe(12);
  });
});

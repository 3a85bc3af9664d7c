import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@/test/support/db';
import type { Database } from '@/lib/platform/db';
import { answerHostedQuery, reindexKnowledgeBase, searchChunks, type EmbeddingsConfig } from '@/lib/engine';
import { embedTexts } from '@/lib/engine/embeddings';
import { ingestDocument } from '@/lib/engine/ingest';
import { createHostedKnowledgeBase } from '@/lib/publishing/knowledge-bases';

/**
 * Optional hybrid retrieval (issue 14 part 4) against a deterministic local embeddings server: each word is hashed
 * into one of 64 dimensions after a small synonym table ("physician" → "doctor"), so meaning the words do not share
 * can still be near. Vectors are stored as real[] and compared exactly in SQL, on PGlite and PostgreSQL alike.
 */
const SYNONYMS: Record<string, string> = { physician: 'doctor', physicians: 'doctor', doctors: 'doctor', appointment: 'visit', appointments: 'visit', visits: 'visit' };
const DIM = 64;
function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(DIM).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const w = SYNONYMS[raw] ?? raw;
    if (w.length < 3) continue;
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    v[(h >>> 0) % DIM] += 1;
  }
  return v;
}

const enc = (s: string) => new TextEncoder().encode(s);
let db: Database;
let server: Server;
let embeddings: EmbeddingsConfig;
let failing = false;
let calls = 0;
let kb: string;

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as { model: string; input: string[] };
    calls++;
    if (failing || req.url !== '/v1/embeddings' || req.headers.authorization !== 'Bearer sk-fake-embeddings') {
      res.writeHead(503, { 'content-type': 'application/json' });
      return res.end('{"error":"unavailable"}');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', model: body.model, data: body.input.map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t) })) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  embeddings = { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: 'sk-fake-embeddings', model: 'fake-hash-64', timeoutMs: 2_000 };
  db = (await createTestDatabase()).db;
  const created = await createHostedKnowledgeBase(db, { title: 'Hybrid Test Base', publisher: 'Hybrid Test Press', category: 'health', tags: [], summary: 'Hybrid retrieval tests.' });
  if (!created.ok) throw new Error(created.message);
  kb = created.id;
  for (const [name, text] of [
    ['doctor.md', '# Seeing a doctor\n\nBook a doctor visit once a year for a general check-up. Bring your medication list to every visit with the doctor.'],
    ['museum.md', '# Museum\n\nA visit to the city museum is free on Sundays. The museum shop closes at five.'],
    ['garden.md', '# Garden\n\nWater tomatoes in the morning. Prune roses in late winter.'],
  ]) {
    const r = await ingestDocument(db, kb, { sourceName: name, bytes: enc(text) }, { embeddings });
    if (!r.ok) throw new Error(r.message);
  }
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

describe('hybrid retrieval', () => {
  it('stores one unit-length vector per chunk, tagged with the model', async () => {
    const rows = (await db.execute(sql`
      select e.model, array_length(e.embedding, 1) as dim, (select sum(x * x) from unnest(e.embedding) x) as norm
      from chunk_embeddings e where e.kb_id = ${kb}`)).rows as Array<{ model: string; dim: number; norm: number }>;
    const chunks = (await db.execute(sql`select count(*)::int as n from chunks where kb_id = ${kb}`)).rows as Array<{ n: number }>;
    expect(rows.length).toBe(chunks[0].n);
    for (const r of rows) {
      expect(r.model).toBe('fake-hash-64');
      expect(Number(r.dim)).toBe(DIM);
      expect(Number(r.norm)).toBeCloseTo(1, 4);
    }
  });

  it('fuses the vector ranking with the lexical one: a passage near in meaning joins the results', async () => {
    const question = 'How often is a physician appointment needed in winter?';
    const lexical = await searchChunks(db, kb, question, { limit: 5 });
    expect(lexical.chunks.map((c) => c.documentTitle)).not.toContain('Seeing a doctor');
    const [values] = await embedTexts(embeddings, [question]);
    const hybrid = await searchChunks(db, kb, question, { limit: 5, vector: { model: embeddings.model, values } });
    expect(hybrid.chunks.map((c) => c.documentTitle)).toContain('Seeing a doctor');
    // Without vectors for this model nothing changes.
    const other = await searchChunks(db, kb, question, { limit: 5, vector: { model: 'another-model', values } });
    expect(other.chunks.map((c) => c.chunkId)).toEqual(lexical.chunks.map((c) => c.chunkId));
  });

  it('the answer path embeds the question; a failing endpoint leaves retrieval lexical and the answer unchanged', async () => {
    const question = 'When is the museum free?';
    const ok = await answerHostedQuery({ kbId: kb, query: question, requestId: 'req_hybrid' }, db, { llm: null, embeddings });
    failing = true;
    const before = calls;
    const degraded = await answerHostedQuery({ kbId: kb, query: question, requestId: 'req_hybrid' }, db, { llm: null, embeddings });
    expect(calls).toBeGreaterThan(before);
    expect(degraded.answer).toBe(ok.answer);
    expect(ok.answer).toContain('free on Sundays');
    // Ingestion carries on without vectors while the endpoint is down.
    const r = await ingestDocument(db, kb, { sourceName: 'late.md', bytes: enc('# Late\n\nThe library opens at nine.') }, { embeddings });
    expect(r.ok).toBe(true);
    failing = false;
  });

  it('reindex re-embeds every chunk', async () => {
    expect((await reindexKnowledgeBase(db, kb, { embeddings })).ok).toBe(true);
    const missing = (await db.execute(sql`
      select count(*)::int as n from chunks c left join chunk_embeddings e on e.chunk_id = c.id where c.kb_id = ${kb} and e.chunk_id is null`)).rows as Array<{ n: number }>;
    expect(missing[0].n).toBe(0);
  });
});

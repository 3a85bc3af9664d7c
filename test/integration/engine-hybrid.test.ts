import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDbKind } from '@/test/support/db';
import { fakeEmbedding, startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '@/test/support/fake-embeddings';
import type { Database } from '@/lib/platform/db';
import { answerHostedQuery, findPassages, reindexKnowledgeBase, searchChunks, type EmbeddingsConfig } from '@/lib/engine';
import { CLOSE_LEAD, lexicalLead } from '@/lib/engine/vector-fusion';
import { embedTexts } from '@/lib/engine/embeddings';
import { ingestDocument } from '@/lib/engine/ingest';
import { nearestChunkIds, vectorSearchMode } from '@/lib/engine/vector-search';
import { createHostedKnowledgeBase } from '@/lib/publishing/knowledge-bases';
import { itemAt } from '@/lib/platform/arrays';

/**
 * Optional hybrid retrieval against a deterministic local embeddings server (test/support/
 * fake-embeddings.ts: each word hashed into one of 64 dimensions after a small synonym table, "practitioner" → "doctor",
 * so meaning the words do not share can still be near). Vectors are stored as real[] on both databases and searched
 * through pgvector on PGlite, exactly in SQL on the PostgreSQL server (which has no `vector` extension here); both
 * must rank the same data the same.
 */
const DIM = 64;
const enc = (s: string) => new TextEncoder().encode(s);
let db: Database;
let fake: FakeEmbeddingsServer;
let embeddings: EmbeddingsConfig;
let kb: string;

async function newKnowledgeBase(title: string): Promise<string> {
  const created = await createHostedKnowledgeBase(db, {
    title,
    publisher: 'Hybrid Test Press',
    category: 'health',
    tags: [],
    summary: 'Hybrid retrieval tests.',
  });
  if (!created.ok) throw new Error(created.message);
  return created.id;
}

async function ingestAll(kbId: string, documents: Array<[string, string]>): Promise<void> {
  for (const [name, text] of documents) {
    const r = await ingestDocument(db, kbId, { sourceName: name, bytes: enc(text) }, { embeddings });
    if (!r.ok) throw new Error(r.message);
  }
}

beforeAll(async () => {
  fake = await startFakeEmbeddingsServer({ dim: DIM, model: 'fake-hash-64' });
  embeddings = fake.config;
  db = (await createTestDatabase()).db;
  kb = await newKnowledgeBase('Hybrid Test Base');
  await ingestAll(kb, [
    ['doctor.md', '# Seeing a doctor\n\nBook a doctor visit once a year for a general check-up. Bring your medication list to every visit with the doctor.'],
    ['museum.md', '# Museum\n\nA visit to the city museum is free on Sundays. The museum shop closes at five.'],
    ['garden.md', '# Garden\n\nWater tomatoes in the morning. Prune roses in late winter.'],
  ]);
});

afterAll(async () => {
  await fake.close();
});

describe('hybrid retrieval', () => {
  it('stores one unit-length vector per chunk, tagged with the model', async () => {
    const rows = (
      await db.execute(sql`
      select e.model, array_length(e.embedding, 1) as dim, (select sum(x * x) from unnest(e.embedding) x) as norm
      from chunk_embeddings e where e.kb_id = ${kb}`)
    ).rows as Array<{ model: string; dim: number; norm: number }>;
    const chunks = (await db.execute(sql`select count(*)::int as n from chunks where kb_id = ${kb}`)).rows as Array<{ n: number }>;
    expect(rows.length).toBe(chunks[0]?.n);
    for (const r of rows) {
      expect(r.model).toBe('fake-hash-64');
      expect(Number(r.dim)).toBe(DIM);
      expect(Number(r.norm)).toBeCloseTo(1, 4);
    }
  });

  it('fuses the vector ranking with the lexical one: a passage near in meaning joins the results', async () => {
    // "practitioner" is near "doctor" only for the embeddings: retrieval's own paraphrases ("physician" ↔ "doctor") lack it.
    const question = 'How often is a practitioner appointment needed on a Sunday in winter?';
    const lexical = await searchChunks(db, kb, question, { limit: 5 });
    expect(lexical.chunks.map((c) => c.documentTitle)).not.toContain('Seeing a doctor');
    const values = itemAt(await embedTexts(embeddings, [question]), 0);
    const hybrid = await searchChunks(db, kb, question, { limit: 5, vector: { model: embeddings.model, values } });
    expect(hybrid.chunks.map((c) => c.documentTitle)).toContain('Seeing a doctor');
    // Without vectors for this model nothing changes.
    const other = await searchChunks(db, kb, question, { limit: 5, vector: { model: 'another-model', values } });
    expect(other.chunks.map((c) => c.chunkId)).toEqual(lexical.chunks.map((c) => c.chunkId));
  });

  it('leaves a decisive lexical ranking alone: the vectors are fused only where it is close', async () => {
    const question = 'Is the museum shop open on the day of a museum visit?';
    const lexical = await searchChunks(db, kb, question, { limit: 5 });
    expect(new Set(lexical.chunks.map((c) => c.documentId)).size).toBeGreaterThan(1);
    expect(lexicalLead(lexical.chunks)).toBeGreaterThanOrEqual(CLOSE_LEAD);
    // A vector nearest another document (the garden's) would lift it under plain fusion; here it changes nothing.
    const values = itemAt(await embedTexts(embeddings, ['Water tomatoes in the morning. Prune roses in late winter.']), 0);
    const hybrid = await searchChunks(db, kb, question, { limit: 5, vector: { model: embeddings.model, values } });
    expect(hybrid.chunks.map((c) => c.chunkId)).toEqual(lexical.chunks.map((c) => c.chunkId));
  });

  it('answers and searches ask the endpoint for the question only when the lexical ranking is close', async () => {
    const decisive = 'Is the museum shop open on the day of a museum visit?';
    const before = fake.calls();
    const answer = await answerHostedQuery({ kbId: kb, query: decisive, requestId: 'req_decisive' }, db, { llm: null, embeddings });
    expect(answer.answer).toContain('museum shop closes at five');
    expect((await findPassages(db, kb, decisive, 5, undefined, embeddings))[0]?.title).toBe('Museum');
    expect(fake.calls()).toBe(before);
    // Two documents match about as well: the search embeds the question and fuses.
    await findPassages(db, kb, 'Is every visit free?', 5, undefined, embeddings);
    expect(fake.calls()).toBe(before + 1);
  });

  it('the answer path embeds the question; a failing endpoint leaves retrieval lexical and the answer as without vectors', async () => {
    // Two documents match about as well ("every visit": the doctor's; "visit", "free": the museum's): it is embedded.
    const question = 'Is every visit free?';
    expect(lexicalLead((await searchChunks(db, kb, question, { limit: 5 })).chunks)).toBeLessThan(CLOSE_LEAD);
    const lexical = await answerHostedQuery({ kbId: kb, query: question, requestId: 'req_hybrid' }, db, { llm: null, embeddings: null });
    expect(lexical.citations.length).toBeGreaterThan(0);
    fake.setFailing(true);
    try {
      const before = fake.calls();
      const degraded = await answerHostedQuery({ kbId: kb, query: question, requestId: 'req_hybrid' }, db, { llm: null, embeddings });
      expect(fake.calls()).toBeGreaterThan(before);
      expect(degraded.answer).toBe(lexical.answer);
      // Ingestion carries on without vectors while the endpoint is down.
      const r = await ingestDocument(db, kb, { sourceName: 'late.md', bytes: enc('# Late\n\nThe library opens at nine.') }, { embeddings });
      expect(r.ok).toBe(true);
    } finally {
      fake.setFailing(false);
    }
  });

  it('reindex re-embeds every chunk', async () => {
    expect((await reindexKnowledgeBase(db, kb, { embeddings })).ok).toBe(true);
    const missing = (
      await db.execute(sql`
      select count(*)::int as n from chunks c left join chunk_embeddings e on e.chunk_id = c.id where c.kb_id = ${kb} and e.chunk_id is null`)
    ).rows as Array<{ n: number }>;
    expect(missing[0]?.n).toBe(0);
  });
});

/**
 * Where the nearest chunks are computed. The PostgreSQL server of the development and CI machines has no `vector`
 * extension, so it must take the portable path; one that offers the extension gets it at migration, like PGlite.
 */
describe('nearest chunks: pgvector on PGlite, the portable fallback on a server without it', () => {
  // Texts chosen so the question's similarities are distinct, with two exact ties: travel.md and travel-again.md
  // differ only by words too short to embed, garden.md and weather.md share nothing with the question.
  const DOCUMENTS: Array<[string, string]> = [
    ['garden.md', '# Garden\n\nWater tomatoes in the morning.'],
    ['clinic.md', '# Clinic\n\nThe doctor sees you at each visit and checks your medication dose.'],
    ['travel.md', '# Travel\n\nA visit abroad needs a passport.'],
    ['pharmacy.md', '# Pharmacy\n\nMedication is sold at the pharmacy counter.'],
    ['weather.md', '# Weather\n\nRain falls in spring.'],
    ['travel-again.md', '# Travel\n\nA visit abroad needs a passport, so go.'],
    ['physician.md', '# Physician\n\nYour physician keeps your records.'],
  ];
  const QUESTION = 'Which doctor checks my medication at a visit?';
  let rankingKb: string;

  beforeAll(async () => {
    rankingKb = await newKnowledgeBase('Hybrid Ranking Base');
    await ingestAll(rankingKb, DOCUMENTS);
  });

  async function expectedMode(): Promise<'pgvector' | 'portable'> {
    if (testDbKind() === 'pglite') return 'pgvector';
    const r = await db.execute(sql`select exists(select 1 from pg_available_extensions where name = 'vector') as present`);
    return (r.rows[0] as { present: boolean }).present ? 'pgvector' : 'portable';
  }

  /** The ranking as source names (chunk ids differ between databases; ingestion order does not). */
  async function sourcesOf(ids: number[]): Promise<string[]> {
    const r = await db.execute(sql`
      select c.id, d.source_name from chunks c join documents d on d.id = c.document_id
      where c.id = any(${`{${ids.join(',')}}`}::bigint[])`);
    const byId = new Map((r.rows as Array<{ id: number; source_name: string }>).map((x) => [Number(x.id), x.source_name]));
    return ids.map((id) => byId.get(id) ?? '?');
  }

  /** The ranking computed here, in double precision, from the texts as ingestion embeds them (heading, content). */
  async function referenceRanking(question: number[]): Promise<string[]> {
    const r = await db.execute(sql`
      select c.id, c.heading, c.content, d.source_name from chunks c join documents d on d.id = c.document_id
      where c.kb_id = ${rankingKb} order by c.id`);
    const unit = (v: number[]) => v.map((x) => x / (Math.hypot(...v) || 1));
    const q = unit(question);
    return (r.rows as Array<{ id: number; heading: string | null; content: string; source_name: string }>)
      .map((c) => ({
        id: Number(c.id),
        source: c.source_name,
        sim: unit(fakeEmbedding(`${c.heading ?? ''}\n${c.content}`, DIM)).reduce((a, x, i) => a + x * itemAt(q, i), 0),
      }))
      .sort((a, b) => b.sim - a.sim || a.id - b.id)
      .map((c) => c.source);
  }

  it('the extension is installed where the database offers it, and the choice follows it', async () => {
    const mode = await expectedMode();
    const installed = (await db.execute(sql`select extversion from pg_extension where extname = 'vector'`)).rows;
    expect(installed.length).toBe(mode === 'pgvector' ? 1 : 0);
    expect(await vectorSearchMode(db)).toBe(mode);
    // Detected once per database: the same promise every time.
    expect(vectorSearchMode(db)).toBe(vectorSearchMode(db));
    if (testDbKind() === 'pglite') expect(mode).toBe('pgvector');
  });

  it('ranks the same data the same on either path, ties broken by chunk id', async () => {
    const values = itemAt(await embedTexts(embeddings, [QUESTION]), 0);
    const query = { model: embeddings.model, values };
    const chosen = await sourcesOf(await nearestChunkIds(db, rankingKb, query, 20));
    // The same list on PGlite and on the PostgreSQL server, whichever path each takes ("garden" shares a hashed
    // dimension with the question; the two travel texts embed alike and tie, as do nothing-in-common ones).
    expect(chosen).toEqual(['clinic.md', 'pharmacy.md', 'garden.md', 'travel.md', 'travel-again.md', 'physician.md', 'weather.md']);
    expect(chosen).toEqual(await referenceRanking(values));
    // Where pgvector is present, the portable SQL over the very same rows agrees with it.
    if ((await vectorSearchMode(db)) === 'pgvector') {
      expect(await sourcesOf(await nearestChunkIds(db, rankingKb, query, 20, 'portable'))).toEqual(chosen);
    }
    // A vector of another size is nobody's neighbour on the pgvector path (pgvector would refuse to compare it).
    if ((await vectorSearchMode(db)) === 'pgvector') {
      expect(await nearestChunkIds(db, rankingKb, { model: embeddings.model, values: values.slice(0, 32) }, 20)).toEqual([]);
    }
    // Only this knowledge base's chunks, and only this model's.
    expect(await nearestChunkIds(db, rankingKb, { model: 'another-model', values }, 20)).toEqual([]);
  });
});

import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { embeddingsConfig, embedTexts, reindexKnowledgeBase, searchChunks, type EmbeddingsConfig } from '@/lib/engine';
import { CLOSE_LEAD, fuseRanks, lexicalLead, VECTOR_CANDIDATES, VECTOR_WEIGHT } from '@/lib/engine/retrieval';
import { nearestChunkIds, vectorSearchMode, type VectorSearchMode } from '@/lib/engine/vector-search';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '../../test/support/fake-embeddings';
import { goldSourceName, partOf, type EvalQuestion } from './evaluation-set';

/**
 * `run.ts --embeddings`: hybrid retrieval as the engine does it (the nearest chunks fused by weighted reciprocal rank
 * where the lexical ranking is close; retrieval.ts) next to lexical retrieval alone, and next to other fusions of the
 * same lists (plain RRF for every question, other weights), over the same evaluation set in the same run and
 * database. Vectors come from the endpoint EMBEDDINGS_* name, else from the tests' deterministic hashed-word endpoint
 * (test/support/fake-embeddings.ts), which measures the fusion, the storage and the search path rather than a model.
 * Also times the nearest-chunk query itself: on PGlite both paths run over the same rows (pgvector and the portable
 * SQL), on the PostgreSQL server only the portable one.
 */
export const HYBRID_DIM = 256;
/** Shares of the vector list also measured, fused for every question (plain RRF is 1). */
const WEIGHTS = [1, 0.5, 0.25, 0.1];

/** Where the vectors come from: the endpoint EMBEDDINGS_* name (a real model), else the local hashed-word one. */
export interface EmbeddingsSource {
  config: EmbeddingsConfig;
  /** How the report names it. */
  label: string;
  close(): Promise<void>;
}

/**
 * Re-embeds every knowledge base through the ingestion path (reindex). With EMBEDDINGS_BASE_URL, _API_KEY and _MODEL
 * set (as for the server), through that endpoint: sentence-encoder-server.mjs serves a real model locally.
 */
export async function embedEveryKnowledgeBase(db: Database): Promise<{ source: EmbeddingsSource; ms: number; chunks: number }> {
  const configured = embeddingsConfig();
  let source: EmbeddingsSource;
  if (configured)
    source = {
      config: { ...configured, timeoutMs: Math.max(configured.timeoutMs ?? 0, 120_000) },
      label: `the model ${configured.model} at ${configured.baseUrl}`,
      close: async () => {},
    };
  else {
    const fake: FakeEmbeddingsServer = await startFakeEmbeddingsServer({ dim: HYBRID_DIM });
    source = { config: fake.config, label: `vectors of ${HYBRID_DIM} dimensions from the local hashed-word endpoint`, close: () => fake.close() };
  }
  const started = Date.now();
  let chunks = 0;
  const kbs = (await db.execute(sql`select distinct kb_id from documents order by kb_id`)).rows as Array<{ kb_id: string }>;
  for (const { kb_id } of kbs) {
    const r = await reindexKnowledgeBase(db, kb_id, { embeddings: source.config });
    if (r.ok) chunks += r.chunks;
  }
  return { source, ms: Date.now() - started, chunks };
}

interface Ranks {
  n: number;
  hit1: number;
  hit5: number;
  rr: number;
}

const emptyRanks = (): Ranks => ({ n: 0, hit1: 0, hit5: 0, rr: 0 });

function scoreRank(m: Ranks, documentIds: string[], gold: string) {
  const rank = [...new Set(documentIds)].indexOf(gold);
  m.n++;
  if (rank === 0) m.hit1++;
  if (rank >= 0 && rank < 5) m.hit5++;
  if (rank >= 0) m.rr += 1 / (rank + 1);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function reportHybrid(db: Database, questions: EvalQuestion[], source: EmbeddingsSource, kbSlugs: Map<string, string>): Promise<string[]> {
  const embeddings = source.config;
  const docRows = (await db.execute(sql`select id, kb_id, source_name from documents`)).rows as Array<{ id: string; kb_id: string; source_name: string }>;
  const docId = new Map(docRows.map((r) => [`${r.kb_id}/${r.source_name}`, r.id]));
  const chunkRows = (await db.execute(sql`select id, document_id from chunks`)).rows as Array<{ id: number; document_id: string }>;
  const documentOf = new Map(chunkRows.map((r) => [Number(r.id), r.document_id]));
  const weighted = new Map(WEIGHTS.map((w) => [w, emptyRanks()]));
  const vectorOnly = emptyRanks();
  let fusionMismatches = 0;
  let fusedQuestions = 0;
  const mode = await vectorSearchMode(db);
  const modes: VectorSearchMode[] = mode === 'pgvector' ? ['pgvector', 'portable'] : ['portable'];
  const lexical = emptyRanks();
  const hybrid = emptyRanks();
  const byPart = new Map<string, { lexical: Ranks; hybrid: Ranks }>();
  let changedTop = 0;
  const nearestMs = new Map<VectorSearchMode, number[]>(modes.map((m) => [m, []]));
  let disagreements = 0;
  for (const q of questions) {
    const kb = kbSlugs.get(q.kb);
    const gold = kb && docId.get(`${kb}/${goldSourceName(q.gold_document)}`);
    if (!kb || !gold) continue;
    const [values] = await embedTexts(embeddings, [q.question]);
    if (!values) throw new Error(`no embedding returned for ${q.id}`);
    const vector = { model: embeddings.model, values };
    const plain = await searchChunks(db, kb, q.question, { limit: 20 });
    const fused = await searchChunks(db, kb, q.question, { limit: 20, vector });
    const part = byPart.get(partOf(q.id)) ?? { lexical: emptyRanks(), hybrid: emptyRanks() };
    byPart.set(partOf(q.id), part);
    for (const m of [lexical, part.lexical])
      scoreRank(
        m,
        plain.chunks.map((c) => c.documentId),
        gold,
      );
    for (const m of [hybrid, part.hybrid])
      scoreRank(
        m,
        fused.chunks.map((c) => c.documentId),
        gold,
      );
    if (plain.chunks[0]?.chunkId !== fused.chunks[0]?.chunkId) changedTop++;
    // Other fusions of the same lists: the lexical list fetched as deep as the engine fetches it when fusing (four
    // times the limit).
    const deepChunks = (await searchChunks(db, kb, q.question, { limit: 80 })).chunks;
    const deep = deepChunks.map((c) => c.chunkId);
    const nearest = await nearestChunkIds(db, kb, vector, VECTOR_CANDIDATES);
    const close = lexicalLead(deepChunks) < CLOSE_LEAD;
    if (close) fusedQuestions++;
    const engineOrder = close ? fuseRanks(deep, nearest, VECTOR_WEIGHT) : deep;
    if (engineOrder.slice(0, 20).join() !== fused.chunks.map((c) => c.chunkId).join()) fusionMismatches++;
    scoreRank(
      vectorOnly,
      nearest.map((id) => documentOf.get(id) ?? ''),
      gold,
    );
    for (const [w, m] of weighted)
      scoreRank(
        m,
        fuseRanks(deep, nearest, w)
          .slice(0, 20)
          .map((id) => documentOf.get(id) ?? ''),
        gold,
      );
    const lists: string[] = [];
    for (const m of modes) {
      const started = performance.now();
      const ids = await nearestChunkIds(db, kb, vector, 20, m);
      nearestMs.get(m)!.push(performance.now() - started);
      lists.push(ids.join(','));
    }
    if (lists.some((l) => l !== lists[0])) disagreements++;
  }
  const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);
  const triple = (m: Ranks) => `${pct(m.hit1, m.n)} / ${pct(m.hit5, m.n)} / ${(m.rr / Math.max(1, m.n)).toFixed(3)}`;
  const lines = [
    `hybrid retrieval: ${lexical.n} questions, ${source.label}, nearest chunks by ${mode}`,
    '',
    `| metric | lexical only | hybrid (the engine: RRF k = 60, vector weight ${VECTOR_WEIGHT}, where the lexical lead < ${CLOSE_LEAD}) |`,
    '|---|---|---|',
    `| recall@1 (gold document) | ${pct(lexical.hit1, lexical.n)} | ${pct(hybrid.hit1, hybrid.n)} |`,
    `| recall@5 (gold document) | ${pct(lexical.hit5, lexical.n)} | ${pct(hybrid.hit5, hybrid.n)} |`,
    `| MRR (gold document) | ${(lexical.rr / Math.max(1, lexical.n)).toFixed(3)} | ${(hybrid.rr / Math.max(1, hybrid.n)).toFixed(3)} |`,
    `| recall@1 by part | ${[...byPart].map(([p, m]) => `${p} ${pct(m.lexical.hit1, m.lexical.n)}`).join(', ')} | ${[...byPart].map(([p, m]) => `${p} ${pct(m.hybrid.hit1, m.hybrid.n)}`).join(', ')} |`,
    `| questions fused (the lexical ranking close) | | ${fusedQuestions} of ${hybrid.n} |`,
    `| questions whose top chunk changes | | ${changedTop} of ${hybrid.n} |`,
    `| for scale: the 20 nearest chunks alone, recall@1 / @5 / MRR | | ${triple(vectorOnly)} |`,
    '',
    "the same lists fused for every question (not what the engine does), by the vector list's weight:",
    '',
    `| vector weight | ${WEIGHTS.map((w) => (w === 1 ? '1 (plain RRF)' : String(w))).join(' | ')} |`,
    `|---|${WEIGHTS.map(() => '---|').join('')}`,
    `| recall@1 / @5 / MRR | ${[...weighted.values()].map(triple).join(' | ')} |`,
    `(check: the engine's hybrid list equals this rule applied to the same lists for ${hybrid.n - fusionMismatches} of ${hybrid.n} questions)`,
    '',
  ];
  const p50 = modes.map((m) => `${m} ${median(nearestMs.get(m)!).toFixed(2)} ms`).join(', ');
  const ratio = modes.length === 2 ? `; portable / pgvector = ${(median(nearestMs.get('portable')!) / median(nearestMs.get('pgvector')!)).toFixed(1)}×` : '';
  lines.push(`nearest 20 chunks, median per question: ${p50}${ratio}${modes.length === 2 ? `; lists differing between the two paths: ${disagreements}` : ''}`);
  return lines;
}

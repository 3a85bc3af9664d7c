/**
 * The multi-domain snapshot behind lodo.ts: every public question-answering set prepared by outside/prepare.ts (one
 * knowledge base per set, its documents uploaded as a publisher would) and our own evaluation set (the seeded
 * marketplace) as one domain among them. For each domain it stores what retrieval hands the extractive composer for
 *
 *  - its answerable questions, with their gold answers, evidence and document;
 *  - its own unanswerable questions, where the set has them;
 *  - questions of every other domain asked of its knowledge base (cross-domain unanswerables, CROSS_PER_DOMAIN each);
 *  - the hand-written off-topic list (reported, never fitted on);
 *  - with --calibration, the gate calibration's questions (calibration-questions.ts) asked of every knowledge base, as
 *    gate-calibration.ts asks them live, so that lodo.ts --kb-calibration sets each knowledge base's own threshold.
 *
 *   npx tsx bench/engine-quality/domains.ts [--sets DIR] [--out FILE] [--only name,name] [--calibration]
 *
 * DIR holds `<set>.json` files (default .data/outside-sets). A snapshot is valid while retrieval, ingestion and the
 * sets are unchanged; lodo.ts then fits and judges answer selection and the gate from it in a minute.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { openPglite } from '@/db/client';
import { knowledgeBases, publishers } from '@/db/schema';
import { ingestDocument, searchChunks, type QueryTerm, type RetrievedChunk } from '@/lib/engine';
import { BACK_MATTER_SPARE, withoutBackMatter } from '@/lib/engine/back-matter';
import { lexemesOf } from '@/lib/engine/lexemes';
import { PASSAGES_READ } from '@/lib/engine/sentence-ranker';
import { tokenize } from '@/lib/engine/text';
import { prepareDatabase } from '@/lib/platform/db';
import { newId } from '@/lib/platform/ids';
import { itemAt } from '@/lib/platform/arrays';
import { goldSourceName, loadEvaluationSet, loadOffTopicSet } from './evaluation-set';
import { openSeededMarketplace } from './snapshot';
import { CALIBRATION_QUESTIONS } from '@/lib/engine/calibration-questions';

export const DEFAULT_SETS_DIR = path.join(process.cwd(), '.data', 'outside-sets');
export const DEFAULT_DOMAIN_SNAPSHOT = '/tmp/engine-domains-snapshot.json';
/** Questions each set lends to the knowledge bases of the other domains. */
export const CROSS_PER_SET = 25;
/**
 * Sets whose questions name no document ("On what date will the contract's initial term expire?", "How big is the dataset?"): each document is a
 * knowledge base of its own, asked only its own questions.
 */
const KB_PER_DOCUMENT = new Set(['cuad-contracts', 'qasper']);
/**
 * Sets that lend no question to other domains: QASPER's ("How big is the dataset?") are vague rather than foreign, and
 * a knowledge base of study abstracts that answers one with its own cohort's size is not wrong.
 */
const LENDS_NOTHING = new Set(['qasper']);
/** Our own evaluation set's name as a domain. */
export const OWN_DOMAIN = 'almanac';

/** The prepared form of a public set (outside/types.ts describes it). */
interface PreparedSet {
  name: string;
  domain: string;
  documents: Array<{ id: string; fileName: string; text: string }>;
  questions: Array<{ id: string; question: string; answers: string[]; evidence: string[]; documentId: string | null; answerable: boolean }>;
}

export type AskKind = 'answerable' | 'unanswerable' | 'cross' | 'off-topic' | 'calibration';

export interface DomainAsk {
  /** The knowledge base's domain: left out together when judged (two legal sets are one domain). */
  domain: string;
  /** The set the knowledge base was built from. */
  set: string;
  id: string;
  kind: AskKind;
  /** For a cross-domain ask, the domain the question comes from. */
  from: string;
  query: string;
  /** Short gold spans; any one in a statement answers. */
  answers: string[];
  /** Gold sentences or passages, when the set gives no short span. */
  evidence: string[];
  /** The database id of the document the question was asked of. */
  goldDocument: string | null;
  /** The knowledge base asked (a set may hold one per document). */
  kb: string;
  config: string;
  terms: QueryTerm[];
  chunks: RetrievedChunk[];
  /** Retrieval and the lexicon's round trip, as on the live path. */
  retrievalMs: number;
}

export interface DomainSnapshot {
  domains: string[];
  lexemes: Record<string, Record<string, string[]>>;
  asks: DomainAsk[];
}

export function loadDomainSnapshot(file = DEFAULT_DOMAIN_SNAPSHOT): DomainSnapshot {
  return JSON.parse(readFileSync(file, 'utf8')) as DomainSnapshot;
}

/** A stable pseudo-random order (by hash of the id), so that samples do not follow a file's topic order. */
export const hashOrder = <T extends { id: string }>(items: T[]): T[] =>
  [...items].sort((a, b) => (createHash('sha1').update(a.id).digest('hex') < createHash('sha1').update(b.id).digest('hex') ? -1 : 1));

export function loadPreparedSets(dir: string, only: Set<string> | null): PreparedSet[] {
  if (!existsSync(dir)) throw new Error(`${dir} does not exist: prepare the public sets first (bench/engine-quality/outside/README.md)`);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as PreparedSet)
    .filter((s) => !only || only.has(s.name));
}

/** A question that another domain may borrow: its text only. */
interface Borrowed {
  id: string;
  /** Its domain. */
  from: string;
  query: string;
}

/** One knowledge base holding the given documents, uploaded as a publisher would; document ids by the set's ids. */
async function ingestKnowledgeBase(db: Executor, slug: string, documents: PreparedSet['documents']): Promise<{ kbId: string; docIds: Map<string, string> }> {
  const publisherId = newId('pub');
  await db.insert(publishers).values({ id: publisherId, slug: `outside-${slug}`, name: `Outside set ${slug}` });
  const kbId = newId('kb');
  await db
    .insert(knowledgeBases)
    .values({ id: kbId, publisherId, slug, title: slug, summary: 'Outside set', category: 'research', tags: [], status: 'published' });
  const docIds = new Map<string, string>();
  for (const doc of documents) {
    const result = await ingestDocument(db, kbId, { sourceName: doc.fileName, bytes: new TextEncoder().encode(doc.text) }, { embeddings: null });
    if (!result.ok) {
      console.warn(`  ${slug}: ${doc.fileName} not ingested: ${result.message}`);
      continue;
    }
    docIds.set(doc.id, result.documentId);
  }
  return { kbId, docIds };
}

/** The set's knowledge bases (one, or one per document) and where each question is asked. */
async function ingestSet(db: Executor, set: PreparedSet): Promise<{ kbIds: string[]; kbOf: Map<string, string>; docIds: Map<string, string> }> {
  if (!KB_PER_DOCUMENT.has(set.name)) {
    const { kbId, docIds } = await ingestKnowledgeBase(db, set.name, set.documents);
    return { kbIds: [kbId], kbOf: new Map(set.documents.map((d) => [d.id, kbId])), docIds };
  }
  const kbOf = new Map<string, string>();
  const docIds = new Map<string, string>();
  for (const [k, doc] of set.documents.entries()) {
    const one = await ingestKnowledgeBase(db, `${set.name}-${k}`, [doc]);
    kbOf.set(doc.id, one.kbId);
    for (const [a, b] of one.docIds) docIds.set(a, b);
  }
  return { kbIds: [...new Set(kbOf.values())], kbOf, docIds };
}

async function main() {
  const argv = process.argv.slice(2);
  const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : null);
  const setsDir = option('--sets') ?? DEFAULT_SETS_DIR;
  const out = option('--out') ?? DEFAULT_DOMAIN_SNAPSHOT;
  const only = option('--only') ? new Set(option('--only')!.split(',')) : null;
  const sets = loadPreparedSets(setsDir, only);
  const evaluation = loadEvaluationSet();
  const offTopic = loadOffTopicSet();
  const calibration = argv.includes('--calibration') ? CALIBRATION_QUESTIONS : [];
  // Every calibration question of every knowledge base, as gate-calibration.ts asks them.
  const calibrate = async (db: Executor, kbIds: readonly string[], domain: string, set: string) => {
    for (const kb of kbIds)
      for (const q of calibration)
        await take(db, kb, {
          domain,
          set,
          id: `${q.id}@${kb}`,
          kind: 'calibration',
          from: q.domain,
          query: q.question,
          answers: [],
          evidence: [],
          goldDocument: null,
        });
  };

  // What each set lends the knowledge bases of other domains: a fixed sample of its answerable questions.
  const lend = new Map<string, Borrowed[]>();
  // Distinct wordings only: one set asks the same question of each of its contracts.
  const distinct = <T extends { question: string }>(qs: T[]) => qs.filter((q, i) => qs.findIndex((o) => o.question === q.question) === i);
  for (const set of sets.filter((s) => !LENDS_NOTHING.has(s.name)))
    lend.set(
      set.name,
      distinct(hashOrder(set.questions.filter((q) => q.answerable)))
        .slice(0, CROSS_PER_SET)
        .map((q) => ({ id: q.id, from: set.domain, query: q.question })),
    );
  const withOwn = !only || only.has(OWN_DOMAIN);
  if (withOwn)
    lend.set(
      OWN_DOMAIN,
      hashOrder(evaluation)
        .slice(0, CROSS_PER_SET)
        .map((q) => ({ id: q.id, from: OWN_DOMAIN, query: q.question })),
    );
  const borrowed = (domain: string) => [...lend.values()].flat().filter((b) => b.from !== domain);

  const snapshot: DomainSnapshot = { domains: [...new Set([...sets.map((s) => s.domain), ...(withOwn ? [OWN_DOMAIN] : [])])], lexemes: {}, asks: [] };
  async function take(db: Executor, kbId: string, base: Omit<DomainAsk, 'config' | 'terms' | 'chunks' | 'retrievalMs' | 'kb'>) {
    const started = performance.now();
    const found = await searchChunks(db, kbId, base.query, { limit: PASSAGES_READ + BACK_MATTER_SPARE });
    const r = { ...found, chunks: withoutBackMatter(found.chunks, PASSAGES_READ) };
    const map = r.chunks.length
      ? await lexemesOf(
          db,
          r.config,
          r.chunks.flatMap((c) => tokenize(`${c.heading ?? ''} ${c.content}`)),
        )
      : new Map<string, string[]>();
    const retrievalMs = performance.now() - started;
    const words = (snapshot.lexemes[r.config] ??= {});
    for (const [w, l] of map) words[w] = l;
    snapshot.asks.push({ ...base, kb: kbId, config: r.config, terms: r.terms, chunks: r.chunks, retrievalMs });
  }

  for (const set of sets) {
    const started = performance.now();
    const handle = await openPglite();
    try {
      await prepareDatabase(handle, {});
      const { kbIds, kbOf, docIds } = await ingestSet(handle.db, set);
      const ingested = performance.now() - started;
      const base = { domain: set.domain, set: set.name };
      for (const q of set.questions) {
        const goldDocument = q.documentId ? (docIds.get(q.documentId) ?? null) : null;
        if (q.answerable && q.documentId && !goldDocument) continue;
        const kb = (q.documentId && kbOf.get(q.documentId)) || itemAt(kbIds, 0);
        await take(handle.db, kb, {
          ...base,
          id: q.id,
          kind: q.answerable ? 'answerable' : 'unanswerable',
          from: set.domain,
          query: q.question,
          answers: q.answers,
          evidence: q.evidence,
          goldDocument,
        });
      }
      let turn = 0;
      for (const b of borrowed(set.domain))
        await take(handle.db, itemAt(kbIds, turn++ % kbIds.length), {
          ...base,
          id: `${b.id}@${set.name}`,
          kind: 'cross',
          from: b.from,
          query: b.query,
          answers: [],
          evidence: [],
          goldDocument: null,
        });
      for (const q of offTopic)
        await take(handle.db, itemAt(kbIds, turn++ % kbIds.length), {
          ...base,
          id: `${q.id}@${set.name}`,
          kind: 'off-topic',
          from: 'off-topic',
          query: q.question,
          answers: [],
          evidence: [],
          goldDocument: null,
        });
      await calibrate(handle.db, kbIds, set.domain, set.name);
      console.log(
        `${set.name} (${set.domain}): ${set.documents.length} documents in ${(ingested / 1000).toFixed(0)} s, ${snapshot.asks.filter((a) => a.set === set.name).length} asks in ${((performance.now() - started - ingested) / 1000).toFixed(0)} s`,
      );
    } finally {
      await handle.close();
    }
  }

  if (withOwn) {
    const started = performance.now();
    const { handle, db, kbId } = await openSeededMarketplace();
    try {
      const docRows = (await db.execute(sql`select id, kb_id, source_name from documents`)).rows as Array<{ id: string; kb_id: string; source_name: string }>;
      const docId = new Map(docRows.map((r) => [`${r.kb_id}/${r.source_name}`, r.id]));
      const withChunks = [
        ...new Set(((await db.execute(sql`select distinct kb_id from chunks order by kb_id`)).rows as Array<{ kb_id: string }>).map((r) => r.kb_id)),
      ];
      for (const q of evaluation) {
        const kb = kbId.get(q.kb);
        const gold = kb && docId.get(`${kb}/${goldSourceName(q.gold_document)}`);
        if (!kb || !gold) continue;
        await take(db, kb, {
          domain: OWN_DOMAIN,
          set: OWN_DOMAIN,
          id: q.id,
          kind: 'answerable',
          from: OWN_DOMAIN,
          query: q.question,
          answers: [q.gold_fact],
          evidence: [],
          goldDocument: gold,
        });
      }
      // Each borrowed or off-topic question goes to one of the marketplace's knowledge bases in turn.
      let turn = 0;
      const next = () => itemAt(withChunks, turn++ % withChunks.length);
      for (const b of borrowed(OWN_DOMAIN))
        await take(db, next(), {
          domain: OWN_DOMAIN,
          set: OWN_DOMAIN,
          id: `${b.id}@${OWN_DOMAIN}`,
          kind: 'cross',
          from: b.from,
          query: b.query,
          answers: [],
          evidence: [],
          goldDocument: null,
        });
      for (const q of offTopic)
        for (let k = 0; k < 3; k++)
          await take(db, next(), {
            domain: OWN_DOMAIN,
            set: OWN_DOMAIN,
            id: `${q.id}@${OWN_DOMAIN}#${k}`,
            kind: 'off-topic',
            from: 'off-topic',
            query: q.question,
            answers: [],
            evidence: [],
            goldDocument: null,
          });
      await calibrate(db, withChunks, OWN_DOMAIN, OWN_DOMAIN);
      console.log(
        `${OWN_DOMAIN}: ${snapshot.asks.filter((a) => a.domain === OWN_DOMAIN).length} asks in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
    } finally {
      await handle.close();
    }
  }
  writeFileSync(out, JSON.stringify(snapshot));
  console.log(`wrote ${out}: ${snapshot.asks.length} asks over ${snapshot.domains.length} domains`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();

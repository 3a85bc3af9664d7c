/**
 * Answer composition without the database: what retrieval hands the extractive composer (the question's terms, the
 * passages read, the lexemes of their words) for every question of the evaluation set, every off-topic pair that
 * shares a word with its knowledge base, and every listed sample question, written once to a JSON file. replay.ts and
 * train-ranker.ts --snapshot then measure answer selection in seconds instead of minutes; run.ts stays the measure
 * of record (retrieval and answers together, through the real code path).
 *
 *   npx tsx bench/engine-quality/snapshot.ts [file]      # default /tmp/engine-quality-snapshot.json
 *
 * A snapshot is only valid while retrieval, ingestion and the seed are unchanged: take a new one after changing them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openPglite } from '@/db/client';
import { prepareDatabase } from '@/lib/platform/db';
import { seedMarketplace } from '@/lib/seed';
import { searchChunks, type QueryTerm, type RetrievedChunk } from '@/lib/engine';
import { lexemesOf } from '@/lib/engine/lexemes';
import { mapLexicon, type Lexicon } from '@/lib/engine/question';
import { PASSAGES_READ } from '@/lib/engine/sentence-ranker';
import { tokenize } from '@/lib/engine/text';
import { goldSourceName, loadEvaluationSet, loadOffTopicSet } from './evaluation-set';

export const DEFAULT_SNAPSHOT = '/tmp/engine-quality-snapshot.json';

/** One question as the composer receives it. */
export interface SnapshotAsk {
  /** Evaluation id, `ot-…@slug` for an off-topic pair, `sample:slug:n` for a sample question. */
  id: string;
  kind: 'eval' | 'off-topic' | 'sample';
  kb: string;
  query: string;
  /** The gold fact (eval, sample); null off topic. */
  fact: string | null;
  /** The gold document's id (eval only). */
  goldDocument: string | null;
  config: string;
  terms: QueryTerm[];
  chunks: RetrievedChunk[];
}

export interface Snapshot {
  /** Per text-search configuration: folded word → its lexemes, for every word of every passage read. */
  lexemes: Record<string, Record<string, string[]>>;
  asks: SnapshotAsk[];
  /** Off-topic questions × knowledge bases with documents; the pairs sharing no word are refused without a passage. */
  offTopicPairs: number;
}

export function loadSnapshot(file = DEFAULT_SNAPSHOT): Snapshot {
  return JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
}

/** The lexicon the live path would build for this ask (the same map, the same fallback). */
export function snapshotLexicon(snapshot: Snapshot, ask: SnapshotAsk): Lexicon {
  const words = snapshot.lexemes[ask.config] ?? {};
  return mapLexicon(new Map(Object.entries(words)), ask.terms);
}

/** A fresh in-memory database seeded as at start-up, and its knowledge bases' ids by slug (the bench tools' start). */
export async function openSeededMarketplace() {
  const handle = await openPglite();
  await prepareDatabase(handle, { seed: seedMarketplace });
  const kbRows = (await handle.db.execute(sql`select id, slug, sample_questions from knowledge_bases`)).rows as Array<{
    id: string;
    slug: string;
    sample_questions: string[] | null;
  }>;
  return { handle, db: handle.db, kbRows, kbId: new Map(kbRows.map((r) => [r.slug, r.id])) };
}

async function main() {
  const file = process.argv[2] ?? DEFAULT_SNAPSHOT;
  const { handle, db, kbRows, kbId } = await openSeededMarketplace();
  try {
    const docRows = (await db.execute(sql`select id, kb_id, source_name from documents`)).rows as Array<{ id: string; kb_id: string; source_name: string }>;
    const docId = new Map(docRows.map((r) => [`${r.kb_id}/${r.source_name}`, r.id]));
    const withChunks = new Set(((await db.execute(sql`select distinct kb_id from chunks`)).rows as Array<{ kb_id: string }>).map((r) => r.kb_id));
    const snapshot: Snapshot = { lexemes: {}, asks: [], offTopicPairs: loadOffTopicSet().length * withChunks.size };

    async function take(base: Omit<SnapshotAsk, 'config' | 'terms' | 'chunks'>, keepEmpty: boolean) {
      const kb = kbId.get(base.kb)!;
      const r = await searchChunks(db, kb, base.query, { limit: PASSAGES_READ });
      if (r.chunks.length === 0 && !keepEmpty) return;
      const map = await lexemesOf(
        db,
        r.config,
        r.chunks.flatMap((c) => tokenize(`${c.heading ?? ''} ${c.content}`)),
      );
      const words = (snapshot.lexemes[r.config] ??= {});
      for (const [w, l] of map) words[w] = l;
      snapshot.asks.push({ ...base, config: r.config, terms: r.terms, chunks: r.chunks });
    }

    for (const q of loadEvaluationSet()) {
      const kb = kbId.get(q.kb);
      const gold = kb && docId.get(`${kb}/${goldSourceName(q.gold_document)}`);
      if (!kb || !gold) continue;
      await take({ id: q.id, kind: 'eval', kb: q.kb, query: q.question, fact: q.gold_fact, goldDocument: gold }, true);
    }
    const expected = JSON.parse(readFileSync(path.join(process.cwd(), 'db', 'seed', 'sample-answers.json'), 'utf8')) as Record<string, Record<string, string>>;
    for (const kb of kbRows) {
      for (const [n, question] of (kb.sample_questions ?? []).entries()) {
        const fact = expected[kb.slug]?.[question];
        if (fact) await take({ id: `sample:${kb.slug}:${n}`, kind: 'sample', kb: kb.slug, query: question, fact, goldDocument: null }, true);
      }
    }
    for (const kb of kbRows) {
      if (!withChunks.has(kb.id)) continue;
      for (const q of loadOffTopicSet())
        await take({ id: `${q.id}@${kb.slug}`, kind: 'off-topic', kb: kb.slug, query: q.question, fact: null, goldDocument: null }, false);
    }
    writeFileSync(file, JSON.stringify(snapshot));
    console.log(`wrote ${file}: ${snapshot.asks.length} asks (${snapshot.offTopicPairs} off-topic pairs in all)`);
  } finally {
    await handle.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();

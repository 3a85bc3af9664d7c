import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/platform/db';
import { log } from '@/lib/platform/log';
import { dropStagedChunks, replaceDocumentChunks, STAGE_ABOVE, stageChunks } from './chunk-store';
import { embedDrafts, embeddingsConfig, type EmbeddingsConfig } from './embeddings';
import { lockKnowledgeBase, rebuildKnowledgeBaseStats, touchKnowledgeBase } from './index-stats';
import { chunkInWorker } from './parse-in-worker';
import type { ParsedDocument } from './parsers';
import { rows } from './sql-rows';

export type ReindexResult = { ok: true; documents: number; chunks: number } | { ok: false; code: 'knowledge_base_not_found' };

const NOT_FOUND = { ok: false as const, code: 'knowledge_base_not_found' as const };

/**
 * Re-chunks every document from its stored structure (after a change of the chunker, of the knowledge base's language
 * or of the text-search configuration, or for embeddings), stemming with the configuration of the knowledge base's
 * current language. Document by document, each swapped in its own short transaction as a replacement is (its large
 * chunk sets staged first), so no transaction spans the knowledge base: on PGlite one would hold the only connection,
 * and every request, for as long as the whole knowledge base takes to index.
 *
 * What a reader sees meanwhile: every document whole, in its old chunks or its new ones, and statistics that are
 * exactly those of the chunks it sees (each swap moves a document's share of them with its chunks, under the
 * statistics row's lock): the knowledge base as if its documents were uploaded again one by one, which it already
 * allows. After a change of language the configuration is switched first (so that ingestions meanwhile index with it
 * too): until its turn, a document's old chunks keep the old language's stems while questions get the new one's, and a
 * word the two stem differently misses in it. Acceptable for the minutes a reindex takes: the knowledge base answers
 * throughout, where the one transaction made every writer (and on PGlite every request) wait as long. A reindex killed
 * half-way leaves that state until it runs again (its job is retried; from the CLI, run it again). Two reindexes at
 * once (a job retried while its first attempt still runs) swap whole documents each, and write the same chunks.
 */
export async function reindexKnowledgeBase(db: Executor, kbId: string, options: { embeddings?: EmbeddingsConfig | null } = {}): Promise<ReindexResult> {
  const embeddings = options.embeddings === undefined ? embeddingsConfig() : options.embeddings;
  if (!(await db.transaction((tx) => lockKnowledgeBase(tx, kbId, { adoptLanguage: true })))) return NOT_FOUND;
  const docs = rows<{ id: string }>(await db.execute(sql`select id from documents where kb_id = ${kbId} order by id`));
  let total = 0;
  for (const { id } of docs) {
    const chunks = await reindexDocument(db, kbId, id, embeddings);
    if (chunks === null) return NOT_FOUND;
    total += chunks;
  }
  const found = await db.transaction(async (tx) => {
    if (!(await lockKnowledgeBase(tx, kbId))) return false;
    await repairDrift(tx, kbId);
    await touchKnowledgeBase(tx, kbId);
    return true;
  });
  return found ? { ok: true, documents: docs.length, chunks: total } : NOT_FOUND;
}

/**
 * Statistics kept per document stay exact; ones that disagree with the chunks' count or total length were left wrong
 * by an earlier fault, and are rebuilt from every chunk (one statement per table, proportional to the knowledge base:
 * the repair, not the rule).
 */
async function repairDrift(tx: Executor, kbId: string): Promise<void> {
  const [state] = rows<{ agrees: boolean }>(
    await tx.execute(sql`
      select s.chunk_count = c.n and s.total_length = c.len as agrees
      from kb_index_stats s, (select count(*)::int as n, coalesce(sum(lexeme_count), 0)::bigint as len from chunks where kb_id = ${kbId}) c
      where s.kb_id = ${kbId}`),
  );
  if (state?.agrees) return;
  log.warn({ kbId }, 'index statistics disagreed with the chunks; rebuilt');
  await rebuildKnowledgeBaseStats(tx, kbId);
}

/**
 * One document's new chunks in place of its old ones: the number written, 0 for a document with nothing to re-chunk
 * (no structure, or replaced or deleted since it was read: the ingestion that did it indexed it afresh), null once
 * the knowledge base is gone. Its structure is read alone, so that the knowledge base is never in memory at once.
 */
async function reindexDocument(db: Executor, kbId: string, documentId: string, embeddings: EmbeddingsConfig | null): Promise<number | null> {
  const [doc] = rows<{
    title: string;
    mime_type: string;
    page_count: number | null;
    content_hash: string;
    structure: { format: ParsedDocument['format']; pages: ParsedDocument['pages'] } | null;
  }>(await db.execute(sql`select title, mime_type, page_count, content_hash, structure from documents where id = ${documentId} and kb_id = ${kbId}`));
  if (!doc?.structure) return 0;
  const parsed: ParsedDocument = {
    title: doc.title,
    format: doc.structure.format,
    mimeType: doc.mime_type,
    pageCount: doc.page_count,
    pages: doc.structure.pages,
  };
  const drafts = await chunkInWorker(parsed);
  const embedded = await embedDrafts(embeddings, drafts, documentId);
  const staged = drafts.length > STAGE_ABOVE ? await stageChunks(db, kbId, documentId, drafts) : null;
  try {
    return await db.transaction(async (tx) => {
      const config = await lockKnowledgeBase(tx, kbId);
      if (!config) return null;
      const [current] = rows<{ content_hash: string }>(await tx.execute(sql`select content_hash from documents where id = ${documentId} and kb_id = ${kbId}`));
      if (current?.content_hash !== doc.content_hash) return 0;
      await replaceDocumentChunks(tx, kbId, documentId, { drafts, config, staged, embedded });
      await tx.execute(sql`update documents set chunk_count = ${drafts.length}, updated_at = now() where id = ${documentId}`);
      return drafts.length;
    });
  } finally {
    if (staged) await dropStagedChunks(db, staged);
  }
}

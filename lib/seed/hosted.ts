import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ingestDocument, type IngestResult } from '@/lib/engine';
import { parsePdfSource, renderPdfFromSource } from '@/lib/engine';
import type { Database, Executor } from '@/db/client';
import { HOSTED_SOURCE_DIR } from './sample-data';

const SOURCE_EXTENSIONS = ['.md', '.txt', '.html', '.htm'];

export interface SeedSourceFile {
  /** The name the document is ingested under (`x.pdf` for a `x.pdf.txt` source). */
  sourceName: string;
  file: string;
  bytes: Uint8Array;
}

function isSourceFile(name: string): boolean {
  return name.endsWith('.pdf.txt') || SOURCE_EXTENSIONS.includes(path.extname(name).toLowerCase());
}

/** `*.pdf.txt` sources become real PDFs, one source page per PDF page, so page numbers come from the engine's PDF path. */
export async function loadSeedSources(folder: string, author?: string): Promise<SeedSourceFile[]> {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return [];
  const names = readdirSync(folder).filter(isSourceFile).sort();
  const out: SeedSourceFile[] = [];
  for (const name of names) {
    const file = path.join(folder, name);
    if (name.endsWith('.pdf.txt')) {
      const bytes = await renderPdfFromSource(parsePdfSource(readFileSync(file, 'utf8')), { author });
      out.push({ sourceName: name.slice(0, -'.txt'.length), file, bytes });
    } else {
      out.push({ sourceName: name, file, bytes: readFileSync(file) });
    }
  }
  return out;
}

/** The one document of a knowledge base without seed sources, written from its catalogue entry. */
function aboutDocument(kb: { title: string; summary: string; description: string; publisher: string }): SeedSourceFile {
  const text = [
    '# About this knowledge base',
    '',
    `## ${kb.title}`,
    '',
    `Published by ${kb.publisher}. Sample content written for the Almanac demo marketplace.`,
    '',
    kb.summary,
    '',
    ...kb.description.split(/\n\s*\n/).flatMap((p) => [p.trim(), '']),
  ].join('\n');
  return { sourceName: 'about-this-knowledge-base.md', file: '(generated)', bytes: new TextEncoder().encode(text) };
}

export interface HostedSeedReport {
  knowledgeBases: number;
  documents: number;
  chunks: number;
  pages: number;
  failures: Array<{ kb: string; source: string; message: string }>;
}

/** Other hosted knowledge bases get one "About" document from their catalogue text; each keeps its seeded `updated_at`. */
export async function seedHostedDocuments(db: Database | Executor): Promise<HostedSeedReport> {
  const kbs = (
    await db.execute(sql`
      select k.id, k.slug, k.title, k.summary, k.description, k.updated_at, p.name as publisher
      from knowledge_bases k join publishers p on p.id = k.publisher_id
      where k.backend_kind = 'hosted' order by k.slug`)
  ).rows as Array<{ id: string; slug: string; title: string; summary: string; description: string; updated_at: Date | string; publisher: string }>;
  const report: HostedSeedReport = { knowledgeBases: 0, documents: 0, chunks: 0, pages: 0, failures: [] };
  for (const kb of kbs) {
    let sources = await loadSeedSources(path.join(HOSTED_SOURCE_DIR, kb.slug), kb.publisher);
    if (sources.length === 0) sources = [aboutDocument(kb)];
    for (const source of sources) {
      const result: IngestResult = await ingestDocument(
        db,
        kb.id,
        { sourceName: source.sourceName, bytes: source.bytes },
        { maxBytes: Number.MAX_SAFE_INTEGER },
      );
      if (result.ok) {
        report.documents++;
        report.chunks += result.chunkCount;
        report.pages += result.pageCount ?? 1;
      } else {
        report.failures.push({ kb: kb.slug, source: source.sourceName, message: result.message });
      }
    }
    report.knowledgeBases++;
    const updatedAt = kb.updated_at instanceof Date ? kb.updated_at.toISOString() : new Date(kb.updated_at).toISOString();
    await db.execute(sql`update knowledge_bases set updated_at = ${updatedAt}::timestamptz where id = ${kb.id}`);
  }
  return report;
}

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { recordAudit } from '@/lib/platform/audit';
import { getDb } from '@/lib/platform/db';
import { answerHostedQuery } from '@/lib/engine';
import { calibrateGate, deleteDocument, ingestDocument, reindexKnowledgeBase, type IngestResult } from '@/lib/engine';
import { createHostedKnowledgeBase } from '@/lib/publishing';
import { detectFormat } from '@/lib/engine';
import { parsePdfSource, renderPdfFromSource } from '@/lib/engine';
import { newId } from '@/lib/platform/ids';
import { describeResolveFailure, resolveKnowledgeBase, type OperatorKnowledgeBase } from '@/lib/publishing';
import { command, FAILED, parse, required, UsageError } from './args';
import type { CliCommand } from './types';

// Operator commands for hosted knowledge bases (docs/api.md §8.3): create, ingest, reindex, delete a document, ask.

async function knowledgeBase(ref: string): Promise<OperatorKnowledgeBase | null> {
  const found = await resolveKnowledgeBase(await getDb(), ref);
  if (!found.ok) {
    console.error(describeResolveFailure(ref, found));
    return null;
  }
  return found.kb;
}

/** Unsupported files named directly are listed as failures. */
export function collectFiles(paths: string[]): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const stat = statSync(p);
    if (stat.isDirectory()) {
      for (const name of readdirSync(p).sort()) {
        if (name.startsWith('.')) continue;
        const child = path.join(p, name);
        // Inside folders only document-like files: a sample-questions.json is not a document.
        if (statSync(child).isDirectory() || detectFormat(child) || name.endsWith('.pdf.txt')) walk(child);
      }
    } else out.push(p);
  };
  for (const p of paths) {
    if (!existsSync(p)) throw new UsageError(`No such file or folder: ${p}`);
    walk(p);
  }
  return out;
}

function progress(done: number, total: number, label: string): void {
  const width = 24;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${label}`;
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${bar.slice(0, (process.stderr.columns || 100) - 1)}`);
  else process.stderr.write(`${bar}\n`);
}

const createKb = command({
  name: 'create-kb',
  summary: 'Create a hosted knowledge base (published, with the three default plans)',
  usage: [
    '--title <text>          title (required)',
    '--publisher <slug|name> existing publisher slug or name; a new name creates the publisher (required)',
    '--category <category>   education | policy | health | research | legal (required)',
    '--tags a,b              comma-separated tags (optional)',
    '--summary <text>        one-line summary, 10–300 characters (required)',
    '--description <text>    longer description (optional)',
  ].join('\n'),
  async body(args) {
    const { values } = parse(args, {
      title: { type: 'string' },
      publisher: { type: 'string' },
      category: { type: 'string' },
      tags: { type: 'string' },
      summary: { type: 'string' },
      description: { type: 'string' },
    });
    const db = await getDb();
    const result = await createHostedKnowledgeBase(db, {
      title: required(values.title, '--title'),
      publisher: required(values.publisher, '--publisher'),
      category: required(values.category, '--category').toLowerCase() as 'legal',
      tags: (values.tags ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
      summary: required(values.summary, '--summary'),
      description: values.description ?? '',
    });
    if (!result.ok) throw new UsageError(result.message);
    await recordAudit(db, {
      actorKind: 'cli',
      action: 'knowledge_base.create',
      targetType: 'knowledge_base',
      targetId: result.id,
      metadata: { slug: result.slug },
    });
    console.log(`Created knowledge base ${result.id} (slug ${result.slug})${result.publisherCreated ? ` and publisher ${result.publisherId}` : ''}.`);
    console.log(`Plans: ${result.planIds.join(', ')}`);
    console.log(`Next: npm run almanac -- ingest --kb ${result.id} <files or folders>`);
    return 0;
  },
});

const ingest = command({
  name: 'ingest',
  summary: 'Ingest files or folders (.txt, .md, .html, .pdf; .pdf.txt sources are rendered to PDF) into a hosted knowledge base',
  usage: ['--kb <id|slug>   the knowledge base (required)', '<file-or-folder>…  one or more paths; folders are walked recursively'].join('\n'),
  async body(args) {
    const { values, positionals } = parse(args, { kb: { type: 'string' } }, true);
    const kbRef = required(values.kb, '--kb');
    if (positionals.length === 0) throw new UsageError('Give at least one file or folder.');
    const files = collectFiles(positionals);
    const kb = await knowledgeBase(kbRef);
    if (!kb) return FAILED;
    const db = await getDb();
    const results: IngestResult[] = [];
    const started = Date.now();
    let pages = 0;
    for (const [i, file] of files.entries()) {
      progress(i, files.length, path.basename(file));
      const isPdfSource = file.endsWith('.pdf.txt');
      const sourceName = isPdfSource ? path.basename(file).slice(0, -'.txt'.length) : path.basename(file);
      const bytes = isPdfSource ? await renderPdfFromSource(parsePdfSource(readFileSync(file, 'utf8'))) : readFileSync(file);
      const result = await ingestDocument(db, kb.id, { sourceName, bytes });
      if (result.ok) pages += result.pageCount ?? 1;
      results.push(result);
    }
    progress(files.length, files.length, 'done');
    if (process.stderr.isTTY) process.stderr.write('\n');
    const seconds = (Date.now() - started) / 1000;
    const count = (status: string) => results.filter((r) => r.ok && r.status === status).length;
    const failed = results.filter((r): r is Extract<IngestResult, { ok: false }> => !r.ok);
    console.log(
      `${kb.title} (${kb.id}): ${count('added')} added, ${count('replaced')} replaced, ${count('duplicate')} duplicate, ${failed.length} failed — ${pages} pages in ${seconds.toFixed(1)} s`,
    );
    for (const r of results) {
      if (r.ok) console.log(`  ${r.status.padEnd(9)} ${r.sourceName} → ${r.documentId} (${r.chunkCount} chunks${r.pageCount ? `, ${r.pageCount} pages` : ''})`);
      else console.log(`  failed    ${r.sourceName}: ${r.code} — ${r.message}`);
    }
    if (results.some((r) => r.ok && r.status !== 'duplicate')) {
      await reportCalibration(db, kb.id);
      await recordAudit(db, {
        actorKind: 'cli',
        action: 'knowledge_base.ingest',
        targetType: 'knowledge_base',
        targetId: kb.id,
        metadata: { added: count('added'), replaced: count('replaced'), duplicate: count('duplicate'), failed: failed.length },
      });
    }
    return failed.length > 0 ? FAILED : 0;
  },
});

/** As the upload jobs do after an index changes (lib/engine/gate-calibration.ts). */
async function reportCalibration(db: Awaited<ReturnType<typeof getDb>>, kbId: string): Promise<void> {
  const threshold = await calibrateGate(db, kbId);
  console.log(
    threshold === null
      ? 'Relevance gate: the shipped threshold.'
      : `Relevance gate: this knowledge base's threshold is ${threshold} (it shares words with many unrelated questions).`,
  );
}

const reindex = command({
  name: 'reindex',
  summary: "Re-chunk a hosted knowledge base's documents and rebuild its search statistics",
  usage: '--kb <id|slug>   the knowledge base (required)',
  async body(args) {
    const { values } = parse(args, { kb: { type: 'string' } });
    const kb = await knowledgeBase(required(values.kb, '--kb'));
    if (!kb) return FAILED;
    const started = Date.now();
    const result = await reindexKnowledgeBase(await getDb(), kb.id);
    if (!result.ok) {
      console.error(`No knowledge base ${kb.id}.`);
      return FAILED;
    }
    console.log(`Reindexed ${kb.title} (${kb.id}): ${result.documents} documents, ${result.chunks} chunks in ${Date.now() - started} ms.`);
    await reportCalibration(await getDb(), kb.id);
    return 0;
  },
});

const removeDocument = command({
  name: 'delete-document',
  summary: 'Delete a document (and its chunks) from a hosted knowledge base',
  usage: ['--kb <id|slug>     the knowledge base (required)', '--document <doc_id> the document (required)'].join('\n'),
  async body(args) {
    const { values } = parse(args, { kb: { type: 'string' }, document: { type: 'string' } });
    const kb = await knowledgeBase(required(values.kb, '--kb'));
    const documentId = required(values.document, '--document');
    if (!kb) return FAILED;
    const db = await getDb();
    const result = await deleteDocument(db, kb.id, documentId);
    if (!result.ok) {
      console.error(result.code === 'document_not_found' ? `No document ${documentId} in ${kb.id}.` : `No knowledge base ${kb.id}.`);
      return FAILED;
    }
    await recordAudit(db, { actorKind: 'cli', action: 'document.delete', targetType: 'document', targetId: documentId, metadata: { kbId: kb.id } });
    console.log(`Deleted ${documentId} from ${kb.title} (${kb.id}).`);
    await reportCalibration(db, kb.id);
    return 0;
  },
});

const ask = command({
  name: 'ask',
  summary: 'Ask a hosted knowledge base a question (prints the answer and numbered citations)',
  usage: ['--kb <id|slug>   the knowledge base (required)', '--json           print the raw answer object', '"question"       the question'].join('\n'),
  async body(args) {
    const { values, positionals } = parse(args, { kb: { type: 'string' }, json: { type: 'boolean' } }, true);
    const kb = await knowledgeBase(required(values.kb, '--kb'));
    const question = positionals.join(' ').trim();
    if (!question) throw new UsageError('Give the question.');
    if (!kb) return FAILED;
    if (kb.backendKind !== 'hosted') {
      console.error(`${kb.id} is answered by its publisher's own endpoint, not the built-in engine.`);
      return FAILED;
    }
    const started = Date.now();
    const answer = await answerHostedQuery({ kbId: kb.id, query: question, requestId: newId('req') }, await getDb());
    if (values.json) {
      console.log(JSON.stringify(answer, null, 2));
      return 0;
    }
    console.log(`${answer.answer}\n`);
    answer.citations.forEach((c, i) => {
      console.log(`[${i + 1}] ${c.title}${c.page ? `, page ${c.page}` : ''} (${c.document_id})`);
      console.log(`    "${c.excerpt}"`);
    });
    console.log(`\n${answer.tokens_used} tokens, ${Date.now() - started} ms`);
    return 0;
  },
});

export const engineCommands: CliCommand[] = [createKb, ingest, reindex, removeDocument, ask];

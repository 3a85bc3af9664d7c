import path from 'node:path';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@/test/support/db';
import type { Database } from '@/lib/platform/db';
import { answerHostedQuery } from '@/lib/engine';
import { detectFormat, pageText, parseSource } from '@/lib/engine/parsers';
import { parsePdfSource } from '@/lib/engine/pdf-render';
import { loadSeedSources } from '@/lib/seed/hosted';
import { HOSTED_SOURCE_DIR } from '@/lib/seed/sample-data';
import { loadEvaluationSet } from '@/bench/engine-quality/evaluation-set';
import { itemAt } from '@/lib/platform/arrays';

/**
 * Citation verification over the whole evaluation set, on the seeded marketplace: every excerpt of every answer
 * occurs verbatim in the text extracted (independently of the database) from the cited document, on the cited page
 * for PDFs; and the PDF text itself matches its `.pdf.txt` source page, so the page numbers are the source's.
 */
const questions = loadEvaluationSet();
let db: Database;
/** document id → page (null for unpaged) → extracted page text */
const extracted = new Map<string, Map<number | null, string>>();
const pdfSourcePages = new Map<string, string[]>();

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  db = (await createTestDatabase({ seed: true })).db;
  const docs = (
    await db.execute(sql`
    select d.id, d.source_name, k.slug from documents d join knowledge_bases k on k.id = d.kb_id
    where k.slug in (${sql.join(
      [...new Set(questions.map((q) => q.kb))].map((s) => sql`${s}`),
      sql`, `,
    )})`)
  ).rows as Array<{ id: string; source_name: string; slug: string }>;
  const bySlug = new Map<string, typeof docs>();
  for (const d of docs) bySlug.set(d.slug, [...(bySlug.get(d.slug) ?? []), d]);
  for (const [slug, list] of bySlug) {
    const sources = await loadSeedSources(path.join(HOSTED_SOURCE_DIR, slug));
    for (const d of list) {
      const src = sources.find((s) => s.sourceName === d.source_name);
      if (!src) continue;
      const parsed = await parseSource(detectFormat(src.sourceName)!, src.bytes, src.sourceName);
      extracted.set(d.id, new Map(parsed.pages.map((p) => [p.page, pageText(p)])));
      if (src.file.endsWith('.pdf.txt')) pdfSourcePages.set(d.id, parsePdfSource(readFileSync(src.file, 'utf8')).pages);
    }
  }
}, 300_000);

describe('citation verification over the evaluation set', () => {
  it('has the evaluation set and its documents', () => {
    expect(questions.length).toBeGreaterThanOrEqual(100);
    expect(extracted.size).toBeGreaterThan(20);
    expect(pdfSourcePages.size).toBeGreaterThanOrEqual(3);
  });

  it('every excerpt occurs verbatim in the cited document, on the cited page', async () => {
    const kbIds = new Map(
      ((await db.execute(sql`select id, slug from knowledge_bases`)).rows as Array<{ id: string; slug: string }>).map((r) => [r.slug, r.id]),
    );
    let citations = 0;
    let pdfCitations = 0;
    const failures: string[] = [];
    for (const q of questions) {
      const answer = await answerHostedQuery({ kbId: kbIds.get(q.kb)!, query: q.question, requestId: q.id }, db, { llm: null });
      for (const c of answer.citations) {
        citations++;
        const pages = extracted.get(c.document_id);
        const text = pages?.get(c.page);
        if (!text || !text.includes(c.excerpt)) failures.push(`${q.id}: "${c.excerpt.slice(0, 80)}" not on page ${c.page} of ${c.document_id}`);
        const sourcePages = pdfSourcePages.get(c.document_id);
        if (sourcePages) {
          pdfCitations++;
          expect(c.page).not.toBeNull();
          // The PDF round trip keeps the words: the excerpt is on the same page of the .pdf.txt source.
          const sourcePage = collapse(itemAt(sourcePages, c.page! - 1).replace(/^#+\s+/gm, ''));
          if (!sourcePage.includes(collapse(c.excerpt))) failures.push(`${q.id}: excerpt not on source page ${c.page} of ${c.document_id}`);
        } else if (c.page !== null) {
          failures.push(`${q.id}: unpaged document cited with page ${c.page}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(citations).toBeGreaterThan(questions.length);
    expect(pdfCitations).toBeGreaterThan(10);
  }, 300_000);
});

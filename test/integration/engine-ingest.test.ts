import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@/test/support/db';
import type { Database } from '@/lib/platform/db';
import { deleteDocument, documentIdFor, ingestDocument } from '@/lib/engine/ingest';
import { reindexKnowledgeBase } from '@/lib/engine/reindex';
import { createHostedKnowledgeBase } from '@/lib/publishing/knowledge-bases';
import { parsePdfSource, renderPdfFromSource } from '@/lib/engine/pdf-render';
import { rebuildKnowledgeBaseStats } from '@/lib/engine/ingest';

const enc = (s: string) => new TextEncoder().encode(s);
let db: Database;

async function newKb(title = 'Ingest Test Base'): Promise<string> {
  const created = await createHostedKnowledgeBase(db, {
    title,
    publisher: 'Engine Test Press',
    category: 'research',
    tags: ['test'],
    summary: 'A knowledge base used by the engine tests.',
  });
  if (!created.ok) throw new Error(created.message);
  return created.id;
}

/** Everything ingestion may change, to prove a failure changed nothing. */
async function snapshot(kbId: string) {
  const one = async (q: ReturnType<typeof sql>) => (await db.execute(q)).rows;
  return {
    kb: await one(sql`select documents_count, updated_at from knowledge_bases where id = ${kbId}`),
    documents: await one(sql`select id, source_name, content_hash, chunk_count, updated_at from documents where kb_id = ${kbId} order by id`),
    chunks: await one(sql`select id, document_id, content from chunks where kb_id = ${kbId} order by id`),
    terms: await one(sql`select lexeme, doc_freq from kb_terms where kb_id = ${kbId} order by lexeme`),
    stats: await one(sql`select chunk_count, total_length from kb_index_stats where kb_id = ${kbId}`),
  };
}

async function chunkRows(documentId: string) {
  return (await db.execute(sql`select ordinal, page, heading, content, lexeme_count from chunks where document_id = ${documentId} order by ordinal`))
    .rows as Array<{
    ordinal: number;
    page: number | null;
    heading: string | null;
    content: string;
    lexeme_count: number;
  }>;
}

const paragraph = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Sentence ${i + 1} explains how ${topic} affects regional outcomes in measurable ways.`).join(' ');

beforeAll(async () => {
  db = (await createTestDatabase()).db;
});

describe('ingesting each format', () => {
  it('plain text: first line is the title, short capitalised lines become headings', async () => {
    const kb = await newKb();
    const text = `River Management Notes\n\nFLOOD PLAINS\n\n${paragraph('flood plain zoning', 6)}\n\nSEDIMENT\n\n${paragraph('sediment transport', 5)}\n`;
    const result = await ingestDocument(db, kb, { sourceName: 'river-notes.txt', bytes: enc(text) });
    expect(result).toMatchObject({ ok: true, status: 'added', title: 'River Management Notes', pageCount: null });
    if (!result.ok) return;
    expect(result.documentId).toBe(documentIdFor(kb, 'river-notes.txt'));
    const rows = await chunkRows(result.documentId);
    expect(rows.map((r) => r.heading)).toEqual(['River Management Notes > FLOOD PLAINS', 'River Management Notes > SEDIMENT']);
    expect(rows.every((r) => r.page === null && r.lexeme_count > 0)).toBe(true);
  });

  it('Markdown: headings build the path, emphasis and links are reduced to text', async () => {
    const kb = await newKb();
    const md = `# Soil Guide\n\nIntro about **soil health** and [compost](https://example.com).\n\n## Nitrogen\n\n- Legumes fix nitrogen in root nodules.\n- Clover is a common *cover crop*.\n\n### Timing\n\nApply nitrogen in spring when roots are active.\n`;
    const result = await ingestDocument(db, kb, { sourceName: 'soil.md', bytes: enc(md) });
    expect(result).toMatchObject({ ok: true, status: 'added', title: 'Soil Guide' });
    if (!result.ok) return;
    const rows = await chunkRows(result.documentId);
    expect(rows.map((r) => r.heading)).toEqual(['Soil Guide', 'Soil Guide > Nitrogen', 'Soil Guide > Nitrogen > Timing']);
    expect(rows[0]?.content).toBe('Intro about soil health and compost.');
    expect(rows[1]?.content).toBe('Legumes fix nitrogen in root nodules.\n\nClover is a common cover crop.');
  });

  it('HTML: title from <title>; scripts, styles and navigation dropped; tables and lists kept', async () => {
    const kb = await newKb();
    const html = `<!doctype html><html><head><title>Tide Tables Explained</title><style>p{color:red}</style></head><body>
      <nav><a href="/">Home</a> | <a href="/x">Menu link text</a></nav>
      <script>var secretTracking = "should never be indexed";</script>
      <h1>Tide Tables Explained</h1><p>Tides rise and fall twice a day on most coasts.</p>
      <h2>Spring tides</h2><ul><li>Spring tides happen near new and full moon.</li><li>Neap tides happen at quarter moons.</li></ul>
      <table><tr><th>Port</th><th>Range</th></tr><tr><td>Bristol</td><td>14 metres</td></tr></table></body></html>`;
    const result = await ingestDocument(db, kb, { sourceName: 'tides.html', bytes: enc(html) });
    expect(result).toMatchObject({ ok: true, status: 'added', title: 'Tide Tables Explained' });
    if (!result.ok) return;
    const all = (await chunkRows(result.documentId)).map((r) => r.content).join('\n');
    expect(all).toContain('Spring tides happen near new and full moon.');
    expect(all).toContain('Bristol; 14 metres');
    expect(all).not.toContain('secretTracking');
    expect(all).not.toContain('Menu link text');
    expect(all).not.toContain('color:red');
  });

  it('PDF: pages come from the PDF and every chunk keeps its page', async () => {
    const kb = await newKb();
    const source = `# Orchard Handbook\nIntro page about apple orchards and their care through the seasons.\n\n## Planting\n\n${paragraph('apple tree planting', 8)}\n---page---\n## Pruning\n\n${paragraph('winter pruning', 9)}\n---page---\n## Harvest\n\n${paragraph('harvest timing', 7)}`;
    const pdf = await renderPdfFromSource(parsePdfSource(source));
    const result = await ingestDocument(db, kb, { sourceName: 'orchard.pdf', bytes: pdf });
    expect(result).toMatchObject({ ok: true, status: 'added', title: 'Orchard Handbook', pageCount: 3 });
    if (!result.ok) return;
    const rows = await chunkRows(result.documentId);
    expect(new Set(rows.map((r) => r.page))).toEqual(new Set([1, 2, 3]));
    expect(rows.find((r) => r.content.includes('winter pruning'))?.page).toBe(2);
    expect(rows.find((r) => r.content.includes('harvest timing'))?.heading).toBe('Orchard Handbook > Harvest');
    const doc = (await db.execute(sql`select page_count, mime_type from documents where id = ${result.documentId}`)).rows[0];
    expect(doc).toMatchObject({ page_count: 3, mime_type: 'application/pdf' });
  });
});

describe('replacement, duplicates and counts', () => {
  it('re-ingesting a changed document replaces its chunks and statistics; the id stays', async () => {
    const kb = await newKb();
    const v1 = await ingestDocument(db, kb, { sourceName: 'policy.md', bytes: enc(`# Policy\n\nThe walrus clause covers arctic shipping lanes.\n`) });
    const v2 = await ingestDocument(db, kb, { sourceName: 'policy.md', bytes: enc(`# Policy\n\nThe pelican clause covers coastal fisheries.\n`) });
    expect(v1).toMatchObject({ ok: true, status: 'added' });
    expect(v2).toMatchObject({ ok: true, status: 'replaced' });
    if (!v1.ok || !v2.ok) return;
    expect(v2.documentId).toBe(v1.documentId);
    const contents = (await chunkRows(v2.documentId)).map((r) => r.content);
    expect(contents).toEqual(['The pelican clause covers coastal fisheries.']);
    const terms = (await db.execute(sql`select lexeme from kb_terms where kb_id = ${kb}`)).rows.map((r) => (r as { lexeme: string }).lexeme);
    expect(terms).toContain('pelican');
    expect(terms).not.toContain('walrus');
    const kbRow = (await db.execute(sql`select documents_count from knowledge_bases where id = ${kb}`)).rows[0];
    expect(kbRow).toMatchObject({ documents_count: 1 });
  });

  it('a replacement that fails half-way leaves the previous version intact (one transaction)', async () => {
    const kb = await newKb();
    const v1 = await ingestDocument(db, kb, { sourceName: 'atomic.md', bytes: enc(`# Atomic\n\nThe original heron paragraph stays.\n`) });
    expect(v1).toMatchObject({ ok: true, status: 'added' });
    const before = await snapshot(kb);
    // A trigger that rejects one chunk makes the replacement fail after the old chunks were deleted.
    await db.execute(sql`create or replace function engine_test_reject() returns trigger language plpgsql as $$
      begin if new.content like '%EXPLODE%' then raise exception 'rejected by test trigger'; end if; return new; end $$`);
    await db.execute(sql`create trigger engine_test_reject before insert on chunks for each row execute function engine_test_reject()`);
    try {
      await expect(
        ingestDocument(db, kb, { sourceName: 'atomic.md', bytes: enc(`# Atomic\n\nA new first paragraph.\n\nThis one will EXPLODE on insert.\n`) }),
      ).rejects.toThrow();
    } finally {
      await db.execute(sql`drop trigger engine_test_reject on chunks`);
    }
    expect(await snapshot(kb)).toEqual(before);
  });

  it('identical bytes are a duplicate, under the same or another name, and change nothing', async () => {
    const kb = await newKb();
    const bytes = enc(`# Glaciers\n\nGlaciers carve U-shaped valleys over millennia.\n`);
    const first = await ingestDocument(db, kb, { sourceName: 'glaciers.md', bytes });
    const before = await snapshot(kb);
    const again = await ingestDocument(db, kb, { sourceName: 'glaciers.md', bytes });
    const renamed = await ingestDocument(db, kb, { sourceName: 'copy-of-glaciers.md', bytes });
    expect(first).toMatchObject({ ok: true, status: 'added' });
    if (!first.ok) return;
    expect(again).toMatchObject({ ok: true, status: 'duplicate', documentId: first.documentId });
    expect(renamed).toMatchObject({ ok: true, status: 'duplicate', duplicateOf: first.documentId });
    expect(await snapshot(kb)).toEqual(before);
  });

  it('documents_count and updated_at follow additions and deletions', async () => {
    const kb = await newKb();
    await db.execute(sql`update knowledge_bases set updated_at = '2020-01-01T00:00:00Z' where id = ${kb}`);
    const a = await ingestDocument(db, kb, { sourceName: 'a.txt', bytes: enc('Alpha\n\nAlpha paragraph about bees and pollination.') });
    await ingestDocument(db, kb, { sourceName: 'b.txt', bytes: enc('Beta\n\nBeta paragraph about wasps and nests.') });
    let row = (await db.execute(sql`select documents_count, updated_at from knowledge_bases where id = ${kb}`)).rows[0] as {
      documents_count: number;
      updated_at: Date | string;
    };
    expect(row.documents_count).toBe(2);
    expect(new Date(row.updated_at).getTime()).toBeGreaterThan(Date.parse('2021-01-01'));
    if (!a.ok) throw new Error('ingest failed');
    expect(await deleteDocument(db, kb, a.documentId)).toEqual({ ok: true, documentId: a.documentId });
    expect(await deleteDocument(db, kb, a.documentId)).toEqual({ ok: false, code: 'document_not_found' });
    row = (await db.execute(sql`select documents_count, updated_at from knowledge_bases where id = ${kb}`)).rows[0] as typeof row;
    expect(row.documents_count).toBe(1);
    const terms = (await db.execute(sql`select lexeme from kb_terms where kb_id = ${kb}`)).rows.map((r) => (r as { lexeme: string }).lexeme);
    expect(terms).toContain('wasp');
    expect(terms).not.toContain('bee');
  });

  it('incremental statistics equal a rebuild from scratch, and reindex keeps them', async () => {
    const kb = await newKb();
    await ingestDocument(db, kb, { sourceName: 'x.md', bytes: enc(`# X\n\n${paragraph('coral bleaching', 30)}\n\n## Y\n\n${paragraph('reef fish', 12)}`) });
    await ingestDocument(db, kb, { sourceName: 'y.md', bytes: enc(`# Y\n\n${paragraph('kelp forests', 14)}`) });
    await ingestDocument(db, kb, { sourceName: 'x.md', bytes: enc(`# X\n\n${paragraph('coral spawning', 20)}`) });
    const incremental = await snapshot(kb);
    await db.transaction((tx) => rebuildKnowledgeBaseStats(tx, kb));
    const rebuilt = await snapshot(kb);
    expect(rebuilt.terms).toEqual(incremental.terms);
    expect(rebuilt.stats).toEqual(incremental.stats);
    const reindexed = await reindexKnowledgeBase(db, kb);
    expect(reindexed).toMatchObject({ ok: true, documents: 2 });
    const after = await snapshot(kb);
    expect(after.terms).toEqual(incremental.terms);
    // Reindexing re-inserts the chunks (new ids, document order): compare the contents, not the row order.
    const contents = (snap: typeof after) => snap.chunks.map((c) => (c as { content: string }).content).sort();
    expect(contents(after)).toEqual(contents(incremental));
  });
});

describe('bad files leave the knowledge base unchanged', () => {
  const cases: Array<{ name: string; sourceName: string; bytes: () => Uint8Array | Promise<Uint8Array>; code: string; maxBytes?: number }> = [
    { name: 'empty file', sourceName: 'empty.md', bytes: () => new Uint8Array(), code: 'empty_file' },
    { name: 'whitespace only', sourceName: 'blank.txt', bytes: () => enc('   \n\n  \n'), code: 'no_text' },
    { name: 'unsupported type', sourceName: 'report.docx', bytes: () => enc('PK fake office file'), code: 'unsupported_type' },
    { name: 'over the size limit', sourceName: 'big.txt', bytes: () => enc('Big\n\n' + 'word '.repeat(500)), code: 'file_too_large', maxBytes: 1_000 },
    {
      name: 'corrupt PDF',
      sourceName: 'broken.pdf',
      bytes: () => enc('%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage without xref or pages'),
      code: 'corrupt_pdf',
    },
    { name: 'not a PDF at all', sourceName: 'fake.pdf', bytes: () => enc('just some text pretending'), code: 'corrupt_pdf' },
    {
      name: 'truncated PDF',
      sourceName: 'truncated.pdf',
      bytes: async () => (await renderPdfFromSource(parsePdfSource('# T\nSome words here.'))).slice(0, 200),
      code: 'corrupt_pdf',
    },
    // Text that is not UTF-8 is read as Windows-1252 (lib/engine/parsers.ts decodeText); binary data is refused.
    {
      name: 'binary data named .txt',
      sourceName: 'photo.txt',
      bytes: () => new Uint8Array([0x54, 0x69, 0x74, 0x6c, 0x65, 0x0a, 0x00, 0xff, 0xfe, 0xfd]),
      code: 'invalid_encoding',
    },
    {
      name: 'HTML without text',
      sourceName: 'empty.html',
      bytes: () => enc('<html><head><title>Nothing</title><script>x()</script></head><body><nav>menu</nav></body></html>'),
      code: 'no_text',
    },
  ];

  it.each(cases)('$name → $code', async ({ sourceName, bytes, code, maxBytes }) => {
    const kb = await newKb();
    await ingestDocument(db, kb, { sourceName: 'existing.md', bytes: enc('# Existing\n\nAn existing paragraph about lighthouses.') });
    const before = await snapshot(kb);
    const result = await ingestDocument(db, kb, { sourceName, bytes: await bytes() }, maxBytes ? { maxBytes } : {});
    expect(result).toMatchObject({ ok: false, code, sourceName });
    if (!result.ok) expect(result.message.length).toBeGreaterThan(5);
    expect(await snapshot(kb)).toEqual(before);
  });

  it('an unknown knowledge base is a failure value, not an exception', async () => {
    const result = await ingestDocument(db, 'kb_doesnotexist0000', { sourceName: 'a.md', bytes: enc('# A\n\nSome text.') });
    expect(result).toMatchObject({ ok: false, code: 'knowledge_base_not_found' });
  });
});

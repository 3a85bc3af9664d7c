import { describe, expect, it } from 'vitest';
import { detectFormat, pageText, parseHtml, parseMarkdown, parsePdf, parsePlainText, ParseError, stripInlineMarkdown } from './parsers';
import { parsePdfSource, renderPdfFromSource } from './pdf-render';

describe('detectFormat', () => {
  it.each([
    ['a.md', 'markdown'], ['a.MARKDOWN', 'markdown'], ['a.txt', 'text'], ['a.html', 'html'], ['a.htm', 'html'], ['a.pdf', 'pdf'],
    ['a.docx', null], ['a', null], ['a.pdf.txt', 'text'],
  ])('%s → %s', (name, format) => {
    expect(detectFormat(name)).toBe(format);
  });
});

describe('Markdown', () => {
  it('inline marks are removed, text kept', () => {
    expect(stripInlineMarkdown('A **bold** and *em* `code` [link](http://x) ![img](y.png) snake_case_name')).toBe('A bold and em code link img snake_case_name');
  });
  it('headings, lists, tables, code fences', () => {
    const d = parseMarkdown('# T\n\nPara one\ncontinues.\n\n## H\n\n1. first\n2. second\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode line\n```\n', 'x.md');
    expect(d.title).toBe('T');
    expect(d.pages[0].blocks).toEqual([
      { kind: 'heading', level: 1, text: 'T' },
      { kind: 'paragraph', level: 0, text: 'Para one continues.' },
      { kind: 'heading', level: 2, text: 'H' },
      { kind: 'paragraph', level: 0, text: 'first' },
      { kind: 'paragraph', level: 0, text: 'second' },
      { kind: 'paragraph', level: 0, text: 'a; b' },
      { kind: 'paragraph', level: 0, text: '1; 2' },
      { kind: 'paragraph', level: 0, text: 'code line' },
    ]);
  });
  it('a table keeps its empty cells, so that every row lines up with its header', () => {
    const d = parseMarkdown('| Category | Systolic | | Diastolic |\n|---|---|---|---|\n| Stage 2 | 140 or higher | or | 90 or higher |\n| | | | |\n', 'x.md');
    expect(d.pages[0].blocks).toEqual([
      { kind: 'paragraph', level: 0, text: 'Category; Systolic; ; Diastolic' },
      { kind: 'paragraph', level: 0, text: 'Stage 2; 140 or higher; or; 90 or higher' },
    ]);
    const h = parseHtml('<table><tr><th>Name</th><th></th><th>Value</th></tr><tr><td>A</td><td>or</td><td>1</td></tr></table>', 'x.html');
    expect(h.pages[0].blocks.map((b) => b.text)).toEqual(['Name; ; Value', 'A; or; 1']);
  });
  it('a file without text is refused', () => {
    expect(() => parseMarkdown('# Only a title\n', 'x.md')).toThrow(ParseError);
  });
});

describe('plain text', () => {
  it('a first line that is a sentence stays in the text; the title then comes from the file name', () => {
    const first = 'Almanac answers questions from the documents of a knowledge base and cites the passages it used, page by page.';
    const d = parsePlainText(`${first}\nIt keeps every excerpt verbatim.\n\nSECOND PART\n\nMore text here.\n`, 'release-notes_2026.txt');
    expect(d.title).toBe('Release notes 2026');
    expect(pageText(d.pages[0])).toContain(first);
    const short = parsePlainText('Fees are due on the first day of each month.\n\nLate fees apply after ten days.\n', 'fees.txt');
    expect(short.title).toBe('Fees');
    expect(pageText(short.pages[0])).toContain('Fees are due on the first day of each month.');
  });

  it('title from the first line; headings by shape', () => {
    const d = parsePlainText('My Title\n\nINTRODUCTION\n\nFirst paragraph here.\nSame paragraph.\n\nNot a heading because it ends with a period.\n', 'x.txt');
    expect(d.title).toBe('My Title');
    expect(d.pages[0].blocks.map((b) => [b.kind, b.text])).toEqual([
      ['heading', 'My Title'],
      ['heading', 'INTRODUCTION'],
      ['paragraph', 'First paragraph here. Same paragraph.'],
      ['paragraph', 'Not a heading because it ends with a period.'],
    ]);
  });
});

describe('HTML', () => {
  it('entities decoded, inline markup flattened, nested lists kept in order', () => {
    const d = parseHtml('<html><body><h1>T</h1><p>Fish &amp; chips <b>now</b>.</p><ul><li>Outer<ul><li>Inner one</li></ul></li></ul><footer>Footer text.</footer></body></html>', 'x.html');
    expect(d.title).toBe('T');
    expect(d.pages[0].blocks.map((b) => b.text)).toEqual(['T', 'Fish & chips now.', 'Outer', 'Inner one', 'Footer text.']);
  });
});

describe('PDF', () => {
  it('round-trips the rendered seed format: pages, headings, paragraphs, title', async () => {
    const bytes = await renderPdfFromSource(parsePdfSource('# Report Title\nFirst page text.\n\n## Section A\n\nAlpha paragraph one.\n\nAlpha paragraph two.\n---page---\n## Section B\n\nBeta text on page two.'));
    const d = await parsePdf(bytes, 'r.pdf');
    expect(d.title).toBe('Report Title');
    expect(d.pageCount).toBe(2);
    expect(d.pages[0].blocks.map((b) => [b.kind, b.text])).toEqual([
      ['heading', 'Report Title'],
      ['paragraph', 'First page text.'],
      ['heading', 'Section A'],
      ['paragraph', 'Alpha paragraph one.'],
      ['paragraph', 'Alpha paragraph two.'],
    ]);
    expect(pageText(d.pages[1])).toBe('Section B\n\nBeta text on page two.');
  });

  it('long paragraphs wrapped over many lines come back as one paragraph', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `Clause ${i} applies.`).join(' ');
    const d = await parsePdf(await renderPdfFromSource(parsePdfSource(`# T\n${long}`)), 't.pdf');
    expect(d.pages[0].blocks[1]).toEqual({ kind: 'paragraph', level: 0, text: long });
  });

  it('characters outside the standard font encoding are replaced, never fatal', async () => {
    const d = await parsePdf(await renderPdfFromSource(parsePdfSource('# T\nIf x ≥ 2 then √x is real – and “quotes” stay.')), 't.pdf');
    expect(pageText(d.pages[0])).toContain('If x >= 2 then sqrtx is real – and “quotes” stay.');
  });

  it('rejects bytes that are not a PDF', async () => {
    await expect(parsePdf(new TextEncoder().encode('hello'), 'x.pdf')).rejects.toMatchObject({ code: 'corrupt_pdf' });
  });
});

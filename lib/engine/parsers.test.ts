import { describe, expect, it } from 'vitest';
import { itemAt } from '@/lib/platform/arrays';
import {
  decodeText,
  detectFormat,
  pageText,
  parseHtml,
  parseMarkdown,
  parsePdf,
  parsePlainText,
  ParseError,
  parseSource,
  stripInlineMarkdown,
} from './parsers';
import { parsePdfSource, renderPdfFromSource } from './pdf-render';

describe('detectFormat', () => {
  it.each([
    ['a.md', 'markdown'],
    ['a.MARKDOWN', 'markdown'],
    ['a.txt', 'text'],
    ['a.html', 'html'],
    ['a.htm', 'html'],
    ['a.pdf', 'pdf'],
    ['a.docx', null],
    ['a', null],
    ['a.pdf.txt', 'text'],
  ])('%s → %s', (name, format) => {
    expect(detectFormat(name)).toBe(format);
  });
});

describe('Markdown', () => {
  it('inline marks are removed, text kept', () => {
    expect(stripInlineMarkdown('A **bold** and *em* `code` [link](http://x) ![img](y.png) snake_case_name')).toBe(
      'A bold and em code link img snake_case_name',
    );
  });
  it('headings, lists, tables, code fences', () => {
    const d = parseMarkdown('# T\n\nPara one\ncontinues.\n\n## H\n\n1. first\n2. second\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode line\n```\n', 'x.md');
    expect(d.title).toBe('T');
    expect(d.pages[0]?.blocks).toEqual([
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
    expect(d.pages[0]?.blocks).toEqual([
      { kind: 'paragraph', level: 0, text: 'Category; Systolic; ; Diastolic' },
      { kind: 'paragraph', level: 0, text: 'Stage 2; 140 or higher; or; 90 or higher' },
    ]);
    const h = parseHtml('<table><tr><th>Name</th><th></th><th>Value</th></tr><tr><td>A</td><td>or</td><td>1</td></tr></table>', 'x.html');
    expect(h.pages[0]?.blocks.map((b) => b.text)).toEqual(['Name; ; Value', 'A; or; 1']);
  });
  it('a file without text is refused', () => {
    expect(() => parseMarkdown('# Only a title\n', 'x.md')).toThrow(ParseError);
  });
});

describe('plain text', () => {
  it('reference marks copied from a web page go; brackets that are text stay', () => {
    const d = parsePlainText(
      'Statue of Liberty\n\nThe statue was dedicated on October 28, 1886.[12] It cost $250,000,[a] paid by subscription.[citation needed] See [1] for the sources; set a[1] to zero.',
      'liberty.txt',
    );
    expect(d.pages[0]?.blocks.at(-1)?.text).toBe(
      'The statue was dedicated on October 28, 1886. It cost $250,000, paid by subscription. See [1] for the sources; set a[1] to zero.',
    );
    const m = parseMarkdown('# Notes\n\nThe fine is 4% of turnover.[^2] It applies from 2018.[3]\n\n[^2]: Article 83.', 'notes.md');
    expect(m.pages[0]?.blocks.map((b) => b.text)).toEqual(['Notes', 'The fine is 4% of turnover. It applies from 2018.', '[^2]: Article 83.']);
  });

  it('a first line that is a sentence stays in the text; the title then comes from the file name', () => {
    const first = 'Almanac answers questions from the documents of a knowledge base and cites the passages it used, page by page.';
    const d = parsePlainText(`${first}\nIt keeps every excerpt verbatim.\n\nSECOND PART\n\nMore text here.\n`, 'release-notes_2026.txt');
    expect(d.title).toBe('Release Notes 2026');
    expect(pageText(itemAt(d.pages, 0))).toContain(first);
    const short = parsePlainText('Fees are due on the first day of each month.\n\nLate fees apply after ten days.\n', 'fees.txt');
    expect(short.title).toBe('Fees');
    expect(pageText(itemAt(short.pages, 0))).toContain('Fees are due on the first day of each month.');
  });

  it('title from the first line; headings by shape', () => {
    const d = parsePlainText('My Title\n\nINTRODUCTION\n\nFirst paragraph here.\nSame paragraph.\n\nNot a heading because it ends with a period.\n', 'x.txt');
    expect(d.title).toBe('My Title');
    expect(d.pages[0]?.blocks.map((b) => [b.kind, b.text])).toEqual([
      ['heading', 'My Title'],
      ['heading', 'INTRODUCTION'],
      ['paragraph', 'First paragraph here. Same paragraph.'],
      ['paragraph', 'Not a heading because it ends with a period.'],
    ]);
  });

  it('a short line over its paragraph heads it; a line wrapped mid-sentence does not', () => {
    const d = parsePlainText(
      'Guide\n\nTreatment threshold\nTreat when the average reading stays at 140/90 or above on two visits.\n\nThe committee met in\nMarch to decide the thresholds for older adults.\n',
      'guide.txt',
    );
    expect(d.pages[0]?.blocks.map((b) => [b.kind, b.text])).toEqual([
      ['heading', 'Guide'],
      ['heading', 'Treatment threshold'],
      ['paragraph', 'Treat when the average reading stays at 140/90 or above on two visits.'],
      ['paragraph', 'The committee met in March to decide the thresholds for older adults.'],
    ]);
  });

  it('a title from a file name is in title case', () => {
    expect(parsePlainText('plain words here, no title line.\n', 'gdpr_breach-notification-of-the-regulator.txt').title).toBe(
      'Gdpr Breach Notification of the Regulator',
    );
  });
});

describe('HTML', () => {
  it('entities decoded, inline markup flattened, nested lists kept in order', () => {
    const d = parseHtml(
      '<html><body><h1>T</h1><p>Fish &amp; chips <b>now</b>.</p><ul><li>Outer<ul><li>Inner one</li></ul></li></ul><footer>Footer text.</footer></body></html>',
      'x.html',
    );
    expect(d.title).toBe('T');
    expect(d.pages[0]?.blocks.map((b) => b.text)).toEqual(['T', 'Fish & chips now.', 'Outer', 'Inner one', 'Footer text.']);
  });

  it("a saved web page's reference marks, [edit] links, decoration and site name are no part of the text or title", () => {
    const d = parseHtml(
      '<html><head><title>Statue of Liberty - Wikipedia</title></head><body><h1>Statue of Liberty</h1><h2>Dedication<span class="mw-editsection"><span>[</span><a href="#">edit</a><span>]</span></span></h2>' +
        '<p>The statue was dedicated on October 28, 1886.<sup id="cite_ref-12" class="reference"><a href="#cite_note-12">[12]</a></sup> ' +
        'It cost $250,000<sup>[a]</sup> and its pedestal was paid for by subscription.<sup class="noprint Template-Fact">[<i>citation needed</i>]</sup></p>' +
        '<p>Water is H<sub>2</sub>O and the area is 12 km<sup>2</sup>.<span aria-hidden="true">↑</span></p>' +
        '<div hidden><p>An accordion answer, shown when clicked.</p></div></body></html>',
      'liberty.html',
    );
    expect(d.title).toBe('Statue of Liberty');
    expect(d.pages[0]?.blocks.map((b) => b.text)).toEqual([
      'Statue of Liberty',
      'Dedication',
      'The statue was dedicated on October 28, 1886. It cost $250,000 and its pedestal was paid for by subscription.',
      'Water is H2O and the area is 12 km2.',
      'An accordion answer, shown when clicked.',
    ]);
  });
});

describe('PDF', () => {
  it('round-trips the rendered seed format: pages, headings, paragraphs, title', async () => {
    const bytes = await renderPdfFromSource(
      parsePdfSource(
        '# Report Title\nFirst page text.\n\n## Section A\n\nAlpha paragraph one.\n\nAlpha paragraph two.\n---page---\n## Section B\n\nBeta text on page two.',
      ),
    );
    const d = await parsePdf(bytes, 'r.pdf');
    expect(d.title).toBe('Report Title');
    expect(d.pageCount).toBe(2);
    expect(d.pages[0]?.blocks.map((b) => [b.kind, b.text])).toEqual([
      ['heading', 'Report Title'],
      ['paragraph', 'First page text.'],
      ['heading', 'Section A'],
      ['paragraph', 'Alpha paragraph one.'],
      ['paragraph', 'Alpha paragraph two.'],
    ]);
    expect(pageText(itemAt(d.pages, 1))).toBe('Section B\n\nBeta text on page two.');
  });

  it('long paragraphs wrapped over many lines come back as one paragraph', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `Clause ${i} applies.`).join(' ');
    const d = await parsePdf(await renderPdfFromSource(parsePdfSource(`# T\n${long}`)), 't.pdf');
    expect(d.pages[0]?.blocks[1]).toEqual({ kind: 'paragraph', level: 0, text: long });
  });

  it('characters outside the standard font encoding are replaced, never fatal', async () => {
    const d = await parsePdf(await renderPdfFromSource(parsePdfSource('# T\nIf x ≥ 2 then √x is real – and “quotes” stay.')), 't.pdf');
    expect(pageText(itemAt(d.pages, 0))).toContain('If x >= 2 then sqrtx is real – and “quotes” stay.');
  });

  it('rejects bytes that are not a PDF', async () => {
    await expect(parsePdf(new TextEncoder().encode('hello'), 'x.pdf')).rejects.toMatchObject({ code: 'corrupt_pdf' });
  });
});

describe('text encodings', () => {
  const latin1 = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
  const utf8 = (s: string) => new TextEncoder().encode(s);

  it('UTF-8 is read as UTF-8, and a byte order mark is dropped', () => {
    expect(decodeText(utf8('Café crème'), 'text')).toBe('Café crème');
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('Café')]), 'markdown')).toBe('Café');
  });

  it('bytes that are not UTF-8 are read as Windows-1252: Latin-1 letters, and curly quotes, dashes and € from 0x80–0x9F', () => {
    expect(decodeText(latin1('Le café, la crème brûlée'), 'text')).toBe('Le café, la crème brûlée');
    // 0x93 0x94 “ ”, 0x96 –, 0x80 €, 0x92 ’: what Word-era files hold; ISO-8859-1 would make them control characters.
    const bytes = new Uint8Array([0x93, 0x48, 0x69, 0x94, 0x20, 0x96, 0x20, 0x35, 0x80, 0x20, 0x69, 0x74, 0x92, 0x73]);
    expect(decodeText(bytes, 'text')).toBe('“Hi” – 5€ it’s');
  });

  it('an HTML page that is not UTF-8 is read in the encoding its <meta> declares', () => {
    const page = (charset: string, body: number[]) =>
      new Uint8Array([...utf8(`<html><head><meta charset="${charset}"><title>T</title></head><body><p>`), ...body, ...utf8('</p></body></html>')]);
    // "Привет" in windows-1251.
    const cyrillic = [0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2];
    expect(decodeText(page('windows-1251', cyrillic), 'html')).toContain('<p>Привет</p>');
    const legacy = new Uint8Array([...utf8('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2"><p>'), 0xb3, 0xf3, 0xbf, 0x6b, 0x6f]);
    expect(decodeText(legacy, 'html')).toContain('<p>łóżko');
    // A declaration Node cannot decode, or one that names UTF-8 for bytes that are not: Windows-1252.
    expect(decodeText(page('x-no-such-encoding', [0x63, 0x61, 0x66, 0xe9]), 'html')).toContain('<p>café</p>');
    expect(decodeText(page('utf-8', [0x63, 0x61, 0x66, 0xe9]), 'html')).toContain('<p>café</p>');
    // Valid UTF-8 wins over a stale declaration left behind when the file was re-saved.
    expect(decodeText(new Uint8Array([...utf8('<meta charset="iso-8859-1"><p>café</p>')]), 'html')).toContain('<p>café</p>');
  });

  it('UTF-16 with a byte order mark is read as UTF-16', () => {
    const le = new Uint8Array([0xff, 0xfe, ...Array.from(Buffer.from('Café', 'utf16le'))]);
    expect(decodeText(le, 'text')).toBe('Café');
    const be = new Uint8Array([0xfe, 0xff, ...Array.from(Buffer.from('Café', 'utf16le').swap16())]);
    expect(decodeText(be, 'text')).toBe('Café');
  });

  it('binary data is refused with what to do, whatever its extension', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    const utf8WithNul = utf8('Title\n\nText\u0000more text');
    const controls = new Uint8Array(Array.from({ length: 400 }, (_, i) => [0x41, 0x01, 0x02, 0x42, 0x1f, 0x0e][i % 6]!));
    for (const bytes of [png, utf8WithNul, controls]) {
      let error: unknown;
      try {
        decodeText(bytes, 'text');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ParseError);
      expect(error).toMatchObject({ code: 'invalid_encoding' });
      expect((error as Error).message).toMatch(/Save .* as UTF-8 text and upload it again\./);
    }
  });

  it('a stray control character is dropped, not refused (the Ctrl-Z that ends old DOS files)', () => {
    expect(decodeText(utf8('Tides\r\n\r\nSpring tides are large.\u001a'), 'text')).toBe('Tides\r\n\r\nSpring tides are large.');
  });

  it('a Latin-1 text file parses with its accents', async () => {
    const d = await parseSource('text', latin1('Café Guide\n\nThe café on the corner serves a bica for one euro.\n'), 'cafe.txt');
    expect(d.title).toBe('Café Guide');
    expect(pageText(itemAt(d.pages, 0))).toContain('The café on the corner');
  });
});

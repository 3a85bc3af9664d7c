import path from 'node:path';
import { createRequire } from 'node:module';
import { itemAt } from '@/lib/platform/arrays';
import { fallbackTitle, finishDocument, ParseError, type ParsedBlock, type ParsedDocument, type ParsedPage } from './parsed-document';
import { normalizeWhitespace } from './text';

/** PDF sources (docs/api.md §8.3) through pdf.js: pages kept for citations, headings told by their larger type. */

interface PdfTextItem {
  str: string;
  transform: number[];
  height: number;
  hasEOL?: boolean;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjsPromise: Promise<PdfJs> | undefined;
function loadPdfJs(): Promise<PdfJs> {
  // The legacy build runs in Node with its in-process ("fake") worker: nothing is fetched.
  pdfjsPromise ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsPromise;
}

function standardFontDataUrl(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    return path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + path.sep;
  } catch {
    return undefined;
  }
}

interface PdfLine {
  y: number;
  size: number;
  text: string;
}

function pageLines(items: PdfTextItem[]): PdfLine[] {
  const lines: PdfLine[] = [];
  for (const item of items) {
    if (!item.str) continue;
    // pdf.js gives each text item its 6-number transform matrix [a, b, c, d, e, f].
    const y = itemAt(item.transform, 5);
    const size = Math.round(Math.hypot(itemAt(item.transform, 2), itemAt(item.transform, 3)) * 10) / 10 || item.height;
    const last = lines[lines.length - 1];
    if (last && Math.abs(last.y - y) < size * 0.3) {
      last.text += item.str;
      last.size = Math.max(last.size, size);
    } else {
      lines.push({ y, size, text: item.str });
    }
  }
  return lines.map((l) => ({ ...l, text: normalizeWhitespace(l.text) })).filter((l) => l.text);
}

function linesToBlocks(lines: PdfLine[], bodySize: number): ParsedBlock[] {
  const blocks: ParsedBlock[] = [];
  let current: { kind: ParsedBlock['kind']; level: number; lines: string[] } | null = null;
  let previous: PdfLine | null = null;
  for (const line of lines) {
    const isHeading = line.size > bodySize * 1.12;
    const gap = previous ? previous.y - line.y : 0;
    const newBlock = !current || (isHeading ? current.kind !== 'heading' : current.kind !== 'paragraph') || gap > Math.max(previous!.size, line.size) * 1.6;
    if (newBlock) {
      if (current) blocks.push({ kind: current.kind, level: current.level, text: normalizeWhitespace(current.lines.join(' ')) });
      current = { kind: isHeading ? 'heading' : 'paragraph', level: isHeading ? (line.size > bodySize * 1.45 ? 1 : 2) : 0, lines: [] };
    }
    current!.lines.push(line.text);
    previous = line;
  }
  if (current) blocks.push({ kind: current.kind, level: current.level, text: normalizeWhitespace(current.lines.join(' ')) });
  return blocks;
}

export async function parsePdf(bytes: Uint8Array, sourceName: string): Promise<ParsedDocument> {
  if (bytes.length < 5 || Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') {
    throw new ParseError('corrupt_pdf', 'The file is not a PDF (missing %PDF- header).');
  }
  const pdfjs = await loadPdfJs();
  let doc;
  try {
    doc = await pdfjs.getDocument({
      // pdf.js takes ownership of the buffer it is given; hand it a copy.
      data: new Uint8Array(bytes),
      // No isEvalSupported to turn off: pdf.js 6 never compiles font programs with eval.
      useSystemFonts: false,
      disableFontFace: true,
      standardFontDataUrl: standardFontDataUrl(),
      verbosity: 0,
    }).promise;
  } catch (error) {
    throw new ParseError('corrupt_pdf', `The PDF could not be read: ${(error as Error).message}`);
  }
  try {
    const rawPages: PdfLine[][] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      rawPages.push(pageLines(content.items.filter((i) => 'str' in i) as unknown as PdfTextItem[]));
      page.cleanup();
    }
    const sizeCounts = new Map<number, number>();
    for (const line of rawPages.flat()) sizeCounts.set(line.size, (sizeCounts.get(line.size) ?? 0) + line.text.length);
    const bodySize = [...sizeCounts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 11;
    const pages: ParsedPage[] = rawPages.map((lines, i) => ({ page: i + 1, blocks: linesToBlocks(lines, bodySize) }));
    const meta = await doc.getMetadata().catch(() => null);
    const infoTitle = (meta?.info as { Title?: unknown } | undefined)?.Title;
    const firstHeading = pages.flatMap((p) => p.blocks).find((b) => b.kind === 'heading')?.text;
    const title = (typeof infoTitle === 'string' && infoTitle.trim()) || firstHeading || fallbackTitle(sourceName);
    return finishDocument(title, 'pdf', pages, doc.numPages);
  } catch (error) {
    if (error instanceof ParseError) throw error;
    throw new ParseError('corrupt_pdf', `The PDF could not be read: ${(error as Error).message}`);
  } finally {
    // The loading task owns the document and its in-process worker (pdf.js 6 has no PDFDocumentProxy.destroy).
    await doc.loadingTask.destroy();
  }
}

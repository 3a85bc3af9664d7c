import path from 'node:path';
import { createRequire } from 'node:module';
import { parseDocument, DomUtils } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import { normalizeWhitespace } from './text';

/**
 * Source formats → one structure: pages (one page with `page: null` for sources without pages) of heading and
 * paragraph blocks, each block's text whitespace-normalised. The page text is the blocks joined by a blank line;
 * chunks are contiguous slices of it, so every excerpt cut from a chunk occurs verbatim in the page text.
 */
export type SourceFormat = 'text' | 'markdown' | 'html' | 'pdf';

export interface ParsedBlock {
  kind: 'heading' | 'paragraph';
  /** Heading level 1–6; 0 for paragraphs. */
  level: number;
  text: string;
}

export interface ParsedPage {
  page: number | null;
  blocks: ParsedBlock[];
}

export interface ParsedDocument {
  title: string;
  format: SourceFormat;
  mimeType: string;
  /** Number of pages for paged sources (PDF), null otherwise. */
  pageCount: number | null;
  pages: ParsedPage[];
}

export const MIME_TYPES: Record<SourceFormat, string> = {
  text: 'text/plain',
  markdown: 'text/markdown',
  html: 'text/html',
  pdf: 'application/pdf',
};

export class ParseError extends Error {
  constructor(
    readonly code: 'corrupt_pdf' | 'no_text' | 'unsupported_type' | 'invalid_encoding',
    message: string,
  ) {
    super(message);
  }
}

/** The page text that chunks and citations are cut from. */
export function pageText(page: ParsedPage): string {
  return page.blocks.map((b) => b.text).join('\n\n');
}

/** Format from the file name (and, for PDFs, the magic bytes); null when unsupported. */
export function detectFormat(sourceName: string, mimeType?: string): SourceFormat | null {
  const ext = path.extname(sourceName).toLowerCase();
  if (ext === '.pdf' || mimeType === 'application/pdf') return 'pdf';
  if (ext === '.md' || ext === '.markdown' || mimeType === 'text/markdown') return 'markdown';
  if (ext === '.html' || ext === '.htm' || mimeType === 'text/html') return 'html';
  if (ext === '.txt' || ext === '.text' || mimeType === 'text/plain') return 'text';
  return null;
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.replace(/^\uFEFF/, '');
  } catch {
    throw new ParseError('invalid_encoding', 'The file is not valid UTF-8 text.');
  }
}

function fallbackTitle(sourceName: string): string {
  const base = path.basename(sourceName).replace(/\.[^.]+$/, '').replace(/\.pdf$/i, '');
  const words = base.replace(/[-_]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Untitled document';
}

function finish(title: string, format: SourceFormat, pages: ParsedPage[], pageCount: number | null): ParsedDocument {
  const kept = pages.map((p) => ({ page: p.page, blocks: p.blocks.filter((b) => b.text.length > 0) }));
  if (!kept.some((p) => p.blocks.some((b) => b.kind === 'paragraph'))) {
    throw new ParseError('no_text', 'The file contains no readable text.');
  }
  return { title: normalizeWhitespace(title).slice(0, 300), format, mimeType: MIME_TYPES[format], pageCount, pages: kept };
}

// ── Plain text ────────────────────────────────────────────────────────────────────────────────────

/** A short line standing alone, without closing punctuation and in capitals or Title Case, reads as a heading. */
function looksLikeHeading(line: string): boolean {
  if (line.length > 90 || /[.,;:!?]$/.test(line)) return false;
  const words = line.split(/\s+/);
  if (words.length > 12) return false;
  if (line === line.toUpperCase() && /\p{Lu}/u.test(line)) return true;
  const capitalised = words.filter((w) => /^[\p{Lu}\p{N}]/u.test(w)).length;
  return capitalised >= Math.ceil(words.length * 0.6);
}

/**
 * A first line that can be a document's title: short, and not a sentence (no closing punctuation). A long first
 * sentence is content, not a title, and must not be lost from the text.
 */
function looksLikeTitle(line: string, next: string | undefined): boolean {
  if (line.length > 120 || /[.,;:!?…]$/.test(line) || line.split(/\s+/).length > 15) return false;
  // A title stands alone: followed by a blank line or the end, not by the rest of its paragraph.
  if (next === undefined || next.trim() === '' || looksLikeHeading(line)) return true;
  // Title Case, small words aside ("Separation of Powers and Checks and Balances").
  const long = line.split(/\s+/).filter((w) => w.length > 3);
  return long.length > 0 && long.every((w) => /^[\p{Lu}\p{N}]/u.test(w));
}

export function parsePlainText(text: string, sourceName: string): ParsedDocument {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const found = lines.findIndex((l) => l.trim() !== '');
  const firstIndex = found >= 0 && looksLikeTitle(lines[found].trim(), lines[found + 1]) ? found : -1;
  const title = firstIndex >= 0 ? lines[firstIndex].trim() : fallbackTitle(sourceName);
  const blocks: ParsedBlock[] = [];
  if (firstIndex >= 0) blocks.push({ kind: 'heading', level: 1, text: normalizeWhitespace(title) });
  const rest = firstIndex >= 0 ? lines.slice(firstIndex + 1).join('\n') : lines.join('\n');
  for (const para of rest.split(/\n\s*\n/)) {
    const paraLines = para.split('\n').map((l) => l.trim()).filter(Boolean);
    if (paraLines.length === 0) continue;
    if (paraLines.length === 1 && looksLikeHeading(paraLines[0])) {
      blocks.push({ kind: 'heading', level: 2, text: normalizeWhitespace(paraLines[0]) });
    } else {
      blocks.push({ kind: 'paragraph', level: 0, text: normalizeWhitespace(paraLines.join(' ')) });
    }
  }
  return finish(title, 'text', [{ page: null, blocks }], null);
}

// ── Markdown ──────────────────────────────────────────────────────────────────────────────────────

/** Inline Markdown to plain text: links and images keep their text, emphasis and code marks go. */
export function stripInlineMarkdown(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(\*|_)(?=\S)([\s\S]*?\S)\1(?![\p{L}\p{N}])/gu, '$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|])/g, '$1');
}

export function parseMarkdown(text: string, sourceName: string): ParsedDocument {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: ParsedBlock[] = [];
  let title: string | null = null;
  let paragraph: string[] = [];
  let fence: string[] | null = null;
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', level: 0, text: normalizeWhitespace(stripInlineMarkdown(paragraph.join(' '))) });
    paragraph = [];
  };
  for (const raw of lines) {
    const line = raw.trimEnd();
    if (fence) {
      if (/^\s*(```|~~~)/.test(line)) {
        blocks.push({ kind: 'paragraph', level: 0, text: normalizeWhitespace(fence.join(' ')) });
        fence = null;
      } else fence.push(line);
      continue;
    }
    if (/^\s*(```|~~~)/.test(line)) {
      flush();
      fence = [];
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      const headingText = normalizeWhitespace(stripInlineMarkdown(heading[2]));
      if (heading[1].length === 1 && title === null) title = headingText;
      blocks.push({ kind: 'heading', level: heading[1].length, text: headingText });
      continue;
    }
    if (line.trim() === '' || /^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      continue;
    }
    // Table separator rows carry no text.
    if (/^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line)) continue;
    const table = /^\s*\|(.*)\|\s*$/.exec(line);
    if (table) {
      flush();
      // Empty cells are kept, so that a row's cells line up with its header's (answers name each cell's column).
      const cells = table[1].split('|').map((c) => normalizeWhitespace(stripInlineMarkdown(c)));
      if (cells.some(Boolean)) blocks.push({ kind: 'paragraph', level: 0, text: cells.join('; ') });
      continue;
    }
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      paragraph.push(item[1]);
      continue;
    }
    const quote = /^\s*>\s?(.*)$/.exec(line);
    paragraph.push(quote ? quote[1] : line.trim());
  }
  if (fence) blocks.push({ kind: 'paragraph', level: 0, text: normalizeWhitespace(fence.join(' ')) });
  flush();
  return finish(title ?? fallbackTitle(sourceName), 'markdown', [{ page: null, blocks }], null);
}

// ── HTML ──────────────────────────────────────────────────────────────────────────────────────────

const DROPPED = new Set(['script', 'style', 'nav', 'noscript', 'template', 'svg', 'iframe', 'head', 'form', 'button', 'select']);
const BLOCK_TEXT = new Set(['p', 'li', 'dt', 'dd', 'blockquote', 'pre', 'figcaption', 'caption', 'address', 'summary']);

export function parseHtml(text: string, sourceName: string): ParsedDocument {
  const dom = parseDocument(text, { decodeEntities: true, lowerCaseTags: true });
  const titleEl = DomUtils.findOne((e) => e.name === 'title', dom.children, true);
  const blocks: ParsedBlock[] = [];
  let firstH1: string | null = null;

  const inlineText = (node: ChildNode): string => {
    if (node.type === 'text') return (node as unknown as { data: string }).data;
    if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      const el = node as Element;
      if (DROPPED.has(el.name)) return '';
      if (el.name === 'br') return ' ';
      return el.children.map(inlineText).join('');
    }
    return '';
  };

  const walk = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (node.type === 'text') {
        const t = normalizeWhitespace((node as unknown as { data: string }).data);
        if (t) blocks.push({ kind: 'paragraph', level: 0, text: t });
        continue;
      }
      if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
      const el = node as Element;
      if (DROPPED.has(el.name)) continue;
      const h = /^h([1-6])$/.exec(el.name);
      if (h) {
        const t = normalizeWhitespace(inlineText(el));
        if (h[1] === '1' && firstH1 === null) firstH1 = t;
        blocks.push({ kind: 'heading', level: Number(h[1]), text: t });
      } else if (el.name === 'tr') {
        const cells = el.children
          .filter((c): c is Element => c.type === 'tag' && (c.name === 'td' || c.name === 'th'))
          .map((c) => normalizeWhitespace(inlineText(c)));
        if (cells.some(Boolean)) blocks.push({ kind: 'paragraph', level: 0, text: cells.join('; ') });
      } else if (BLOCK_TEXT.has(el.name)) {
        // A list item holding a nested list: its own text first, then the nested blocks.
        const nested = el.children.some((c) => c.type === 'tag' && ['ul', 'ol', 'p', 'table', 'div'].includes((c as Element).name));
        if (nested) {
          const own = normalizeWhitespace(
            el.children.filter((c) => !(c.type === 'tag' && ['ul', 'ol', 'p', 'table', 'div'].includes((c as Element).name))).map(inlineText).join(''),
          );
          if (own) blocks.push({ kind: 'paragraph', level: 0, text: own });
          walk(el.children.filter((c) => c.type === 'tag' && ['ul', 'ol', 'p', 'table', 'div'].includes((c as Element).name)));
        } else {
          const t = normalizeWhitespace(inlineText(el));
          if (t) blocks.push({ kind: 'paragraph', level: 0, text: t });
        }
      } else {
        walk(el.children);
      }
    }
  };
  const body = DomUtils.findOne((e) => e.name === 'body', dom.children, true);
  walk(body ? body.children : dom.children);
  const title = (titleEl ? normalizeWhitespace(DomUtils.textContent(titleEl)) : '') || firstH1 || fallbackTitle(sourceName);
  return finish(title, 'html', [{ page: null, blocks }], null);
}

// ── PDF ───────────────────────────────────────────────────────────────────────────────────────────

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

/** Lines of one page, top to bottom: items on the same baseline are joined. */
function pageLines(items: PdfTextItem[]): PdfLine[] {
  const lines: PdfLine[] = [];
  for (const item of items) {
    if (!item.str) continue;
    const y = item.transform[5];
    const size = Math.round(Math.hypot(item.transform[2], item.transform[3]) * 10) / 10 || item.height;
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

/** Rebuilds headings (larger type) and paragraphs (a vertical gap) from positioned lines. */
function linesToBlocks(lines: PdfLine[], bodySize: number): ParsedBlock[] {
  const blocks: ParsedBlock[] = [];
  let current: { kind: ParsedBlock['kind']; level: number; lines: string[] } | null = null;
  let previous: PdfLine | null = null;
  for (const line of lines) {
    const isHeading = line.size > bodySize * 1.12;
    const gap = previous ? previous.y - line.y : 0;
    const newBlock =
      !current || (isHeading ? current.kind !== 'heading' : current.kind !== 'paragraph') || gap > Math.max(previous!.size, line.size) * 1.6;
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
      isEvalSupported: false,
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
    // Body size: the most common line size over the document.
    const sizeCounts = new Map<number, number>();
    for (const line of rawPages.flat()) sizeCounts.set(line.size, (sizeCounts.get(line.size) ?? 0) + line.text.length);
    const bodySize = [...sizeCounts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 11;
    const pages: ParsedPage[] = rawPages.map((lines, i) => ({ page: i + 1, blocks: linesToBlocks(lines, bodySize) }));
    const meta = await doc.getMetadata().catch(() => null);
    const infoTitle = (meta?.info as { Title?: unknown } | undefined)?.Title;
    const firstHeading = pages.flatMap((p) => p.blocks).find((b) => b.kind === 'heading')?.text;
    const title = (typeof infoTitle === 'string' && infoTitle.trim()) || firstHeading || fallbackTitle(sourceName);
    return finish(title, 'pdf', pages, doc.numPages);
  } catch (error) {
    if (error instanceof ParseError) throw error;
    throw new ParseError('corrupt_pdf', `The PDF could not be read: ${(error as Error).message}`);
  } finally {
    await doc.destroy();
  }
}

/** Parses one source file. Throws ParseError for content that cannot be used. */
export async function parseSource(format: SourceFormat, bytes: Uint8Array, sourceName: string): Promise<ParsedDocument> {
  switch (format) {
    case 'pdf':
      return parsePdf(bytes, sourceName);
    case 'markdown':
      return parseMarkdown(decodeUtf8(bytes), sourceName);
    case 'html':
      return parseHtml(decodeUtf8(bytes), sourceName);
    case 'text':
      return parsePlainText(decodeUtf8(bytes), sourceName);
  }
}

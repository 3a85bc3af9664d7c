import path from 'node:path';
import { createRequire } from 'node:module';
import { parseDocument, DomUtils } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import { capture, itemAt } from '@/lib/platform/arrays';
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
    readonly code: 'corrupt_pdf' | 'no_text' | 'unsupported_type' | 'invalid_encoding' | 'over_limit',
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

// ── Text encodings ────────────────────────────────────────────────────────────────────────────────

/** Windows-1252's characters for bytes 0x80–0x9F (the WHATWG index); every other byte is its own code point. */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d,
  0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/**
 * Windows-1252, decoded here rather than with TextDecoder('windows-1252'): since 20.18.3 and 22.13.0 Node decodes
 * that label as ISO-8859-1 (nodejs/node#60888), which turns the curly quotes, dashes and € of Word-era files into
 * invisible control characters.
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (c) => String.fromCharCode(WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!));
}

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

function decodeStrictly(bytes: Uint8Array, encoding: string): string | null {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** UTF-16 announced by its byte order mark (Notepad's and Excel's "Unicode" files); null for anything else. */
function decodeUtf16(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0xff, 0xfe])) return decodeStrictly(bytes, 'utf-16le');
  if (startsWith(bytes, [0xfe, 0xff])) return decodeStrictly(bytes, 'utf-16be');
  return null;
}

/** The encoding an HTML page declares in a <meta> among its first 1024 bytes (where browsers look), as TextDecoder names it. */
function declaredHtmlEncoding(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  const label = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
  if (!label) return null;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null;
  }
}

/**
 * Text that is not UTF-8: in the encoding an HTML page declares, else Windows-1252, the encoding of most such files
 * (a superset of Latin-1, and what browsers assume). A wrong guess costs a few odd characters the publisher can see
 * and fix; refusing the file left no way forward.
 */
function decodeLegacy(bytes: Uint8Array, format: SourceFormat): string {
  const body = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? bytes.subarray(3) : bytes;
  const declared = format === 'html' ? declaredHtmlEncoding(body) : null;
  // UTF-8 has just failed, and a UTF-16 page would have had a byte order mark; Windows-1252 is decoded by hand.
  const usable = declared && declared !== 'windows-1252' && !declared.startsWith('utf-');
  return (usable ? decodeStrictly(body, declared) : null) ?? decodeWindows1252(body);
}

/** Controls that no text uses (tab, line breaks and form feed are whitespace); a few are stray, many are binary. */
const STRAY_CONTROLS = /[\u0001-\u0008\u000e-\u001f\u007f]/g;
/** Share of stray controls above which the bytes are binary data, whatever their extension says. */
const BINARY_CONTROL_SHARE = 0.05;

const BINARY_MESSAGE = 'The file holds binary data, not text. Save it as UTF-8 text and upload it again.';

/**
 * The text of a .txt, .md or .html file: UTF-8 (its byte order mark dropped) when the bytes are valid UTF-8, UTF-16
 * when a byte order mark says so, otherwise decodeLegacy's guess. Binary data is refused: it holds NUL characters,
 * which no text does and PostgreSQL cannot store, or a run of other control characters. A few stray controls (the
 * Ctrl-Z at the end of an old DOS file) are dropped: they have no place in a passage.
 */
export function decodeText(bytes: Uint8Array, format: SourceFormat): string {
  const text = decodeUtf16(bytes) ?? decodeStrictly(bytes, 'utf-8') ?? decodeLegacy(bytes, format);
  const controls = text.match(STRAY_CONTROLS)?.length ?? 0;
  if (text.includes('\u0000') || controls > text.length * BINARY_CONTROL_SHARE) throw new ParseError('invalid_encoding', BINARY_MESSAGE);
  return controls > 0 ? text.replace(STRAY_CONTROLS, '') : text;
}

const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'but', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'vs', 'via', 'with']);

/** A file name as a title: "gdpr_breach-notification.md" → "Gdpr Breach Notification" (small words lower-case). */
export function fallbackTitle(sourceName: string): string {
  const base = path
    .basename(sourceName)
    .replace(/\.[^.]+$/, '')
    .replace(/\.pdf$/i, '');
  const words = base.replace(/[-_]+/g, ' ').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'Untitled document';
  return words.map((w, i) => (i > 0 && SMALL_WORDS.has(w.toLowerCase()) ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1))).join(' ');
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

/**
 * The first line of a paragraph that heads it: a few words, no closing punctuation, well shorter than the line after
 * it, which starts a sentence. A line wrapped mid-sentence ends on a word that needs the next ("the", "of").
 */
function leadsParagraph(line: string, next: string): boolean {
  const words = line.split(/\s+/);
  if (words.length > 8 || /[.,;:!?…\-–]$/.test(line) || !/^[\p{Lu}\p{N}]/u.test(line) || !/^[\p{Lu}]/u.test(next)) return false;
  if (SMALL_WORDS.has((words.at(-1) ?? '').toLowerCase())) return false;
  return line.length <= next.length * 0.6;
}

export function parsePlainText(text: string, sourceName: string): ParsedDocument {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const found = lines.findIndex((l) => l.trim() !== '');
  const firstLine = lines[found];
  const firstIndex = firstLine !== undefined && looksLikeTitle(firstLine.trim(), lines[found + 1]) ? found : -1;
  const title = firstLine !== undefined && firstIndex >= 0 ? firstLine.trim() : fallbackTitle(sourceName);
  const blocks: ParsedBlock[] = [];
  if (firstIndex >= 0) blocks.push({ kind: 'heading', level: 1, text: normalizeWhitespace(title) });
  const rest = firstIndex >= 0 ? lines.slice(firstIndex + 1).join('\n') : lines.join('\n');
  for (const para of rest.split(/\n\s*\n/)) {
    const paraLines = para
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const [first, second] = paraLines;
    if (first === undefined) continue;
    if (second === undefined && looksLikeHeading(first)) {
      blocks.push({ kind: 'heading', level: 2, text: normalizeWhitespace(first) });
    } else if (second !== undefined && leadsParagraph(first, second)) {
      // "Treatment threshold" over its text is the section's heading, not the start of its first sentence.
      blocks.push({ kind: 'heading', level: 2, text: normalizeWhitespace(first) });
      blocks.push({ kind: 'paragraph', level: 0, text: normalizeWhitespace(paraLines.slice(1).join(' ')) });
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
      const level = capture(heading, 1).length;
      const headingText = normalizeWhitespace(stripInlineMarkdown(capture(heading, 2)));
      if (level === 1 && title === null) title = headingText;
      blocks.push({ kind: 'heading', level, text: headingText });
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
      const cells = capture(table, 1)
        .split('|')
        .map((c) => normalizeWhitespace(stripInlineMarkdown(c)));
      if (cells.some(Boolean)) blocks.push({ kind: 'paragraph', level: 0, text: cells.join('; ') });
      continue;
    }
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      paragraph.push(capture(item, 1));
      continue;
    }
    const quote = /^\s*>\s?(.*)$/.exec(line);
    paragraph.push(quote ? capture(quote, 1) : line.trim());
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
            el.children
              .filter((c) => !(c.type === 'tag' && ['ul', 'ol', 'p', 'table', 'div'].includes((c as Element).name)))
              .map(inlineText)
              .join(''),
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

/** Rebuilds headings (larger type) and paragraphs (a vertical gap) from positioned lines. */
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
      // pdf.js 6 no longer compiles font programs with eval, so there is no isEvalSupported to turn off.
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
    // The loading task owns the document and its in-process worker (pdf.js 6 has no PDFDocumentProxy.destroy).
    await doc.loadingTask.destroy();
  }
}

/** Parses one source file. Throws ParseError for content that cannot be used. */
export async function parseSource(format: SourceFormat, bytes: Uint8Array, sourceName: string): Promise<ParsedDocument> {
  switch (format) {
    case 'pdf':
      return parsePdf(bytes, sourceName);
    case 'markdown':
      return parseMarkdown(decodeText(bytes, format), sourceName);
    case 'html':
      return parseHtml(decodeText(bytes, format), sourceName);
    case 'text':
      return parsePlainText(decodeText(bytes, format), sourceName);
  }
}

import { parseDocument, DomUtils } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import { capture } from '@/lib/platform/arrays';
import { fallbackTitle, finishDocument, SMALL_WORDS, type ParsedBlock, type ParsedDocument, type SourceFormat } from './parsed-document';
import { parsePdf } from './parse-pdf';
import { decodeText } from './text-decoding';
import { normalizeWhitespace } from './text';

/** A parser per source format (docs/api.md §8.3); PDF's is parse-pdf.ts, the structure they share parsed-document.ts. */
export {
  detectFormat,
  fallbackTitle,
  MIME_TYPES,
  pageText,
  ParseError,
  type ParsedBlock,
  type ParsedDocument,
  type ParsedPage,
  type SourceFormat,
} from './parsed-document';
export { decodeText, decodeWindows1252 } from './text-decoding';
export { parsePdf } from './parse-pdf';

/** A short line standing alone, without closing punctuation and in capitals or Title Case, reads as a heading. */
function looksLikeHeading(line: string): boolean {
  if (line.length > 90 || /[.,;:!?]$/.test(line)) return false;
  const words = line.split(/\s+/);
  if (words.length > 12) return false;
  if (line === line.toUpperCase() && /\p{Lu}/u.test(line)) return true;
  const capitalised = words.filter((w) => /^[\p{Lu}\p{N}]/u.test(w)).length;
  return capitalised >= Math.ceil(words.length * 0.6);
}

/** A first line is the title only when short and no sentence: a long first sentence is content and must stay in the text. */
function looksLikeTitle(line: string, next: string | undefined): boolean {
  if (line.length > 120 || /[.,;:!?…]$/.test(line) || line.split(/\s+/).length > 15) return false;
  if (next === undefined || next.trim() === '' || looksLikeHeading(line)) return true;
  // Title Case, small words aside ("Separation of Powers and Checks and Balances").
  const long = line.split(/\s+/).filter((w) => w.length > 3);
  return long.length > 0 && long.every((w) => /^[\p{Lu}\p{N}]/u.test(w));
}

/** A short first line heading its paragraph; a line wrapped mid-sentence ends on a word needing the next ("the", "of"). */
function leadsParagraph(line: string, next: string): boolean {
  const words = line.split(/\s+/);
  if (words.length > 8 || /[.,;:!?…\-–]$/.test(line) || !/^[\p{Lu}\p{N}]/u.test(line) || !/^[\p{Lu}]/u.test(next)) return false;
  if (SMALL_WORDS.has((words.at(-1) ?? '').toLowerCase())) return false;
  return line.length <= next.length * 0.6;
}

/**
 * Reference marks a text copied from a web page keeps, glued to the end of a sentence or clause ("…in 1886.[12]",
 * "…by subscription.[citation needed]"), and Markdown footnote references ("…holds[^2]"): an answer would quote them
 * beside its own [n] citation markers. Only glued after punctuation, so "a[1]" in a formula or "see [1]" stay.
 */
const REFERENCE_MARK = /(?<=[.,;:!?"”’)])\[(\d{1,3}|[a-z]|note \d{1,3}|citation needed|clarification needed|edit)\]|(?<=\S)\[\^[^\]\s]{1,20}\](?!:)/giu;
const withoutReferenceMarks = (text: string) => text.replace(REFERENCE_MARK, '');

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
      blocks.push({ kind: 'heading', level: 2, text: normalizeWhitespace(first) });
      blocks.push({ kind: 'paragraph', level: 0, text: normalizeWhitespace(withoutReferenceMarks(paraLines.slice(1).join(' '))) });
    } else {
      blocks.push({ kind: 'paragraph', level: 0, text: normalizeWhitespace(withoutReferenceMarks(paraLines.join(' '))) });
    }
  }
  return finishDocument(title, 'text', [{ page: null, blocks }], null);
}

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
    if (paragraph.length)
      blocks.push({ kind: 'paragraph', level: 0, text: normalizeWhitespace(stripInlineMarkdown(withoutReferenceMarks(paragraph.join(' ')))) });
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
  return finishDocument(title ?? fallbackTitle(sourceName), 'markdown', [{ page: null, blocks }], null);
}

const DROPPED = new Set(['script', 'style', 'nav', 'noscript', 'template', 'svg', 'iframe', 'head', 'form', 'button', 'select']);
/** A bracketed note a page sets in superscript: "[12]", "[a]", "[note 3]", "[citation needed]". */
const BRACKETED_NOTE = /^\s*\[[^\][]{1,40}\]\s*$/;

/**
 * Markup that is no part of the text: decoration, a wiki's "[edit]" links, and reference marks ("…in
 * 1886.[12]"), which an answer would quote as if they were its own citation markers (docs/api.md §8.3).
 */
function isNoise(el: Element): boolean {
  if (DROPPED.has(el.name)) return true;
  const a = el.attribs;
  // Decoration hidden from screen readers goes; text a page hides until clicked (hidden, display: none) is often an
  // accordion's answer or a tab's content, and stays.
  if (a['aria-hidden'] === 'true') return true;
  const classes = ` ${a.class ?? ''} `;
  if (classes.includes(' mw-editsection ')) return true;
  return el.name === 'sup' && (classes.includes(' reference ') || BRACKETED_NOTE.test(DomUtils.textContent(el)));
}
const BLOCK_TEXT = new Set(['p', 'li', 'dt', 'dd', 'blockquote', 'pre', 'figcaption', 'caption', 'address', 'summary']);

/** The page's <title>, without the site's name after its heading ("Statue of Liberty - Wikipedia" → "Statue of Liberty"). */
function htmlTitle(title: string, firstH1: string | null): string {
  if (!firstH1) return title;
  if (!title) return firstH1;
  return title.startsWith(firstH1) && /^\s+[-|–—·]\s+\S/.test(title.slice(firstH1.length)) ? firstH1 : title;
}

export function parseHtml(text: string, sourceName: string): ParsedDocument {
  const dom = parseDocument(text, { decodeEntities: true, lowerCaseTags: true });
  const titleEl = DomUtils.findOne((e) => e.name === 'title', dom.children, true);
  const blocks: ParsedBlock[] = [];
  let firstH1: string | null = null;

  const inlineText = (node: ChildNode): string => {
    if (node.type === 'text') return (node as unknown as { data: string }).data;
    if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      const el = node as Element;
      if (isNoise(el)) return '';
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
      if (isNoise(el)) continue;
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
  return finishDocument(
    htmlTitle(titleEl ? normalizeWhitespace(DomUtils.textContent(titleEl)) : '', firstH1) || fallbackTitle(sourceName),
    'html',
    [{ page: null, blocks }],
    null,
  );
}

/** Throws ParseError for content that cannot be used. */
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

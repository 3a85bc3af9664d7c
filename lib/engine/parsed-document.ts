import path from 'node:path';
import { normalizeWhitespace } from './text';

/** Sources → pages of heading and paragraph blocks; chunks slice the page text, so excerpts are verbatim (docs/api.md §8.2). */
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

export function pageText(page: ParsedPage): string {
  return page.blocks.map((b) => b.text).join('\n\n');
}

export function detectFormat(sourceName: string, mimeType?: string): SourceFormat | null {
  const ext = path.extname(sourceName).toLowerCase();
  if (ext === '.pdf' || mimeType === 'application/pdf') return 'pdf';
  if (ext === '.md' || ext === '.markdown' || mimeType === 'text/markdown') return 'markdown';
  if (ext === '.html' || ext === '.htm' || mimeType === 'text/html') return 'html';
  if (ext === '.txt' || ext === '.text' || mimeType === 'text/plain') return 'text';
  return null;
}

export const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'but', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'vs', 'via', 'with']);

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

export function finishDocument(title: string, format: SourceFormat, pages: ParsedPage[], pageCount: number | null): ParsedDocument {
  const kept = pages.map((p) => ({ page: p.page, blocks: p.blocks.filter((b) => b.text.length > 0) }));
  if (!kept.some((p) => p.blocks.some((b) => b.kind === 'paragraph'))) {
    throw new ParseError('no_text', 'The file contains no readable text.');
  }
  return { title: normalizeWhitespace(title).slice(0, 300), format, mimeType: MIME_TYPES[format], pageCount, pages: kept };
}

import { capture } from '@/lib/platform/arrays';
import { countWords, splitSentences, type Span } from './text';

/** A chunk read as paragraphs of sentences, with table rows and paragraph labels ("Senator:") recognised. */

export function chunkSentences(content: string): Span[] {
  return chunkParagraphs(content).flatMap((p) => p.sentences);
}

export interface Paragraph {
  start: number;
  end: number;
  sentences: Span[];
  /** A leading label ("Senator", "Marbury v. Madison (1803)"), the context of the paragraph's other sentences. */
  label: { text: string; end: number } | null;
  /** A table row ("a; b; c", as the parsers flatten tables): the header row above it is its context. */
  row: boolean;
  header: string | null;
}

/** Inline list items flattened into one paragraph ("…5 degrees C. - Frozen vaccines: …") are sentences of their own. */
function splitBullets(text: string, spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of spans) {
    let start = s.start;
    const piece = text.slice(s.start, s.end);
    for (const m of piece.matchAll(/[.;:!?]\s+(?=[-–•]\s+\S)/g)) {
      const end = s.start + m.index + 1;
      if (end > start) out.push({ start, end });
      start = s.start + m.index + m[0].length;
    }
    if (s.end > start) out.push({ start, end: s.end });
  }
  return out;
}

/** Column names may be questions ("Scenario; Notify authority?; Notify individuals?"): short cells ending in "?". */
const isQuestionHeader = (text: string) => /\?$/.test(text.trim()) && text.split('; ').every((cell) => cell.trim().split(/\s+/).length <= 5);
const isTableRow = (text: string) => (text.match(/; /g)?.length ?? 0) >= 1 && (!/[.!?]$/.test(text.trim()) || isQuestionHeader(text)) && text.length < 400;

const LABEL_CONNECTORS = new Set([
  'v',
  'v.',
  'vs',
  'vs.',
  'of',
  'the',
  'and',
  'for',
  'on',
  'in',
  'de',
  'del',
  'la',
  'el',
  'y',
  'der',
  'die',
  'das',
  'und',
  'von',
  'le',
  'les',
  'des',
  'et',
  'du',
]);

/** "Senator: at least 30…" → "Senator"; "Marbury v. Madison (1803). William…" → "Marbury v. Madison (1803)". */
function paragraphLabel(text: string, first: Span | undefined, sentenceCount: number): { text: string; end: number } | null {
  const colon = /^([^:.!?\n]{2,60}):\s+\S/.exec(text);
  const label = colon && capture(colon, 1);
  if (label && countWords(label) <= 6) return { text: label.trim(), end: label.length + 1 };
  if (!first || sentenceCount < 2) return null;
  const sentence = text.slice(first.start, first.end);
  const words = sentence
    .replace(/[.!?]+$/, '')
    .split(/\s+/)
    .filter(Boolean);
  if (words[0] === undefined || words.length > 8) return null;
  const titled = words.filter((w) => /^[\p{Lu}\p{N}(§]/u.test(w) || LABEL_CONNECTORS.has(w.toLowerCase())).length;
  if (titled < words.length || !/^\p{Lu}/u.test(words[0])) return null;
  return { text: sentence.replace(/[.:]+$/, '').trim(), end: first.end };
}

export function chunkParagraphs(content: string): Paragraph[] {
  const out: Paragraph[] = [];
  const para = /[^\n]+/g;
  let header: string | null = null;
  for (let m = para.exec(content); m; m = para.exec(content)) {
    const local = splitBullets(m[0], splitSentences(m[0]));
    const row = isTableRow(m[0]);
    const label = row ? null : paragraphLabel(m[0], local[0], local.length);
    out.push({
      start: m.index,
      end: m.index + m[0].length,
      sentences: local.map((s) => ({ start: m!.index + s.start, end: m!.index + s.end })),
      label: label ? { text: label.text, end: m.index + label.end } : null,
      row,
      header: row ? header : null,
    });
    // The first row of a run of rows is the table's header.
    header = row ? (header ?? m[0]) : null;
  }
  return out;
}

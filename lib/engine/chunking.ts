import { itemAt } from '@/lib/platform/arrays';
import { pageText, type ParsedDocument } from './parsers';
import { countWords, splitSentences } from './text';

/**
 * Structure-aware chunking. A chunk never crosses a heading or a page, is a contiguous slice of its page text
 * (so excerpts stay verbatim), ends at a sentence boundary unless one sentence alone is too long, and repeats the
 * previous chunk's last sentence as a small overlap.
 */
export const CHUNK_TARGET_WORDS = 200;
export const CHUNK_MAX_WORDS = 320;
/** A section's remainder smaller than this joins the previous chunk when that stays under the maximum. */
export const CHUNK_MIN_TAIL_WORDS = 60;
/** Longest sentence repeated as overlap. */
export const OVERLAP_MAX_WORDS = 40;

export interface DraftChunk {
  ordinal: number;
  page: number | null;
  /** Heading path, e.g. "Bill of Rights > The First Amendment". */
  heading: string | null;
  content: string;
  /** Offsets of the content in its page text. */
  start: number;
  end: number;
}

interface Unit {
  start: number;
  end: number;
  words: number;
  paragraphStart: boolean;
}

/** Sentences of a paragraph; a sentence longer than the maximum is cut at word boundaries. */
function paragraphUnits(text: string, offset: number): Unit[] {
  const units: Unit[] = [];
  for (const span of splitSentences(text)) {
    const sentence = text.slice(span.start, span.end);
    const words = countWords(sentence);
    if (words <= CHUNK_MAX_WORDS) {
      units.push({ start: offset + span.start, end: offset + span.end, words, paragraphStart: false });
      continue;
    }
    const re = /\S+/g;
    let pieceStart = -1;
    let pieceEnd = 0;
    let n = 0;
    for (let m = re.exec(sentence); m; m = re.exec(sentence)) {
      if (pieceStart < 0) pieceStart = m.index;
      pieceEnd = m.index + m[0].length;
      if (++n === CHUNK_TARGET_WORDS) {
        units.push({ start: offset + span.start + pieceStart, end: offset + span.start + pieceEnd, words: n, paragraphStart: false });
        pieceStart = -1;
        n = 0;
      }
    }
    if (n > 0) units.push({ start: offset + span.start + pieceStart, end: offset + span.start + pieceEnd, words: n, paragraphStart: false });
  }
  if (units[0]) units[0].paragraphStart = true;
  return units;
}

function groupUnits(units: Unit[]): Array<{ start: number; end: number; words: number }> {
  const groups: Array<{ start: number; end: number; words: number; first: number; last: number }> = [];
  let i = 0;
  while (i < units.length) {
    let j = i;
    let words = 0;
    while (j < units.length) {
      const u = units[j]!;
      if (words > 0 && words + u.words > CHUNK_MAX_WORDS) break;
      words += u.words;
      j++;
      if (words >= CHUNK_TARGET_WORDS && (j >= units.length || units[j]!.paragraphStart || words >= CHUNK_TARGET_WORDS + 60)) break;
    }
    const tail = units.slice(j).reduce((n, u) => n + u.words, 0);
    if (j < units.length && tail < CHUNK_MIN_TAIL_WORDS && words + tail <= CHUNK_MAX_WORDS) {
      words += tail;
      j = units.length;
    }
    // j > i here: the inner loop always takes the unit at i.
    groups.push({ start: itemAt(units, i).start, end: itemAt(units, j - 1).end, words, first: i, last: j - 1 });
    if (j >= units.length) break;
    // Overlap: the next chunk starts with this chunk's last sentence when it is short and not the only one.
    const last = itemAt(units, j - 1);
    i = j - 1 > i && last.words <= OVERLAP_MAX_WORDS && last.words + itemAt(units, j).words <= CHUNK_MAX_WORDS ? j - 1 : j;
  }
  return groups;
}

export function chunkDocument(doc: ParsedDocument): DraftChunk[] {
  const chunks: DraftChunk[] = [];
  const stack: Array<{ level: number; text: string }> = [];
  const headingPath = () => {
    const parts = stack.map((h) => h.text);
    if (parts[0] !== doc.title) parts.unshift(doc.title);
    return parts.join(' > ') || null;
  };
  for (const page of doc.pages) {
    const text = pageText(page);
    let offset = 0;
    let section: Unit[] = [];
    let sectionHeading = headingPath();
    const flush = () => {
      for (const g of groupUnits(section)) {
        chunks.push({ ordinal: chunks.length, page: page.page, heading: sectionHeading, content: text.slice(g.start, g.end), start: g.start, end: g.end });
      }
      section = [];
    };
    for (const block of page.blocks) {
      if (block.kind === 'heading') {
        flush();
        while ((stack.at(-1)?.level ?? -Infinity) >= block.level) stack.pop();
        stack.push({ level: block.level, text: block.text });
        sectionHeading = headingPath();
      } else {
        section.push(...paragraphUnits(block.text, offset));
      }
      offset += block.text.length + 2;
    }
    flush();
  }
  return chunks;
}

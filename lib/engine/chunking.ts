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
/**
 * Characters of one chunk at most. Words bound a chunk of prose (the longest seeded chunk is under 1,800 characters),
 * not a run without spaces: one 2 MB "word" would be one chunk whose token count (BPE over one pre-token) and index
 * entry cost time quadratic in its length. A longer run is cut into pieces of this size.
 */
export const CHUNK_MAX_CHARS = 4_000;

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

/** Where to cut a run of `length` characters from `from` so that a surrogate pair stays whole. */
function cutAt(text: string, from: number, length: number): number {
  const end = from + length;
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/**
 * Sentences of a paragraph; a sentence longer than the maximum (in words or characters) is cut at word boundaries,
 * and a word longer than CHUNK_MAX_CHARS into pieces of that size, each counted as one word.
 */
function paragraphUnits(text: string, offset: number): Unit[] {
  const units: Unit[] = [];
  const push = (start: number, end: number, words: number) => units.push({ start: offset + start, end: offset + end, words, paragraphStart: false });
  for (const span of splitSentences(text)) {
    const sentence = text.slice(span.start, span.end);
    const words = countWords(sentence);
    if (words <= CHUNK_MAX_WORDS && sentence.length <= CHUNK_MAX_CHARS) {
      push(span.start, span.end, words);
      continue;
    }
    const re = /\S+/g;
    let pieceStart = -1;
    let pieceEnd = 0;
    let n = 0;
    const flush = () => {
      if (n > 0) push(span.start + pieceStart, span.start + pieceEnd, n);
      pieceStart = -1;
      n = 0;
    };
    for (let m = re.exec(sentence); m; m = re.exec(sentence)) {
      let wordStart = m.index;
      const wordEnd = m.index + m[0].length;
      if (n > 0 && wordEnd - pieceStart > CHUNK_MAX_CHARS) flush();
      while (wordEnd - wordStart > CHUNK_MAX_CHARS) {
        const cut = cutAt(sentence, wordStart, CHUNK_MAX_CHARS);
        push(span.start + wordStart, span.start + cut, 1);
        wordStart = cut;
      }
      if (pieceStart < 0) pieceStart = wordStart;
      pieceEnd = wordEnd;
      if (++n === CHUNK_TARGET_WORDS) flush();
    }
    flush();
  }
  if (units[0]) units[0].paragraphStart = true;
  return units;
}

function groupUnits(units: Unit[]): Array<{ start: number; end: number; words: number }> {
  const groups: Array<{ start: number; end: number; words: number; first: number; last: number }> = [];
  // Words from each unit to the section's end: the tail test below stays linear on a section of many units.
  const wordsFrom = new Array<number>(units.length + 1).fill(0);
  for (let k = units.length - 1; k >= 0; k--) wordsFrom[k] = itemAt(wordsFrom, k + 1) + itemAt(units, k).words;
  const fits = (from: number, to: number) => itemAt(units, to).end - itemAt(units, from).start <= CHUNK_MAX_CHARS;
  let i = 0;
  while (i < units.length) {
    let j = i;
    let words = 0;
    while (j < units.length) {
      const u = units[j]!;
      if (words > 0 && (words + u.words > CHUNK_MAX_WORDS || !fits(i, j))) break;
      words += u.words;
      j++;
      if (words >= CHUNK_TARGET_WORDS && (j >= units.length || units[j]!.paragraphStart || words >= CHUNK_TARGET_WORDS + 60)) break;
    }
    const tail = itemAt(wordsFrom, j);
    if (j < units.length && tail < CHUNK_MIN_TAIL_WORDS && words + tail <= CHUNK_MAX_WORDS && fits(i, units.length - 1)) {
      words += tail;
      j = units.length;
    }
    // j > i here: the inner loop always takes the unit at i.
    groups.push({ start: itemAt(units, i).start, end: itemAt(units, j - 1).end, words, first: i, last: j - 1 });
    if (j >= units.length) break;
    // Overlap: the next chunk starts with this chunk's last sentence when it is short and not the only one.
    const last = itemAt(units, j - 1);
    i = j - 1 > i && last.words <= OVERLAP_MAX_WORDS && last.words + itemAt(units, j).words <= CHUNK_MAX_WORDS && fits(j - 1, j) ? j - 1 : j;
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
        // One by one: a spread of a paragraph's many thousand units would overflow the stack.
        for (const unit of paragraphUnits(block.text, offset)) section.push(unit);
      }
      offset += block.text.length + 2;
    }
    flush();
  }
  return chunks;
}

import { describe, expect, it } from 'vitest';
import { itemAt } from '@/lib/platform/arrays';
import { CHUNK_MAX_CHARS, CHUNK_MAX_WORDS, chunkDocument } from './chunking';
import { pageText, type ParsedDocument } from './parsers';
import { countWords } from './text';

const sentence = (i: number, words = 12) => `Sentence ${i} ${'word '.repeat(words - 3).trim()} end.`;
const para = (from: number, n: number, words = 12) => Array.from({ length: n }, (_, i) => sentence(from + i, words)).join(' ');

function doc(pages: Array<{ page: number | null; blocks: Array<['h' | 'p', string, number?]> }>): ParsedDocument {
  return {
    title: 'Doc',
    format: 'markdown',
    mimeType: 'text/markdown',
    pageCount: pages[0]?.page === null ? null : pages.length,
    pages: pages.map((p) => ({
      page: p.page,
      blocks: p.blocks.map(([k, text, level]) => ({
        kind: k === 'h' ? ('heading' as const) : ('paragraph' as const),
        level: k === 'h' ? (level ?? 2) : 0,
        text,
      })),
    })),
  };
}

describe('chunkDocument', () => {
  it('keeps every chunk a verbatim slice of its page text, within the size bounds', () => {
    const d = doc([
      {
        page: null,
        blocks: [
          ['h', 'Doc', 1],
          ['p', para(0, 40)],
          ['p', para(100, 25)],
          ['h', 'Second'],
          ['p', para(200, 60)],
        ],
      },
    ]);
    const chunks = chunkDocument(d);
    const text = pageText(itemAt(d.pages, 0));
    expect(chunks.length).toBeGreaterThan(4);
    for (const c of chunks) {
      expect(text.slice(c.start, c.end)).toBe(c.content);
      expect(countWords(c.content)).toBeLessThanOrEqual(CHUNK_MAX_WORDS);
      expect(c.content).toMatch(/end\.$/); // ends at a sentence boundary
      expect(c.content).toMatch(/^Sentence \d+/); // starts at a sentence boundary
    }
    // Most chunks are near the target size, not tiny.
    expect(chunks.filter((c) => countWords(c.content) < 60).length).toBeLessThanOrEqual(1);
  });

  it('never crosses a heading and keeps the heading path', () => {
    const d = doc([
      {
        page: null,
        blocks: [
          ['h', 'Doc', 1],
          ['h', 'A'],
          ['p', para(0, 3)],
          ['h', 'A1', 3],
          ['p', para(10, 3)],
          ['h', 'B'],
          ['p', para(20, 3)],
        ],
      },
    ]);
    const chunks = chunkDocument(d);
    expect(chunks.map((c) => c.heading)).toEqual(['Doc > A', 'Doc > A > A1', 'Doc > B']);
    expect(chunks.map((c) => c.content.slice(0, 11))).toEqual(['Sentence 0 ', 'Sentence 10', 'Sentence 20']);
  });

  it('never crosses a page and keeps page numbers; the heading path carries over pages', () => {
    const d = doc([
      {
        page: 1,
        blocks: [
          ['h', 'Doc', 1],
          ['h', 'Part'],
          ['p', para(0, 5)],
        ],
      },
      { page: 2, blocks: [['p', para(50, 5)]] },
    ]);
    const chunks = chunkDocument(d);
    expect(chunks.map((c) => [c.page, c.heading])).toEqual([
      [1, 'Doc > Part'],
      [2, 'Doc > Part'],
    ]);
  });

  it('overlaps consecutive chunks by one short sentence', () => {
    const d = doc([{ page: null, blocks: [['p', para(0, 60)]] }]);
    const chunks = chunkDocument(d);
    expect(chunks.length).toBeGreaterThan(2);
    for (let i = 1; i < chunks.length; i++) {
      const lastOfPrevious = chunks[i - 1]!.content.split(/(?<=\.) /).pop()!;
      expect(chunks[i]!.content.startsWith(lastOfPrevious)).toBe(true);
    }
  });

  it('cuts a single over-long sentence at word boundaries', () => {
    const monster = `${'longword '.repeat(800).trim()}.`;
    const d = doc([{ page: null, blocks: [['p', monster]] }]);
    const chunks = chunkDocument(d);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    for (const c of chunks) expect(countWords(c.content)).toBeLessThanOrEqual(CHUNK_MAX_WORDS);
    expect(chunks.map((c) => c.content).join(' ')).toBe(monster);
  });

  it('cuts a run without spaces into pieces of at most CHUNK_MAX_CHARS, verbatim and in order', () => {
    const word = 'x'.repeat(2 * 1024 * 1024);
    const d = doc([{ page: null, blocks: [['p', word]] }]);
    const chunks = chunkDocument(d);
    expect(chunks).toHaveLength(Math.ceil(word.length / CHUNK_MAX_CHARS));
    for (const c of chunks) expect(c.content.length).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
    expect(chunks.map((c) => c.content).join('')).toBe(word);
    expect(chunks.map((c) => c.start)).toEqual(chunks.map((_, i) => i * CHUNK_MAX_CHARS));
  });

  it('keeps a surrogate pair whole where a long run is cut', () => {
    const run = `a${'😀'.repeat(5_000)}`;
    const chunks = chunkDocument(doc([{ page: null, blocks: [['p', run]] }]));
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.content).toMatch(/^a?(\u{1F600})+$/u);
    expect(chunks.map((c) => c.content).join('')).toBe(run);
  });

  it('bounds a sentence of long words by characters as well as words, cutting between words', () => {
    const sentence = `${Array.from({ length: 100 }, (_, i) => `${'w'.repeat(150)}${i}`).join(' ')}.`;
    const d = doc([{ page: null, blocks: [['p', sentence]] }]);
    const chunks = chunkDocument(d);
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    for (const c of chunks) {
      expect(c.content.length).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
      expect(c.content).toMatch(/^w+\d+( w+\d+)*\.?$/);
    }
    expect(chunks.map((c) => c.content).join(' ')).toBe(sentence);
  });

  it('ordinals are consecutive from 0', () => {
    const d = doc([
      {
        page: null,
        blocks: [
          ['p', para(0, 50)],
          ['h', 'X'],
          ['p', para(60, 50)],
        ],
      },
    ]);
    expect(chunkDocument(d).map((c) => c.ordinal)).toEqual(chunkDocument(d).map((_, i) => i));
  });
});

import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvForTesting } from '@/lib/platform/env';
import { withEventLoopLag } from '@/test/support/event-loop-lag';
import { chunkDocument } from './chunking';
import { chunkInWorker, parseBudget, parseInWorker, prepareInWorker } from './parse-in-worker';
import { ParseError, parseSource } from './parsers';
import { countTokens } from './tokens';

/**
 * Parsing off the main thread within budgets (docs/api.md §9.5): hostile files generated here, scaled down from the
 * probe's (an 815 KB PDF inflating to 400 MB, 2 MB of nested HTML) with the same shape, and budgets scaled with them.
 */

const enc = (s: string) => new TextEncoder().encode(s);
const MB = 1024 * 1024;

async function failure(promise: Promise<unknown>): Promise<ParseError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ParseError)) throw new Error(`expected a ParseError, got ${String(error)}`);
  return error;
}

/** A one-page PDF whose content stream is `inflated` bytes of spaces, stored Flate-compressed (a few KB per 10 MB). */
async function inflateBomb(inflated: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage();
  page.drawText('A page with a very large content stream.', { font: await doc.embedFont(StandardFonts.Helvetica) });
  const contents = deflateSync(Buffer.alloc(inflated, 0x20), { level: 9 });
  const stream = doc.context.stream(contents, { Filter: 'FlateDecode', Length: contents.length });
  page.node.set(PDFName.of('Contents'), doc.context.register(stream));
  return doc.save({ useObjectStreams: false });
}

async function pagesPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) doc.addPage().drawText(`Page ${i} of the tide tables.`, { font, x: 50, y: 700 });
  return doc.save();
}

const nestedHtml = (depth: number) => enc(`<html><body>${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}</body></html>`);

afterEach(() => {
  delete process.env.PARSE_TIMEOUT_MS;
  resetEnvForTesting();
});

describe('parseInWorker', { timeout: 60_000 }, () => {
  it('returns exactly what parseSource returns, for every format', async () => {
    const cases = [
      ['text', enc('Tide tables\n\nHigh water at dawn.'), 'tides.txt'],
      ['markdown', enc('# Tides\n\nHigh water at *dawn*.\n\n- one\n- two'), 'tides.md'],
      ['html', enc('<html><head><title>Tides</title></head><body><h1>Tides</h1><p>High water at dawn.</p></body></html>'), 'tides.html'],
      ['pdf', await pagesPdf(3), 'tides.pdf'],
    ] as const;
    for (const [format, bytes, name] of cases) {
      expect(await parseInWorker(format, bytes, name)).toEqual(await parseSource(format, bytes, name));
    }
  });

  it('passes on the parser’s own refusals', async () => {
    const error = await failure(parseInWorker('pdf', enc('not a pdf'), 'x.pdf'));
    expect(error.code).toBe('corrupt_pdf');
  });

  it('fails a PDF whose streams inflate past the budget, in a sentence naming the limit', async () => {
    const bomb = await inflateBomb(40 * MB);
    expect(bomb.length).toBeLessThan(200_000);
    const error = await failure(parseInWorker('pdf', bomb, 'bomb.pdf', { ...parseBudget(), maxInflatedBytes: 8 * MB }));
    expect(error.code).toBe('over_limit');
    expect(error.message).toBe("The PDF's compressed content expands to more than 8 MB, the limit for one document.");
  });

  it('fails a PDF with more pages than the budget', async () => {
    const error = await failure(parseInWorker('pdf', await pagesPdf(12), 'many.pdf', { ...parseBudget(), maxPages: 10 }));
    expect(error.message).toBe('The PDF has 12 pages; a document may have at most 10. Split it and upload the parts.');
  });

  it('fails HTML nested deeper than the budget at once, and reads HTML within it', async () => {
    const started = Date.now();
    const error = await failure(parseInWorker('html', nestedHtml(200_000), 'deep.html'));
    expect(error.message).toBe('The HTML nests elements more than 256 levels deep, the limit for one document.');
    expect(Date.now() - started).toBeLessThan(15_000);
    const within = await parseInWorker('html', nestedHtml(200), 'fine.html');
    expect(within.pages[0]!.blocks.map((b) => b.text)).toEqual(['deep']);
  });

  it('fails a document with more characters of text than the budget', async () => {
    const error = await failure(parseInWorker('text', enc('word '.repeat(50_000)), 'long.txt', { ...parseBudget(), maxCharacters: 100_000 }));
    expect(error.message).toMatch(/^The document holds 249,999 characters of text; a document may hold at most 100,000\./);
  });

  it('stops a parse that overruns its wall time, and the next parse gets a fresh worker', async () => {
    process.env.PARSE_TIMEOUT_MS = '100';
    resetEnvForTesting();
    const error = await failure(parseInWorker('pdf', await pagesPdf(400), 'slow.pdf'));
    expect(error.message).toBe('Reading the file took longer than 0.1 seconds, the limit for one document.');
    delete process.env.PARSE_TIMEOUT_MS;
    resetEnvForTesting();
    expect((await parseInWorker('text', enc('After the timeout.'), 'after.txt')).pages[0]!.blocks[0]!.text).toBe('After the timeout.');
  });

  it('keeps the main thread free while a large document parses', async () => {
    const html = enc(`<html><body>${'<section><p>Tides rise and fall twice a day along this coast.</p></section>'.repeat(40_000)}</body></html>`);
    const { result: parsed, worstMs } = await withEventLoopLag(() => parseInWorker('html', html, 'big.html'), 10);
    expect(parsed.pages[0]!.blocks).toHaveLength(40_000);
    // The same parse on the main thread blocks it for the whole parse (several hundred ms on a test machine).
    expect(worstMs).toBeLessThan(150);
  });

  it('cuts the chunks and counts their tokens in the same trip, exactly as on the main thread', async () => {
    const bytes = enc(`Tide tables\n\n${'High water comes at dawn. Low water follows at noon. '.repeat(400)}\n\nNEAPS\n\nNeap tides are small.`);
    const expected = chunkDocument(await parseSource('text', bytes, 'tides.txt')).map((c) => ({ ...c, tokens: countTokens(c.content) }));
    expect(expected.length).toBeGreaterThan(3);
    const { parsed, chunks } = await prepareInWorker('text', bytes, 'tides.txt');
    expect(parsed).toEqual(await parseSource('text', bytes, 'tides.txt'));
    expect(chunks).toEqual(expected);
    expect(await chunkInWorker(parsed)).toEqual(expected);
  });

  it('fails a document that splits into more chunks than the budget', async () => {
    const budget = { ...parseBudget(), maxChunks: 10 };
    const error = await failure(prepareInWorker('text', new Uint8Array(100_000).fill(0x61), 'word.txt', budget));
    expect(error.message).toBe('The document splits into 25 passages; a document may have at most 10. Split it and upload the parts.');
  });
});

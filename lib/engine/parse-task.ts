import { inflateSync, constants as zlib } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { decodeText, ParseError, parseSource, type ParsedDocument, type SourceFormat } from './parsers';

/**
 * What runs inside a parse worker (lib/engine/parse-in-worker.ts starts it): the document's budgets checked before
 * and after the engine's own parseSource, whose result is returned unchanged. Checks that can be made before parsing
 * are made first and cheaply, so a hostile file fails in milliseconds instead of after the wall-time budget: a PDF's
 * page objects and the bytes its Flate streams inflate to (a scan of the raw bytes; zlib inflates with a ceiling), an
 * HTML page's element depth (a streaming pass that stops at the limit). Wall time and heap are the pool's budgets.
 */

export interface ParseBudget {
  maxPages: number;
  maxInflatedBytes: number;
  maxDepth: number;
  maxCharacters: number;
}

export type ParseOutcome = { ok: true; parsed: ParsedDocument } | { ok: false; code: ParseError['code']; message: string };

const MB = 1024 * 1024;
const megabytes = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;
const count = (n: number) => n.toLocaleString('en-US');

function overLimit(message: string): ParseError {
  return new ParseError('over_limit', message);
}

/**
 * The streams of a PDF as its bytes hold them (`… stream\r\n<data>endstream`), each with the dictionary before it. A
 * linear scan of the raw file, not a parse: a real parser (pdf-lib) spent 3 s on 400 KB of garbage, and the scan
 * only has to find what could inflate.
 */
function* rawStreams(bytes: Uint8Array): Generator<{ dictionary: string; data: Uint8Array }> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let from = 0;
  for (;;) {
    const keyword = text.indexOf('stream', from);
    if (keyword < 0) return;
    from = keyword + 6;
    if (text.startsWith('end', keyword - 3)) continue;
    let start = from;
    if (text[start] === '\r') start++;
    if (text[start] !== '\n') continue;
    start++;
    const end = text.indexOf('endstream', start);
    if (end < 0) return;
    const objectStart = text.lastIndexOf(' obj', keyword);
    yield { dictionary: text.slice(Math.max(objectStart, keyword - 4096, 0), keyword), data: bytes.subarray(start, end) };
    from = end + 9;
  }
}

const PAGE_OBJECT = /\/Type\s*\/Page(?![A-Za-z])/g;

function checkPdf(bytes: Uint8Array, budget: ParseBudget): void {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let pages = raw.match(PAGE_OBJECT)?.length ?? 0;
  let inflated = 0;
  for (const stream of rawStreams(bytes)) {
    // Images are never decoded to extract text, so only what pdf.js will inflate counts: content, fonts, objects.
    if (!/\/Filter\s*\[?\s*\/FlateDecode/.test(stream.dictionary) || /\/Subtype\s*\/Image/.test(stream.dictionary)) continue;
    let content: Buffer;
    try {
      // A truncated stream is inflated as far as it goes, as pdf.js does; the ceiling stops a bomb mid-way.
      content = inflateSync(stream.data, { maxOutputLength: Math.max(1, budget.maxInflatedBytes - inflated), finishFlush: zlib.Z_SYNC_FLUSH });
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') continue; // a broken stream: pdf.js decides
      throw overLimit(`The PDF's compressed content expands to more than ${megabytes(budget.maxInflatedBytes)}, the limit for one document.`);
    }
    inflated += content.length;
    // Page objects packed in object streams (most PDFs written since 2005) are counted where they are.
    if (/\/Type\s*\/ObjStm/.test(stream.dictionary)) pages += content.toString('latin1').match(PAGE_OBJECT)?.length ?? 0;
  }
  if (pages > budget.maxPages) {
    throw overLimit(`The PDF has ${count(pages)} pages; a document may have at most ${count(budget.maxPages)}. Split it and upload the parts.`);
  }
}

function checkHtmlDepth(bytes: Uint8Array, budget: ParseBudget): void {
  let depth = 0;
  const breach = overLimit(`The HTML nests elements more than ${count(budget.maxDepth)} levels deep, the limit for one document.`);
  const parser = new Parser(
    {
      onopentag() {
        if (++depth > budget.maxDepth) throw breach;
      },
      onclosetag() {
        depth--;
      },
    },
    { lowerCaseTags: true, decodeEntities: false },
  );
  parser.end(decodeText(bytes, 'html'));
}

function characterCount(parsed: ParsedDocument): number {
  let total = 0;
  for (const page of parsed.pages) for (const block of page.blocks) total += block.text.length;
  return total;
}

/** parseSource within `budget`: its document, or the ParseError it (or a budget) raised, as a value that crosses threads. */
export async function parseWithinBudget(format: SourceFormat, bytes: Uint8Array, sourceName: string, budget: ParseBudget): Promise<ParseOutcome> {
  try {
    if (format === 'pdf') checkPdf(bytes, budget);
    if (format === 'html') checkHtmlDepth(bytes, budget);
    const parsed = await parseSource(format, bytes, sourceName);
    const characters = characterCount(parsed);
    if (characters > budget.maxCharacters) {
      throw overLimit(
        `The document holds ${count(characters)} characters of text; a document may hold at most ${count(budget.maxCharacters)}. Split it and upload the parts.`,
      );
    }
    return { ok: true, parsed };
  } catch (error) {
    if (error instanceof ParseError) return { ok: false, code: error.code, message: error.message };
    if (error instanceof RangeError) {
      // Deep structures that passed the checks above can still exhaust the worker's stack.
      return { ok: false, code: 'over_limit', message: 'The document is structured too deeply to be read.' };
    }
    throw error;
  }
}

import { inflateSync, constants as zlib } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { PDFArray, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { decodeText, ParseError, parseSource, type ParsedDocument, type SourceFormat } from './parsers';

/**
 * What runs inside a parse worker (lib/engine/parse-in-worker.ts starts it): the document's budgets checked before
 * and after the engine's own parseSource, whose result is returned unchanged. Checks that can be made before parsing
 * are made first and cheaply, so a hostile file fails in milliseconds instead of after the wall-time budget: a PDF's
 * page count and the bytes its Flate streams inflate to (pdf-lib reads the structure, zlib inflates with a ceiling),
 * an HTML page's element depth (a streaming pass that stops at the limit). Wall time and heap are the pool's budgets.
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

/** The PDF's page count and the Flate streams it holds, as far as pdf-lib can read them; null when it cannot. */
async function pdfStructure(bytes: Uint8Array): Promise<{ pages: number; flateStreams: Uint8Array[] } | null> {
  try {
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
    const flateStreams: Uint8Array[] = [];
    for (const [, object] of doc.context.enumerateIndirectObjects()) {
      if (!(object instanceof PDFRawStream)) continue;
      const filter = object.dict.get(PDFName.of('Filter'));
      const first = filter instanceof PDFArray ? filter.get(0) : filter;
      if (first instanceof PDFName && first.asString() === '/FlateDecode') flateStreams.push(object.contents);
    }
    return { pages: doc.getPageCount(), flateStreams };
  } catch {
    return null; // pdf.js has the last word on what can be read
  }
}

async function checkPdf(bytes: Uint8Array, budget: ParseBudget): Promise<void> {
  const structure = await pdfStructure(bytes);
  if (!structure) return;
  if (structure.pages > budget.maxPages) {
    throw overLimit(`The PDF has ${count(structure.pages)} pages; a document may have at most ${count(budget.maxPages)}. Split it and upload the parts.`);
  }
  let inflated = 0;
  for (const stream of structure.flateStreams) {
    try {
      // A truncated stream is inflated as far as it goes, as pdf.js does; the ceiling stops a bomb mid-way.
      const remaining = budget.maxInflatedBytes - inflated;
      inflated += inflateSync(stream, { maxOutputLength: Math.max(1, remaining), finishFlush: zlib.Z_SYNC_FLUSH }).length;
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') continue; // a broken stream: pdf.js decides
      inflated = budget.maxInflatedBytes + 1;
    }
    if (inflated > budget.maxInflatedBytes) {
      throw overLimit(`The PDF's compressed content expands to more than ${megabytes(budget.maxInflatedBytes)}, the limit for one document.`);
    }
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
    if (format === 'pdf') await checkPdf(bytes, budget);
    if (format === 'html') checkHtmlDepth(bytes, budget);
    const parsed = await parseSource(format, bytes, sourceName);
    const characters = characterCount(parsed);
    if (characters > budget.maxCharacters) {
      throw overLimit(`The document holds ${count(characters)} characters of text; a document may hold at most ${count(budget.maxCharacters)}. Split it and upload the parts.`);
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

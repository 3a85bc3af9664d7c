import { inflateSync, constants as zlib } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { chunkDocument, type DraftChunk } from './chunking';
import { decodeText, ParseError, parseSource, type ParsedDocument, type SourceFormat } from './parsers';
import { countTokens } from './tokens';

/**
 * What runs inside a parse worker (lib/engine/parse-in-worker.ts starts it): the document's budgets checked before
 * and after the engine's own parseSource, whose result is returned unchanged, then the chunks the index is built
 * from and their token counts (chunkDocument, countTokens), in the same trip and within the same wall time, so that
 * no step over untrusted text runs on the main thread. Checks that can be made before parsing
 * are made first and cheaply, so a hostile file fails in milliseconds instead of after the wall-time budget: a PDF's
 * page objects and the bytes its Flate streams inflate to (a scan of the raw bytes; zlib inflates with a ceiling), an
 * HTML page's element depth (a streaming pass that stops at the limit). Wall time and heap are the pool's budgets.
 */

export interface ParseBudget {
  maxPages: number;
  maxInflatedBytes: number;
  maxDepth: number;
  maxCharacters: number;
  maxChunks: number;
}

/** A chunk as the index stores it: with its token count, counted where it was cut. */
export interface IndexedChunk extends DraftChunk {
  tokens: number;
}

type Refused = { ok: false; code: ParseError['code']; message: string };
export type ParseOutcome = { ok: true; parsed: ParsedDocument } | Refused;
export type ChunkOutcome = { ok: true; chunks: IndexedChunk[] } | Refused;
export type PrepareOutcome = { ok: true; parsed: ParsedDocument; chunks: IndexedChunk[] } | Refused;

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

/** The budget's refusals (and a stack exhausted by a deep structure) as values that cross threads; anything else throws. */
async function asOutcome<T extends object>(work: () => Promise<T>): Promise<({ ok: true } & T) | Refused> {
  try {
    return { ok: true, ...(await work()) };
  } catch (error) {
    if (error instanceof ParseError) return { ok: false, code: error.code, message: error.message };
    if (error instanceof RangeError) {
      // Deep structures that passed the checks above can still exhaust the worker's stack.
      return { ok: false, code: 'over_limit', message: 'The document is structured too deeply to be read.' };
    }
    throw error;
  }
}

async function parseChecked(format: SourceFormat, bytes: Uint8Array, sourceName: string, budget: ParseBudget): Promise<ParsedDocument> {
  if (format === 'pdf') checkPdf(bytes, budget);
  if (format === 'html') checkHtmlDepth(bytes, budget);
  const parsed = await parseSource(format, bytes, sourceName);
  const characters = characterCount(parsed);
  if (characters > budget.maxCharacters) {
    throw overLimit(
      `The document holds ${count(characters)} characters of text; a document may hold at most ${count(budget.maxCharacters)}. Split it and upload the parts.`,
    );
  }
  return parsed;
}

function chunkChecked(parsed: ParsedDocument, budget: ParseBudget): IndexedChunk[] {
  const drafts = chunkDocument(parsed);
  if (drafts.length > budget.maxChunks) {
    throw overLimit(
      `The document splits into ${count(drafts.length)} passages; a document may have at most ${count(budget.maxChunks)}. Split it and upload the parts.`,
    );
  }
  return drafts.map((draft) => ({ ...draft, tokens: countTokens(draft.content) }));
}

/** parseSource within `budget`: its document, or the ParseError it (or a budget) raised, as a value that crosses threads. */
export function parseWithinBudget(format: SourceFormat, bytes: Uint8Array, sourceName: string, budget: ParseBudget): Promise<ParseOutcome> {
  return asOutcome(async () => ({ parsed: await parseChecked(format, bytes, sourceName, budget) }));
}

/** A parsed document's chunks with their token counts, within `budget` (reindexing a stored structure). */
export function chunkWithinBudget(parsed: ParsedDocument, budget: ParseBudget): Promise<ChunkOutcome> {
  return asOutcome(async () => ({ chunks: chunkChecked(parsed, budget) }));
}

/** Parse, then chunk, in one trip: what ingestion needs of a file before it writes anything. */
export function prepareWithinBudget(format: SourceFormat, bytes: Uint8Array, sourceName: string, budget: ParseBudget): Promise<PrepareOutcome> {
  return asOutcome(async () => {
    const parsed = await parseChecked(format, bytes, sourceName, budget);
    return { parsed, chunks: chunkChecked(parsed, budget) };
  });
}

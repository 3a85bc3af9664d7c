import { ParseError, type SourceFormat } from './parsed-document';

/** An uploaded .txt, .md or .html file's text (docs/api.md §8.3): UTF-8, UTF-16 by byte order mark, else a legacy one. */

/** Windows-1252's characters for bytes 0x80–0x9F (the WHATWG index); every other byte is its own code point. */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d,
  0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/** Not TextDecoder('windows-1252'): Node 20.18.3+ and 22.13+ decode it as ISO-8859-1 (nodejs/node#60888), € as a control. */
export function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (c) => String.fromCharCode(WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!));
}

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

function decodeStrictly(bytes: Uint8Array, encoding: string): string | null {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function decodeUtf16(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0xff, 0xfe])) return decodeStrictly(bytes, 'utf-16le');
  if (startsWith(bytes, [0xfe, 0xff])) return decodeStrictly(bytes, 'utf-16be');
  return null;
}

/** Browsers look for a <meta> charset among the first 1024 bytes. */
function declaredHtmlEncoding(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  const label = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
  if (!label) return null;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null;
  }
}

/** The declared encoding, else Windows-1252 as browsers assume: a wrong guess costs odd characters the publisher can fix. */
function decodeLegacy(bytes: Uint8Array, format: SourceFormat): string {
  const body = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? bytes.subarray(3) : bytes;
  const declared = format === 'html' ? declaredHtmlEncoding(body) : null;
  // UTF-8 has just failed, and a UTF-16 page would have had a byte order mark; Windows-1252 is decoded by hand.
  const usable = declared && declared !== 'windows-1252' && !declared.startsWith('utf-');
  return (usable ? decodeStrictly(body, declared) : null) ?? decodeWindows1252(body);
}

/** Controls that no text uses (tab, line breaks and form feed are whitespace); a few are stray, many are binary. */
const STRAY_CONTROLS = /[\u0001-\u0008\u000e-\u001f\u007f]/g;
const BINARY_CONTROL_SHARE = 0.05;

const BINARY_MESSAGE = 'The file holds binary data, not text. Save it as UTF-8 text and upload it again.';

/** Binary is refused (NUL, which PostgreSQL cannot store, or many controls); a few stray ones (DOS's Ctrl-Z) are dropped. */
export function decodeText(bytes: Uint8Array, format: SourceFormat): string {
  const text = decodeUtf16(bytes) ?? decodeStrictly(bytes, 'utf-8') ?? decodeLegacy(bytes, format);
  const controls = text.match(STRAY_CONTROLS)?.length ?? 0;
  if (text.includes('\u0000') || controls > text.length * BINARY_CONTROL_SHARE) throw new ParseError('invalid_encoding', BINARY_MESSAGE);
  return controls > 0 ? text.replace(STRAY_CONTROLS, '') : text;
}

import { capture } from '@/lib/platform/arrays';
/** Text helpers for parsing, chunking and answers, on offsets into the extracted text so that excerpts stay verbatim. */

export function normalizeWhitespace(text: string): string {
  return text.replace(/[\s\u00a0\u200b]+/g, ' ').trim();
}

export interface Span {
  start: number;
  end: number;
}

// Abbreviations after which a period does not end a sentence.
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'sr',
  'jr',
  'vs',
  'v',
  'etc',
  'e.g',
  'i.e',
  'cf',
  'no',
  'nos',
  'art',
  'arts',
  'sec',
  'secs',
  'fig',
  'figs',
  'approx',
  'inc',
  'ltd',
  'co',
  'corp',
  'u.s',
  'u.k',
  'e.u',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'gen',
  'gov',
  'sen',
  'rep',
  'vol',
  'pp',
  'p',
  'para',
  'ch',
  'al',
  'ed',
  'eds',
  'min',
  'max',
  'mg',
  'ml',
  'kg',
  'dl',
  'mmhg',
  'a.m',
  'p.m',
  'ca',
  // German, Spanish and French ones that a number or a capital follows: "§ 622 Abs. 3 BGB", "5 Mio. Euro", "pág. 12".
  'abs',
  'nr',
  'ziff',
  'buchst',
  'vgl',
  'bzw',
  'ggf',
  'evtl',
  'inkl',
  'zzgl',
  'bzgl',
  'sog',
  'hrsg',
  'jh',
  'mio',
  'mrd',
  'tsd',
  'z.b',
  'd.h',
  'u.a',
  'núm',
  'pág',
  'págs',
  'sra',
  'srta',
  'ee.uu',
  'aprox',
  'cía',
  'mme',
  'mlle',
  'env',
  'av',
]);

/** Characters before a period read to tell an abbreviation or a date from a sentence's end. */
const LOOKBEHIND = 32;

const GERMAN_MONTH = /^(Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember)\b/u;

/** Sentence spans of one paragraph: end mark, space, then a capital, digit or quote; not after an abbreviation or initial. */
export function splitSentences(text: string): Span[] {
  const spans: Span[] = [];
  const boundary = /([.!?…])(["'”’)\]]*)(\s+)(?=["'“‘([]?[\p{Lu}\p{N}])/gu;
  let start = 0;
  for (const match of text.matchAll(boundary)) {
    const punct = capture(match, 1);
    const gap = capture(match, 3).length;
    const punctEnd = match.index + punct.length + capture(match, 2).length;
    if (punct === '.') {
      // Only the last few characters decide, and only they are read: a sentence of many skipped periods ("Mr. Mr. …")
      // read whole at each would cost time quadratic in its length. A word longer than the window is no abbreviation.
      const from = Math.max(start, match.index - LOOKBEHIND);
      const before = text.slice(from, match.index);
      const lastWord = /([\p{L}.]+)$/u.exec(before)?.[1]?.toLowerCase() ?? '';
      if (ABBREVIATIONS.has(lastWord) || /^\p{L}$/u.test(lastWord)) continue;
      // A German date's day is an ordinal with a period ("am 31. März"): no sentence ends there.
      const day = from === start ? /(^|\s)\d{1,2}$/ : /\s\d{1,2}$/;
      if (day.test(before) && GERMAN_MONTH.test(text.slice(punctEnd + gap, punctEnd + gap + 12))) continue;
    }
    if (punctEnd > start) spans.push({ start, end: punctEnd });
    start = punctEnd + gap;
  }
  if (start < text.length) {
    const end = text.trimEnd().length;
    if (end > start) spans.push({ start, end });
  }
  return spans;
}

export function countWords(text: string): number {
  const m = text.match(/\S+/g);
  return m ? m.length : 0;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** "non-vertical" is one word: it must not match a question about vertical lines. */
const NEGATED_COMPOUND = /\b(non)-(?=\p{L})/giu;

export function tokenize(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(NEGATED_COMPOUND, '$1');
  return Array.from(folded.matchAll(WORD), (m) => m[0]);
}

/** Very small English stemmer for sentence scoring in JS (retrieval itself uses PostgreSQL's Snowball stemmer). */
export function lightStem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  const rules: Array<[RegExp, string]> = [
    [/ational$/, 'ate'],
    [/ization$/, 'ize'],
    [/ations?$/, 'ate'],
    [/ments?$/, ''],
    [/nesses$|ness$/, ''],
    [/ies$/, 'y'],
    [/ied$/, 'y'],
    [/ing$/, ''],
    [/edly$/, ''],
    [/ly$/, ''],
    [/ed$/, ''],
    [/es$/, ''],
    [/s$/, ''],
  ];
  for (const [re, rep] of rules) {
    if (re.test(w) && w.replace(re, rep).length >= 3) {
      w = w.replace(re, rep);
      break;
    }
  }
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

export const STOP_WORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have having he her here hers him his how ' +
    'i if in into is it its itself me more most my no nor not of off on once only or other our ours out over own same she should so ' +
    'some such than that the their theirs them then there these they this those through to too under until up very was we were what ' +
    'when where which while who whom why will with would you your yours about after again against all any because before below ' +
    'between both during each few further just now above down also may must shall'
  ).split(' '),
);

export function contentTerms(text: string): string[] {
  return tokenize(text)
    .filter((w) => !STOP_WORDS.has(w))
    .map(lightStem);
}

import { capture } from '@/lib/platform/arrays';
/** A question's numbers found in a statement ("older than seventy" → "over 70"): answers prefer the question's own case. */

/** No "one": "which one", "one of" are seldom a count. */
export const ENGLISH_NUMBER_WORDS: Readonly<Record<string, number>> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

/** Ordinals a document spells out ("Nineteenth Amendment", "the second season") and buyers write in digits. */
export const ENGLISH_ORDINAL_WORDS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
};

const ROMAN_DIGITS: Readonly<Record<string, number>> = { I: 1, V: 5, X: 10, L: 50 };
const ROMAN = /^(XL|L?X{0,3})(IX|IV|V?I{0,3})$/;

/** A Roman numeral in capitals, I to LXXXIX ("VIII" → 8), or null. Whether "I", "V" or "X" is a numeral is the caller's call. */
export function romanValue(token: string): number | null {
  if (!token || !ROMAN.test(token)) return null;
  let value = 0;
  for (let k = 0; k < token.length; k++) {
    const digit = ROMAN_DIGITS[token[k]!]!;
    const next = ROMAN_DIGITS[token[k + 1] ?? ''] ?? 0;
    value += digit < next ? -digit : digit;
  }
  return value;
}

const WORD_VALUES: Record<string, number> = {
  ...ENGLISH_NUMBER_WORDS,
  hundred: 100,
  thousand: 1000,
  dos: 2,
  tres: 3,
  cuatro: 4,
  cinco: 5,
  seis: 6,
  siete: 7,
  ocho: 8,
  nueve: 9,
  diez: 10,
  doce: 12,
  quince: 15,
  veinte: 20,
  treinta: 30,
  cuarenta: 40,
  cincuenta: 50,
  sesenta: 60,
  setenta: 70,
  ochenta: 80,
  noventa: 90,
  cien: 100,
  zwei: 2,
  drei: 3,
  vier: 4,
  funf: 5,
  sechs: 6,
  sieben: 7,
  acht: 8,
  neun: 9,
  zehn: 10,
  zwolf: 12,
  zwanzig: 20,
  dreissig: 30,
  vierzig: 40,
  funfzig: 50,
  sechzig: 60,
  siebzig: 70,
  achtzig: 80,
  neunzig: 90,
  hundert: 100,
  deux: 2,
  trois: 3,
  quatre: 4,
  cinq: 5,
  sept: 7,
  huit: 8,
  neuf: 9,
  dix: 10,
  douze: 12,
  quinze: 15,
  vingt: 20,
  trente: 30,
  quarante: 40,
  cinquante: 50,
  soixante: 60,
  cent: 100,
};

const NUMBER_TOKEN = /\d+(?:[.,]\d+)*|[\p{L}]+/gu;

function fold(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
    .toLowerCase();
}

function parseDigits(text: string): number | null {
  if (/^\d{1,3}([.,]\d{3})+$/.test(text)) return Number(text.replace(/[.,]/g, ''));
  const n = Number(text.replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}

export function numbersIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(NUMBER_TOKEN)) {
    const token = m[0];
    const value = /^\d/.test(token) ? parseDigits(token) : (WORD_VALUES[fold(token)] ?? null);
    if (value !== null) out.push(value);
  }
  return out;
}

export function questionNumbers(question: string): number[] {
  return [...new Set(numbersIn(question))];
}

const DASH = '[-–—]';
const RANGE = new RegExp(`(\\d+(?:[.,]\\d+)*)\\s*(?:${DASH}|to|and|a|bis|à|et)\\s*(\\d+(?:[.,]\\d+)*)`, 'giu');

function rangesIn(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const m of text.matchAll(RANGE)) {
    const low = parseDigits(capture(m, 1));
    const high = parseDigits(capture(m, 2));
    if (low !== null && high !== null && low < high) out.push([low, high]);
  }
  return out;
}

export function sharedNumbers(numbers: number[], text: string): number {
  if (numbers.length === 0) return 0;
  const own = new Set(numbersIn(text));
  const ranges = rangesIn(text);
  const shared = numbers.filter((n) => own.has(n) || ranges.some(([low, high]) => low <= n && n <= high));
  return shared.length / numbers.length;
}

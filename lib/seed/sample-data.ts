import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { KnowledgeBaseSeed } from '@/db/seed/catalog/knowledge-bases';
import { itemAt } from '@/lib/platform/arrays';

/**
 * The sample marketplace's deterministic ingredients: a seeded PRNG (the same seed gives the same catalog, ids
 * included), the descriptions assembled from each entry's facts, and the sample buyers' names.
 */

/** Source documents of the hosted knowledge bases, one folder per knowledge-base slug (hosted-kbs.md). */
export const HOSTED_SOURCE_DIR = path.join(process.cwd(), 'db', 'seed', 'hosted');

/** mulberry32: tiny, fast, good enough for sample data; the same seed gives the same catalogue. */
export function createPrng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => itemAt(items, Math.floor(next() * items.length));
  const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const id = (prefix: string) => `${prefix}_${Array.from({ length: 16 }, () => ALPHABET[Math.floor(next() * 62)]).join('')}`;
  const shuffle = <T>(items: readonly T[]): T[] => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [itemAt(out, j), itemAt(out, i)];
    }
    return out;
  };
  return { next, int, pick, id, shuffle };
}
export type Prng = ReturnType<typeof createPrng>;

/** FNV-1a: a stable 32-bit seed from a slug. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const ORGANISATION = [
  'It is organised by topic, in short headed sections that each answer a practical question.',
  'Entries are short and self-contained, so a question usually lands on a single passage that answers it.',
  'Each section can be read on its own and gives the figures, names and conditions a reader needs.',
];

const AUDIENCE: Record<KnowledgeBaseSeed['category'], (audience: string) => string> = {
  legal: (a) =>
    `Written for ${a}, it explains what the rules require and where the common misunderstandings lie. It is a reference, not legal advice: for a decision about a specific situation, consult a qualified lawyer.`,
  health: (a) =>
    `It summarises the essentials for ${a} in plain language. It supports, and never replaces, the judgement of a professional who knows the patient.`,
  education: (a) => `It is written for ${a}, in short sections that can be read before a lesson or shared with a class.`,
  policy: (a) => `It gives ${a} a short, neutral account of how each instrument works and what the evidence says, without advocating a single answer.`,
  research: (a) => `It is written for ${a} and favours practical guidance over theory.`,
};

const UPKEEP = [
  'Answers from the query API quote the passages they draw on, so every claim can be checked against its source.',
  'It is sample content written for the Almanac demo marketplace, not professional advice.',
  'Questions beyond the topics named here fall outside what it can answer.',
];

function joinList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** 2–4 paragraphs: the hand-written ones for non-English entries, else assembled from the entry's own facts. */
export function composeDescription(kb: KnowledgeBaseSeed, prng: Prng): string {
  if (kb.description) return kb.description.join('\n\n');
  const paragraphs = [kb.about, `It covers ${joinList(kb.covers)}. ${prng.pick(ORGANISATION)}`, AUDIENCE[kb.category](kb.audience)];
  if (prng.next() < 0.6) paragraphs.push(prng.pick(UPKEEP));
  return paragraphs.join('\n\n');
}

/** Sample questions from db/seed/hosted/<slug>/sample-questions.json when the content helpers wrote one. */
export function readSampleQuestions(slug: string, fallback: string[]): string[] {
  const file = path.join(HOSTED_SOURCE_DIR, slug, 'sample-questions.json');
  if (!existsSync(file)) return fallback;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((q) => typeof q === 'string' && q.trim() !== '')) {
      return parsed.slice(0, 4) as string[];
    }
  } catch {
    // A malformed file must not stop the start-up; the catalogue's own questions are used instead.
  }
  return fallback;
}

export const FIRST_NAMES = [
  'Ada',
  'Bruno',
  'Chiara',
  'Dmitri',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Imani',
  'Jonas',
  'Kavya',
  'Luis',
  'Maya',
  'Nils',
  'Olga',
  'Priya',
  'Quentin',
  'Rosa',
  'Samir',
  'Tess',
];
export const LAST_NAMES = [
  'Abbott',
  'Berg',
  'Castillo',
  'Dubois',
  'Eze',
  'Fischer',
  'Garcia',
  'Haddad',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lindqvist',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Patel',
];

/**
 * The pure rules every loader shares: the deterministic sample, and keeping only the questions whose gold strings
 * really occur in their document (after whitespace normalisation), counting the rest.
 */
import { createHash } from 'node:crypto';
import type { OutsideDocument, OutsideQuestion } from './types';

/** Whitespace runs (including non-breaking spaces) collapsed to one space, ends trimmed. */
export const normaliseSpace = (text: string) => text.replace(/[\s\u00a0\u2000-\u200b\u202f\u205f\u3000]+/g, ' ').trim();

/** Whether `needle` occurs in `haystack` once whitespace is normalised in both. */
export const occursIn = (haystack: string, needle: string) => {
  const n = normaliseSpace(needle);
  return n.length > 0 && normaliseSpace(haystack).includes(n);
};

const rankOf = (id: string) => createHash('sha256').update(id).digest('hex');

/**
 * Up to `count` items, chosen by the SHA-256 of their id rather than by file order (which groups questions by topic),
 * and returned in that hash order: the same ids always give the same sample, and a larger count only adds items.
 */
export function sampleByHash<T>(items: readonly T[], idOf: (item: T) => string, count: number): T[] {
  return items
    .map((item) => ({ item, rank: rankOf(idOf(item)) }))
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0))
    .slice(0, Math.max(0, count))
    .map((x) => x.item);
}

/**
 * The questions whose every answer and evidence string occurs in the text of their document (or, for a set-level
 * question, of some document of the set), and how many were dropped for not doing so. An answerable question with no
 * gold string at all, or asked of a document the set does not hold, is dropped too.
 */
export function keepGrounded(documents: readonly OutsideDocument[], questions: readonly OutsideQuestion[]): { kept: OutsideQuestion[]; dropped: number } {
  const textOf = new Map(documents.map((d) => [d.id, normaliseSpace(d.text)]));
  const inSomeDocument = (s: string) => [...textOf.values()].some((text) => text.includes(normaliseSpace(s)));
  const kept: OutsideQuestion[] = [];
  let dropped = 0;
  for (const q of questions) {
    const gold = [...q.answers, ...q.evidence];
    let grounded: boolean;
    if (q.answerable && gold.length === 0) grounded = false;
    else if (q.documentId === null) grounded = gold.every((s) => normaliseSpace(s).length > 0 && inSomeDocument(s));
    else {
      const text = textOf.get(q.documentId);
      grounded = text !== undefined && gold.every((s) => normaliseSpace(s).length > 0 && text.includes(normaliseSpace(s)));
    }
    if (grounded) kept.push(q);
    else dropped++;
  }
  return { kept, dropped };
}

export const wordCount = (text: string) => (text.match(/\S+/g) ?? []).length;

/** Unique, trimmed, non-empty strings in first-seen order. */
export const distinct = (strings: Iterable<string>) => [...new Set([...strings].map((s) => s.trim()).filter(Boolean))];

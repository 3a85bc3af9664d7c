/**
 * Every loader against the real set, where the lead's fetch tool has put its repository on this machine
 * (OUTSIDE_MIRROR, default /work/.mirror); skipped, and reported as skipped, where it has not.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { keepGrounded } from './gold';
import { mirrorPathOf, outsideSets } from './sets';

const mirror = process.env.OUTSIDE_MIRROR ?? '/work/.mirror';

describe.each(outsideSets.map((loader) => [loader.name, loader] as const))('%s', (_, loader) => {
  const from = mirrorPathOf(loader, mirror);

  it.skipIf(!existsSync(from))('loads into a well-formed set whose every gold string is in its document', () => {
    const set = loader.load(from);
    const documentIds = set.documents.map((d) => d.id);
    expect(new Set(documentIds).size).toBe(documentIds.length);
    expect(new Set(set.documents.map((d) => d.fileName)).size).toBe(set.documents.length);
    for (const d of set.documents) expect(d.fileName).toMatch(/\.(md|txt|html)$/);
    expect(new Set(set.questions.map((q) => q.id)).size).toBe(set.questions.length);
    for (const q of set.questions) {
      if (q.documentId !== null) expect(documentIds).toContain(q.documentId);
      if (q.answerable) expect(q.answers.length + q.evidence.length).toBeGreaterThan(0);
      else expect([...q.answers, ...q.evidence]).toEqual([]);
    }
    expect(keepGrounded(set.documents, set.questions).dropped).toBe(0);
    const answerable = set.questions.filter((q) => q.answerable).length;
    // QASPER keeps only its extractive answers: 56 over 23 papers.
    expect(answerable).toBeGreaterThanOrEqual(50);
    expect(answerable).toBeLessThanOrEqual(600);
    expect(set.questions.length - answerable).toBeLessThanOrEqual(150);
    expect(loader.load(from)).toEqual(set);
  });
});

import { describe, expect, it } from 'vitest';
import { buildMessages, parseCitationMarkers } from './llm';
import type { RetrievedChunk } from './types';

describe('parseCitationMarkers', () => {
  it.each([
    ['A [1]. B [2][3].', 3, [1, 2, 3]],
    ['A [2, 1]; B [1;3]', 3, [2, 1, 3]],
    ['Out of range [0] [4] [12]', 3, []],
    ['Repeated [2] [2] [2]', 3, [2]],
    ['No markers here (1) or {2}', 3, []],
  ])('%s', (text, n, expected) => {
    expect(parseCitationMarkers(text, n)).toEqual(expected);
  });
});

describe('buildMessages', () => {
  it('numbers the passages with title, page and heading', () => {
    const p = (id: number, page: number | null): RetrievedChunk => ({
      chunkId: id,
      documentId: `doc_${id}`,
      documentTitle: `Doc ${id}`,
      page,
      heading: 'H',
      content: `Content ${id}.`,
      tokenCount: 3,
      score: 1,
    });
    const [system, user] = buildMessages('Why?', [p(1, 4), p(2, null)]);
    expect(system?.role).toBe('system');
    expect(user?.content).toBe('Passages:\n\n[1] Doc 1 (page 4) — H\nContent 1.\n\n[2] Doc 2 — H\nContent 2.\n\nQuestion: Why?');
  });
});

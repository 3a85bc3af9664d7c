import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@/lib/openapi';
import { referenceDocument } from './reference-document';
import { cleanText, referenceOperations, splitSummary } from './reference-text';

describe('splitSummary', () => {
  it.each<[string, string, string | null]>([
    ['Ask a knowledge base a question (API key required; metered)', 'Ask a knowledge base a question', 'API key required; metered'],
    ['Dify External Knowledge API: register <base>/dify in Dify', 'Dify External Knowledge API', 'Register <base>/dify in Dify'],
    ['List published knowledge bases', 'List published knowledge bases', null],
  ])('%j', (summary, heading, note) => expect(splitSummary(summary)).toEqual({ heading, note }));
});

describe('cleanText', () => {
  it('drops internal section numbers and configuration variables', () => {
    expect(cleanText('Answers come from memory for 30 s (CATALOG_CACHE_TTL_MS). See docs/api.md §7.2 for ids.')).toBe('Answers come from memory for 30 s.');
    expect(cleanText('An id no knowledge base can have is a 400 (docs/api.md §7.2).')).toBe('An id no knowledge base can have is a 400.');
    expect(cleanText('At most 300 a minute, set by PUBLIC_RATE_LIMIT_PER_MINUTE.')).toBe('At most 300 a minute, set by a server setting.');
    expect(cleanText('This address made more than PUBLIC_RATE_LIMIT_PER_MINUTE requests (300) in a minute')).toBe(
      'This address made more than 300 requests in a minute',
    );
  });
});

describe('referenceOperations on the served document', () => {
  const document = referenceDocument(buildOpenApiDocument('https://almanac.example')) as Record<string, unknown>;
  const values = { kb_id: 'kb_seeded', query: 'How many senators does each state have?', top_k: 3 };
  const answer = { answer: 'Two.', citations: [], tokens_used: 3 };
  const operations = referenceOperations(document, values, { queryKnowledgeBase: answer });
  const text = JSON.stringify(operations);

  it('has short headings, no section numbers, no operator variables, no "string" placeholders', () => {
    expect(operations.map((op) => op.heading)).toContain('Ask a knowledge base a question');
    for (const op of operations) expect(op.heading.length, op.heading).toBeLessThanOrEqual(60);
    expect(text).not.toMatch(/§|docs\/api\.md|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/);
    expect(text).not.toContain('"string"');
    expect(text).not.toMatch(/a server setting requests/);
  });

  it('fills the examples in with the catalogue values and the real answer', () => {
    const query = operations.find((op) => op.id === 'queryKnowledgeBase')!;
    expect(query.requestExample).toEqual({ query: values.query });
    expect(query.responses.find((r) => r.status === '200')!.example).toEqual(answer);
  });
});

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM example without type declarations
import { answerQuery, buildIndex, DOCUMENTS, verifySignature } from './server.mjs';

const secret = 'example-signing-secret-0123456789abcdef';
const sign = (t: number, body: string) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

describe('example publisher: signature', () => {
  const now = 1_800_000_000;
  const body = '{"query":"x"}';
  it('accepts a fresh, correct signature', () => {
    expect(verifySignature(sign(now, body), body, secret, now)).toBeNull();
    expect(verifySignature(sign(now - 299, body), body, secret, now)).toBeNull();
  });
  it('rejects stale, future, tampered and malformed signatures', () => {
    expect(verifySignature(sign(now - 301, body), body, secret, now)).toBe('stale signature timestamp');
    expect(verifySignature(sign(now + 301, body), body, secret, now)).toBe('stale signature timestamp');
    expect(verifySignature(sign(now, body), body + ' ', secret, now)).toBe('bad signature');
    expect(verifySignature(sign(now, body), body, secret + 'x', now)).toBe('bad signature');
    expect(verifySignature('garbage', body, secret, now)).toBe('malformed Almanac-Signature');
    expect(verifySignature(undefined, body, secret, now)).toBe('missing Almanac-Signature');
  });
});

describe('example publisher: retrieval', () => {
  const index = buildIndex(DOCUMENTS);
  const allText = DOCUMENTS.map((d: { pages: string[] | null; text?: string }) => (d.pages ?? [d.text]).join(' ')).join(' ');

  it('answers from its documents with excerpts that occur in them', () => {
    const result = answerQuery(index, 'Which light does a vessel at anchor show?');
    expect(result.citations.length).toBeGreaterThan(0);
    expect(result.citations[0].document_id).toBe('lights');
    for (const c of result.citations) expect(allText).toContain(c.excerpt);
    expect(result.answer).toContain('anchor');
    expect(result.tokens_used).toBeGreaterThan(0);
  });

  it('gives page numbers for paged documents and null otherwise', () => {
    const tides = answerQuery(index, 'rule of twelfths for the height of tide');
    expect(tides.citations[0]).toMatchObject({ document_id: 'tide-tables', page: 3 });
    const knots = answerQuery(index, 'bowline loop');
    expect(knots.citations[0]).toMatchObject({ document_id: 'knots', page: null });
  });

  it('says so when nothing matches', () => {
    expect(answerQuery(index, 'quantum chromodynamics').citations).toEqual([]);
  });
});

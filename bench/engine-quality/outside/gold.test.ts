import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itemAt } from '@/lib/platform/arrays';
import { keepGrounded, normaliseSpace, occursIn, sampleByHash } from './gold';
import { parseDocumentTitles } from './obliqa';
import { readVerified, sha256 } from './source';
import type { OutsideDocument, OutsideQuestion } from './types';

const question = (id: string, documentId: string | null, answers: string[], evidence: string[]): OutsideQuestion => ({
  id,
  question: `${id}?`,
  answers,
  evidence,
  documentId,
  answerable: true,
});

describe('sampleByHash', () => {
  const items = Array.from({ length: 200 }, (_, i) => ({ id: `q${i}` }));

  it('is deterministic, independent of input order, and grows by adding', () => {
    const a = sampleByHash(items, (x) => x.id, 50).map((x) => x.id);
    expect(sampleByHash([...items].reverse(), (x) => x.id, 50).map((x) => x.id)).toEqual(a);
    expect(
      sampleByHash(items, (x) => x.id, 80)
        .map((x) => x.id)
        .slice(0, 50),
    ).toEqual(a);
    expect(new Set(a).size).toBe(50);
  });

  it('does not take the first items of the file', () => {
    const ids = sampleByHash(items, (x) => x.id, 50).map((x) => Number(x.id.slice(1)));
    expect(ids.filter((n) => n < 50).length).toBeLessThan(30);
    expect(Math.max(...ids)).toBeGreaterThan(150);
  });

  it('returns everything when asked for more than there is', () => {
    expect(sampleByHash(items, (x) => x.id, 500)).toHaveLength(200);
  });
});

describe('gold in the document', () => {
  const documents: OutsideDocument[] = [
    { id: 'd1', fileName: 'One.md', text: '# One\n\nThe  tower was built\nin 1889 by Eiffel.\n' },
    { id: 'd2', fileName: 'Two.md', text: '# Two\n\nParis is the capital of France.\n' },
  ];

  it('matches across whitespace differences only', () => {
    expect(normaliseSpace(' a \n\t b\u00a0c ')).toBe('a b c');
    expect(occursIn(itemAt(documents, 0).text, 'tower was built in 1889')).toBe(true);
    expect(occursIn(itemAt(documents, 0).text, 'Tower was built in 1889')).toBe(false);
    expect(occursIn(itemAt(documents, 0).text, '  ')).toBe(false);
  });

  it('keeps grounded questions and counts the rest', () => {
    const { kept, dropped } = keepGrounded(documents, [
      question('ok', 'd1', ['1889'], ['The tower was built in 1889 by Eiffel.']),
      question('wrong-document', 'd2', ['1889'], []),
      question('not-verbatim', 'd1', [], ['The tower was erected in 1889.']),
      question('unknown-document', 'd9', ['1889'], []),
      question('set-level', null, [], ['built in 1889', 'capital of France']),
      question('set-level-missing', null, [], ['capital of Spain']),
      question('empty-gold', 'd1', [''], []),
      question('no-gold', 'd1', [], []),
      { ...question('unanswerable', 'd2', [], []), answerable: false },
    ]);
    expect(kept.map((q) => q.id)).toEqual(['ok', 'set-level', 'unanswerable']);
    expect(dropped).toBe(6);
  });
});

describe('readVerified', () => {
  const dir = mkdtempSync(join(tmpdir(), 'outside-'));
  writeFileSync(join(dir, 'a.json'), '{"x":1}');
  const source = (hash: string) => ({
    repository: 'https://github.com/o/r',
    commit: '0'.repeat(40),
    files: [{ path: 'a.json', sha256: hash }],
    licence: 'MIT',
    citation: '',
  });

  it('reads a file of a checkout whose checksum matches', () => {
    expect(readVerified(dir, source(sha256(Buffer.from('{"x":1}'))), 'a.json').toString()).toBe('{"x":1}');
  });

  it('refuses a file whose checksum differs, in one sentence', () => {
    expect(() => readVerified(dir, source('f'.repeat(64)), 'a.json')).toThrow(
      /^a\.json has sha256 [0-9a-f]{64}, not the f{64} recorded .*: this is not the file the loader was written for\.$/,
    );
  });

  it('refuses a file the loader does not record', () => {
    expect(() => readVerified(dir, source('f'.repeat(64)), 'b.json')).toThrow(/not among the files recorded/);
  });
});

describe('ObliQA titles', () => {
  it('takes the longest name after the file stem and decodes RTF quotes', () => {
    const rtf = String.raw`DOCUMENT_ID_MAP = \{\
    1: [\
        "AML_VER09.211223",\
        "AML",\
        "Anti-Money Laundering and Sanctions Rules and Guidance (AML)"\
    ],\
    28: [\
        "Guidance - Continuous Disclosure_VER01.280922",\
        "Guidance \'96 Continuous Disclosure"\
    ]\
\}`;
    const titles = parseDocumentTitles(rtf);
    expect(titles.get(1)).toBe('Anti-Money Laundering and Sanctions Rules and Guidance (AML)');
    expect(titles.get(28)).toBe('Guidance \u2013 Continuous Disclosure');
  });
});

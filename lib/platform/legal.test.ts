import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvForTesting } from './env';
import { LEGAL_DOCUMENTS, readLegalDocument, type LegalSlug } from './legal';

const saved = process.env.LEGAL_DIR;
afterEach(() => {
  if (saved === undefined) delete process.env.LEGAL_DIR;
  else process.env.LEGAL_DIR = saved;
  resetEnvForTesting();
});

describe('readLegalDocument', () => {
  it.each(Object.keys(LEGAL_DOCUMENTS) as LegalSlug[])('the shipped %s text says it is a sample', async (slug) => {
    delete process.env.LEGAL_DIR;
    resetEnvForTesting();
    const document = await readLegalDocument(slug);
    expect(document?.title).toBe(LEGAL_DOCUMENTS[slug]);
    expect(document?.markdown).toMatch(/^> \*\*Sample text\.\*\*/);
  });

  it("reads the operator's folder, and a missing file is null (a 404), not an error", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'almanac-legal-'));
    writeFileSync(path.join(dir, 'terms.md'), '## Our terms\n\nBe nice.');
    process.env.LEGAL_DIR = dir;
    resetEnvForTesting();
    expect(await readLegalDocument('terms')).toEqual({ slug: 'terms', title: 'Terms of service', markdown: '## Our terms\n\nBe nice.' });
    expect(await readLegalDocument('privacy')).toBeNull();
  });
});

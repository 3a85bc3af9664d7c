import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { getEnv } from './env';

/**
 * The operator's legal texts (terms, privacy, refunds): Markdown files in LEGAL_DIR, read when a page asks (so an
 * edited file shows without a rebuild or restart). The repository's `legal/` holds sample texts, marked as samples.
 */
export const LEGAL_DOCUMENTS = {
  terms: 'Terms of service',
  privacy: 'Privacy notice',
  refunds: 'Refund policy',
} as const;

export type LegalSlug = keyof typeof LEGAL_DOCUMENTS;

export interface LegalDocument {
  slug: LegalSlug;
  title: string;
  markdown: string;
}

/** Only the three known names, so nothing else in the folder (or outside it) can be read. */
function legalFilePath(dir: string, slug: LegalSlug): string {
  return path.resolve(dir, `${slug}.md`);
}

export async function readLegalDocument(slug: LegalSlug): Promise<LegalDocument | null> {
  try {
    const markdown = await readFile(legalFilePath(getEnv().LEGAL_DIR, slug), 'utf8');
    return { slug, title: LEGAL_DOCUMENTS[slug], markdown };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

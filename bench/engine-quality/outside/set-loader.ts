import { keepGrounded, normaliseSpace } from './gold';
import type { OutsideDocument, OutsideQuestion, OutsideSet, OutsideSource } from './types';

/** One outside set: where it comes from and how to turn a local copy of its repository into an OutsideSet. */
export interface SetLoader {
  name: string;
  domain: OutsideSet['domain'];
  source: OutsideSource;
  /** Reads the set from a git directory or checkout of `source.repository`, checking every file's checksum. */
  load(from: string): OutsideSet;
}

/** The OutsideSet of a loader's documents and candidate questions, the ungrounded questions dropped and counted. */
export function assemble(loader: Omit<SetLoader, 'load'>, documents: OutsideDocument[], candidates: OutsideQuestion[], description: string): OutsideSet {
  const { kept, dropped } = keepGrounded(
    documents,
    candidates.map((q) => ({ ...q, question: normaliseSpace(q.question) })),
  );
  return {
    name: loader.name,
    domain: loader.domain,
    source: loader.source,
    documents,
    questions: kept,
    sampling: {
      description,
      dropped,
      droppedBecause:
        'an answer or evidence string does not occur in its document after whitespace normalisation, or an answerable question has no gold string',
    },
  };
}

/** "RESULTS" → "Results". */
export const capitalised = (label: string) => label.charAt(0).toUpperCase() + label.slice(1).toLowerCase();

/** "Super_Bowl_50" → "super-bowl-50": the id part of a document named by its title. */
export const slug = (title: string) =>
  title
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();

/** A title as a file name a publisher's system accepts (path and reserved characters replaced). */
export const fileNameOf = (title: string, extension: 'md' | 'txt' | 'html') => `${title.replace(/[\\/:*?"<>|]/g, '-')}.${extension}`;

/**
 * CLAP NQ (IBM, 2024): Natural Questions whose answer is a long passage without a short span, each with the Wikipedia
 * passage it was asked of, the sentences annotators selected as the answer and a concise answer they wrote; plus as
 * many questions whose passage does not answer them. Encyclopaedic text with the set's own unanswerable questions.
 *
 * A document is one Wikipedia article as far as the set gives it: its title as the `# ` heading and the passages of
 * that title the sampled questions were asked of (in the set's tokenisation: spaces around punctuation, `` and ''
 * for quotes). Gold for answerable questions: the sentences selected in the latest annotation round that selected
 * any (evidence); no spans, that round's written answer in `meta.answer`. Unanswerable questions (answerable false)
 * are asked of the document holding their passage. Sample: all 300 answerable development questions and 150 of the
 * 300 unanswerable ones, by the hash of their id.
 */
import { distinct, sampleByHash } from './gold';
import { assemble, fileNameOf, slug, type SetLoader } from './set-loader';
import { readVerifiedJsonl } from './source';
import type { OutsideDocument, OutsideQuestion } from './types';

const ANSWERABLE = 'annotated_data/dev/clapnq_dev_answerable.jsonl';
const UNANSWERABLE = 'annotated_data/dev/clapnq_dev_unanswerable.jsonl';
const SAMPLE = 500;
const UNANSWERABLE_SAMPLE = 150;

interface Row {
  id: string;
  input: string;
  passages: Array<{ title: string; text: string }>;
  output: Array<{ answer: string; selected_sentences: string[]; meta?: { round?: number } }>;
}

/** The annotation of the latest round that selected sentences (a second round revises the first); none if none did. */
const bestAnnotation = (row: Row) => row.output.filter((o) => o.selected_sentences.length > 0).sort((a, b) => (b.meta?.round ?? 0) - (a.meta?.round ?? 0))[0];

const loader: Omit<SetLoader, 'load'> = {
  name: 'clapnq',
  domain: 'encyclopaedic',
  source: {
    repository: 'https://github.com/primeqa/clapnq',
    commit: 'eb26840d130f4dcf4c4c5c12a47d0beffc9cc586',
    files: [
      { path: ANSWERABLE, sha256: '3eefef4a3d4e34c0f7d2c2eceb9bde263bf43ee8edac1b4fe8d74f8b6a0bdfbe' },
      { path: UNANSWERABLE, sha256: 'a04f4fd625a68a521663d4c0e2b54c74c8067459adcb973a6111602fa54faaac' },
    ],
    licence: 'Apache-2.0 (LICENSE in the repository); the passages are Wikipedia text via Natural Questions (CC BY-SA 3.0)',
    citation:
      'Rosenthal, Sil, Florian, Roukos. CLAPNQ: Cohesive Long-form Answers from Passages in Natural Questions for RAG systems. TACL 2025 (arXiv:2404.02103).',
  },
};

export const clapnq: SetLoader = {
  ...loader,
  load(from) {
    const answerable = sampleByHash(readVerifiedJsonl<Row>(from, loader.source, ANSWERABLE), (r) => r.id, SAMPLE);
    const unanswerable = sampleByHash(readVerifiedJsonl<Row>(from, loader.source, UNANSWERABLE), (r) => r.id, UNANSWERABLE_SAMPLE);
    const passagesOf = new Map<string, { title: string; texts: string[] }>();
    const documentOf = (row: Row) => {
      const passage = row.passages[0];
      if (!passage) throw new Error(`CLAPNQ row ${row.id} has no passage`);
      const id = `clapnq-${slug(passage.title)}`;
      const doc = passagesOf.get(id) ?? { title: passage.title.trim(), texts: [] };
      const text = passage.text.trim();
      if (!doc.texts.includes(text)) doc.texts.push(text);
      passagesOf.set(id, doc);
      return id;
    };
    const questions: OutsideQuestion[] = [
      ...answerable.map((row) => {
        const annotation = bestAnnotation(row);
        return {
          id: `clapnq-${row.id}`,
          question: row.input.trim(),
          answers: [],
          evidence: distinct(annotation?.selected_sentences ?? []),
          documentId: documentOf(row),
          answerable: true,
          meta: { answer: annotation?.answer ?? '' },
        };
      }),
      ...unanswerable.map((row) => ({
        id: `clapnq-${row.id}`,
        question: row.input.trim(),
        answers: [],
        evidence: [],
        documentId: documentOf(row),
        answerable: false,
      })),
    ];
    const documents: OutsideDocument[] = [...passagesOf].map(([id, d]) => ({
      id,
      fileName: fileNameOf(d.title, 'md'),
      text: `# ${d.title}\n\n${d.texts.join('\n\n')}\n`,
    }));
    return assemble(
      loader,
      documents,
      questions,
      `all ${answerable.length} answerable and ${unanswerable.length} of the unanswerable development questions (by the SHA-256 of their id); one document per article title, holding those questions' passages`,
    );
  },
};

/**
 * XQuAD, English part (`xquad.en.json`): 1,190 SQuAD v1.1 development questions that crowd workers wrote about 240
 * paragraphs of 48 Wikipedia articles, with the answer spans they marked. Encyclopaedic text. (SQuAD's own files are
 * over the 4 MiB a snapshot carries; XQuAD is the same questions and paragraphs, published apart.)
 *
 * A document is one article: its title (underscores as spaces) as the `# ` heading, its paragraphs in order. Gold: the
 * marked spans (answers) and the paragraph they were marked in (evidence). No unanswerable questions in this set.
 * Sample: 500 questions by the hash of their SQuAD id; every article is kept.
 */
import { distinct, sampleByHash } from './gold';
import { assemble, fileNameOf, slug, type SetLoader } from './set-loader';
import { readVerifiedJson } from './source';
import type { OutsideDocument, OutsideQuestion } from './types';

const FILE = 'xquad.en.json';
const SAMPLE = 500;

interface Squad {
  data: Array<{ title: string; paragraphs: Array<{ context: string; qas: Array<{ id: string; question: string; answers: Array<{ text: string }> }> }> }>;
}

const loader: Omit<SetLoader, 'load'> = {
  name: 'xquad-en',
  domain: 'encyclopaedic',
  source: {
    repository: 'https://github.com/google-deepmind/xquad',
    commit: '7d30520c717524000f0d9d2f9c10a069acd9d285',
    files: [{ path: FILE, sha256: 'e4c57d1c9143aaa1c5d265ba5987a65f4e69528d2a98f29d6e75019b10344f29' }],
    licence: 'CC BY-SA 4.0 (README and CC-BY-SA4.0.txt in the repository)',
    citation:
      'Artetxe, Ruder, Yogatama. On the Cross-lingual Transferability of Monolingual Representations. ACL 2020; Rajpurkar, Zhang, Lopyrev, Liang. SQuAD: 100,000+ Questions for Machine Comprehension of Text. EMNLP 2016.',
  },
};

export const xquad: SetLoader = {
  ...loader,
  load(from) {
    const { data } = readVerifiedJson<Squad>(from, loader.source, FILE);
    const documents: OutsideDocument[] = [];
    const all: OutsideQuestion[] = [];
    for (const article of data) {
      const title = article.title.replace(/_/g, ' ').trim();
      const id = `xquad-${slug(article.title)}`;
      documents.push({ id, fileName: fileNameOf(title, 'md'), text: `# ${title}\n\n${article.paragraphs.map((p) => p.context.trim()).join('\n\n')}\n` });
      for (const paragraph of article.paragraphs) {
        for (const qa of paragraph.qas) {
          all.push({
            id: `xquad-${qa.id}`,
            question: qa.question.trim(),
            answers: distinct(qa.answers.map((a) => a.text)),
            evidence: [paragraph.context.trim()],
            documentId: id,
            answerable: true,
          });
        }
      }
    }
    const chosen = sampleByHash(all, (q) => q.id, SAMPLE);
    return assemble(loader, documents, chosen, `${SAMPLE} of the ${all.length} questions, chosen by the SHA-256 of their id; all ${documents.length} articles`);
  },
};

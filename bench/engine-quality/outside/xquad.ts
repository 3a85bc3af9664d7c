/**
 * XQuAD (`xquad.<language>.json`): 1,190 SQuAD v1.1 development questions that crowd workers wrote about 240
 * paragraphs of 48 Wikipedia articles, with the answer spans they marked. Encyclopaedic text. (SQuAD's own files are
 * over the 4 MiB a snapshot carries; XQuAD is the same questions and paragraphs, published apart.) The English part is
 * a domain of the benchmark; the German and Spanish parts are professional translations of the same paragraphs and
 * questions, with the same ids, so the same sample is drawn in every language and the languages compare question by
 * question (measure.ts; they are not in `--all` and not fitted on).
 *
 * A document is one article: its title (underscores as spaces) as the `# ` heading, its paragraphs in order. Gold: the
 * marked spans (answers) and the paragraph they were marked in (evidence). No unanswerable questions in this set.
 * Sample: 500 questions by the hash of their SQuAD id; every article is kept.
 */
import { distinct, sampleByHash } from './gold';
import { assemble, fileNameOf, slug, type SetLoader } from './set-loader';
import { readVerifiedJson } from './source';
import type { OutsideDocument, OutsideQuestion } from './types';

const SAMPLE = 500;
/** Each language's file and its checksum at the recorded commit. */
const FILES = {
  en: 'e4c57d1c9143aaa1c5d265ba5987a65f4e69528d2a98f29d6e75019b10344f29',
  de: '990b5d746746ed65ed4702ea5f35f99ffa4e2f1c390c07d003642acd937916f9',
  es: 'dcbae93ec3a9f4b9e78fd834a171d6f96c1a875e10e15b7530b7e4ef4971e37e',
} as const;

interface Squad {
  data: Array<{ title: string; paragraphs: Array<{ context: string; qas: Array<{ id: string; question: string; answers: Array<{ text: string }> }> }> }>;
}

function xquadIn(language: keyof typeof FILES): SetLoader {
  const file = `xquad.${language}.json`;
  const loader: Omit<SetLoader, 'load'> = {
    name: `xquad-${language}`,
    domain: language === 'en' ? 'encyclopaedic' : `encyclopaedic-${language}`,
    source: {
      repository: 'https://github.com/google-deepmind/xquad',
      commit: '7d30520c717524000f0d9d2f9c10a069acd9d285',
      files: [{ path: file, sha256: FILES[language] }],
      licence: 'CC BY-SA 4.0 (README and CC-BY-SA4.0.txt in the repository)',
      citation:
        'Artetxe, Ruder, Yogatama. On the Cross-lingual Transferability of Monolingual Representations. ACL 2020; Rajpurkar, Zhang, Lopyrev, Liang. SQuAD: 100,000+ Questions for Machine Comprehension of Text. EMNLP 2016.',
    },
  };

  return {
    ...loader,
    load(from) {
      const { data } = readVerifiedJson<Squad>(from, loader.source, file);
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
      return assemble(
        loader,
        documents,
        chosen,
        `${SAMPLE} of the ${all.length} questions, chosen by the SHA-256 of their id; all ${documents.length} articles`,
      );
    },
  };
}

export const xquad = xquadIn('en');
/** The same sample in German and in Spanish. */
export const xquadOtherLanguages = [xquadIn('de'), xquadIn('es')] as const;

/**
 * QASPER (AllenAI) as L-Eval republishes it (`LEval-data/Open-ended-tasks/scientific_qa.jsonl`): questions written by
 * NLP practitioners who had read only a paper's title and abstract, answered from the full paper by others. Long
 * scientific articles (about 3,000 words each), the shape of the issue's own outside measurement, in Markdown.
 *
 * A document is one paper: a line of fewer than nine words with no closing punctuation is a section heading (`## `), the
 * rest are paragraphs. L-Eval keeps no title, so the paper is named by its position in the file. Gold: the answers that
 * occur verbatim in the paper (QASPER's extractive answers); free-form answers, yes/no answers and answers of fewer than
 * four characters are left out, since "gold in the first statement" cannot be judged on them. A question asked twice of
 * one paper is asked once, with every annotator's extractive answer.
 */
import { distinct } from './gold';
import { assemble, type SetLoader } from './set-loader';
import { LEVAL, type LevalRow } from './leval';
import { readVerifiedJsonl } from './source';
import type { OutsideDocument, OutsideQuestion } from './types';

const FILE = 'LEval-data/Open-ended-tasks/scientific_qa.jsonl';

const loader: Omit<SetLoader, 'load'> = {
  name: 'qasper',
  domain: 'scientific-articles',
  source: {
    ...LEVAL,
    files: [{ path: FILE, sha256: 'db11d9cc4c928a3dc4bef6075a8223b785a117b4066439d4c55e6bc4e817f4c0' }],
    licence: 'repository GPL-3.0 (LICENSE); the data is QASPER (AllenAI, CC BY 4.0), papers from arXiv (S2ORC)',
    citation:
      'An et al. L-Eval: Instituting Standardized Evaluation for Long Context Language Models. ACL 2024; Dasigi et al. A Dataset of Information-Seeking Questions and Answers Anchored in Research Papers. NAACL 2021.',
  },
};

/** "Related Work", "Level A: Offensive language Detection": short, and not ending as a sentence does. */
export const isSectionHeading = (line: string) => line.split(/\s+/).length < 9 && !/[.:;,?!)]$/.test(line) && /^\p{Lu}/u.test(line);

export function paperMarkdown(title: string, input: string): string {
  const lines = input
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return [`# ${title}`, ...lines.map((l) => (isSectionHeading(l) ? `## ${l}` : l))].join('\n\n') + '\n';
}

const extractive = (answer: string, text: string) =>
  answer.length >= 4 && !/^(yes|no|unanswerable)\.?$/i.test(answer) && text.includes(answer.replace(/\s+/g, ' '));

export const qasper: SetLoader = {
  ...loader,
  load(from) {
    const rows = readVerifiedJsonl<LevalRow>(from, loader.source, FILE);
    const documents: OutsideDocument[] = [];
    const questions: OutsideQuestion[] = [];
    rows.forEach((row, n) => {
      const title = `QASPER paper ${String(n + 1).padStart(2, '0')}`;
      const id = `qasper-${n + 1}`;
      const text = paperMarkdown(title, row.input);
      const flat = text.replace(/\s+/g, ' ');
      documents.push({ id, fileName: `${title}.md`, text });
      const byQuestion = new Map<string, string[]>();
      row.instructions.forEach((question, i) => {
        const answer = (row.outputs[i] ?? '').trim();
        const key = question.trim();
        const kept = byQuestion.get(key) ?? [];
        if (extractive(answer, flat)) kept.push(answer);
        byQuestion.set(key, kept);
      });
      let k = 0;
      for (const [question, answers] of byQuestion) {
        if (answers.length === 0) continue;
        questions.push({ id: `${id}-${++k}`, question, answers: distinct(answers), evidence: [], documentId: id, answerable: true });
      }
    });
    return assemble(
      loader,
      documents,
      questions,
      `every question of the file with an extractive answer (${rows.length} papers); free-form and yes/no answers left out`,
    );
  },
};

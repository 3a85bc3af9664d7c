/**
 * CUAD (the Atticus Project's Contract Understanding Atticus Dataset) as L-Eval (OpenLMLab) republishes a part of it
 * (`LEval-data/Open-ended-tasks/legal_contract_qa.jsonl`): 23 whole commercial contracts filed with the SEC, each
 * with the clauses lawyers highlighted for CUAD's review categories (expiration date, renewal term, insurance, …).
 * Legal text in another shape than ObliQA's rulebooks: long contracts (4,000–50,000 words), plain text, no headings.
 * CUAD's own repository keeps its data in one archive over the 4 MiB a fetched snapshot carries, hence L-Eval's copy.
 *
 * A document is one contract as a `.txt` file (the set gives no title; it is named by its position). A question is
 * the category's question as CUAD words it ("On what date will the contract's initial term expire?"); the categories
 * CUAD describes with a noun phrase rather than a question (parties, competitive restriction exception, …) are left
 * out and counted, not reworded here. Gold: the highlighted clause (evidence, verbatim); the category in
 * `meta.category`. Every such question of the file is used (the set is small).
 */
import { capture } from '@/lib/platform/arrays';
import { distinct } from './gold';
import { assemble, type SetLoader } from './set-loader';
import { LEVAL, type LevalRow } from './leval';
import { readVerifiedJsonl } from './source';
import type { OutsideDocument, OutsideQuestion } from './types';

const FILE = 'LEval-data/Open-ended-tasks/legal_contract_qa.jsonl';

const loader: Omit<SetLoader, 'load'> = {
  name: 'cuad-contracts',
  domain: 'legal',
  source: {
    ...LEVAL,
    files: [{ path: FILE, sha256: 'ed78010152c83effc5191592f92e2c0821f05329789cb546898d5d6290208dd8' }],
    licence: 'repository GPL-3.0 (LICENSE); the data is CUAD v1 (The Atticus Project, CC BY 4.0)',
    citation:
      'Hendrycks, Burns, Chen, Ball. CUAD: An Expert-Annotated NLP Dataset for Legal Contract Review. NeurIPS 2021 Datasets and Benchmarks; An et al. L-Eval. ACL 2024.',
  },
};

const INSTRUCTION = /^Highlight the parts \(if any\) of this contract related to "(.*?)" that should be reviewed by a lawyer\. Details: ([\s\S]*)$/;

export const cuadContracts: SetLoader = {
  ...loader,
  load(from) {
    const rows = readVerifiedJsonl<LevalRow>(from, loader.source, FILE);
    const documents: OutsideDocument[] = [];
    const questions: OutsideQuestion[] = [];
    let notQuestions = 0;
    rows.forEach((row, n) => {
      const number = String(n + 1).padStart(2, '0');
      const id = `cuad-contract-${number}`;
      documents.push({ id, fileName: `contract-${number}.txt`, text: `${row.input.trim()}\n` });
      row.instructions.forEach((instruction, i) => {
        const match = INSTRUCTION.exec(instruction.trim());
        const question = match ? capture(match, 2).trim() : '';
        if (!match || !question.endsWith('?')) {
          notQuestions++;
          return;
        }
        questions.push({
          id: `${id}-${i + 1}`,
          question,
          answers: [],
          evidence: distinct([row.outputs[i] ?? '']),
          documentId: id,
          answerable: true,
          meta: { category: capture(match, 1) },
        });
      });
    });
    return assemble(
      loader,
      documents,
      questions,
      `every question-worded item of the file's ${rows.length} contracts; ${notQuestions} items whose category CUAD describes without a question left out`,
    );
  },
};

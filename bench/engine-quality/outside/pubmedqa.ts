/**
 * PubMedQA (PQA-L, `data/ori_pqal.json`): 1,000 yes/no/maybe questions that biomedical researchers asked of
 * structured PubMed abstracts, each abstract's conclusion being the question's long answer. Biomedical abstracts.
 *
 * A document is one abstract as published: its labelled sections under `## ` headings and the conclusion last (the
 * set gives no title, so none is invented). Gold is the conclusion (evidence); there are no short spans, the yes/no/maybe
 * decision is kept in `meta.decision`. Sample: 400 abstracts by the hash of their PMID (one question each).
 */
import { sampleByHash } from './gold';
import { assemble, capitalised, type SetLoader } from './set-loader';
import { readVerifiedJson } from './source';
import type { OutsideDocument, OutsideQuestion } from './types';

const FILE = 'data/ori_pqal.json';
const SAMPLE = 400;

interface Item {
  QUESTION: string;
  CONTEXTS: string[];
  LABELS: string[];
  LONG_ANSWER: string;
  final_decision: string;
}

const loader: Omit<SetLoader, 'load'> = {
  name: 'pubmedqa',
  domain: 'biomedical',
  source: {
    repository: 'https://github.com/pubmedqa/pubmedqa',
    commit: '1cbae8e92f72f20c8d3747cbb3bf5bc53554d997',
    files: [{ path: FILE, sha256: '8b3276be8942ebbd77f3ddcda12c1749bf0e490045a736fd8438ee40cf37a41d' }],
    licence: 'MIT (LICENSE in the repository)',
    citation: 'Jin, Dhingra, Liu, Cohen, Lu. PubMedQA: A Dataset for Biomedical Research Question Answering. EMNLP-IJCNLP 2019.',
  },
};

function toDocument(pmid: string, item: Item): OutsideDocument {
  const parts: string[] = [];
  item.CONTEXTS.forEach((text, i) => {
    const label = item.LABELS[i];
    if (label && label !== 'UNLABELLED') parts.push(`## ${capitalised(label)}`);
    parts.push(text.trim());
  });
  parts.push('## Conclusions', item.LONG_ANSWER.trim());
  return { id: `pubmedqa-${pmid}`, fileName: `pubmed-${pmid}.md`, text: `${parts.join('\n\n')}\n` };
}

export const pubmedqa: SetLoader = {
  ...loader,
  load(from) {
    const data = readVerifiedJson<Record<string, Item>>(from, loader.source, FILE);
    const chosen = sampleByHash(Object.entries(data), ([pmid]) => pmid, SAMPLE);
    const documents = chosen.map(([pmid, item]) => toDocument(pmid, item));
    const questions: OutsideQuestion[] = chosen.map(([pmid, item]) => ({
      id: `pubmedqa-${pmid}`,
      question: item.QUESTION.trim(),
      answers: [],
      evidence: [item.LONG_ANSWER.trim()],
      documentId: `pubmedqa-${pmid}`,
      answerable: true,
      meta: { decision: item.final_decision },
    }));
    return assemble(
      loader,
      documents,
      questions,
      `${SAMPLE} of the ${Object.keys(data).length} abstracts, chosen by the SHA-256 of their PMID; every question asked of its own abstract`,
    );
  },
};

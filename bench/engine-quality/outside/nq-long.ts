/**
 * Natural Questions on whole Wikipedia pages, as L-Eval (OpenLMLab) republishes them
 * (`LEval-data/Open-ended-tasks/natural_question.jsonl`): real Google search questions, each asked of the full page
 * (5,000–27,000 words, tables and lists included) with NQ's short answer. Long articles, in HTML.
 *
 * A document is one page, as an HTML file: its title (the text before the page's `<H1>`, without " - wikipedia") as
 * `<title>`, and NQ's page markup as the body (NQ writes attributes into tag names, `<Th_colspan="2">`, which become
 * `<Th colspan="2">`; the text between tags is left as NQ tokenised it). A page the file holds twice is one document.
 * Gold: the short answer (answers), no evidence passage (L-Eval keeps none); an answer that spans list items is not
 * verbatim in the page and is dropped. Every question of the file is used (the set is small).
 */
import { distinct } from './gold';
import { assemble, fileNameOf, slug, type SetLoader } from './set-loader';
import { LEVAL, type LevalRow } from './leval';
import { readVerifiedJsonl } from './source';
import type { OutsideDocument, OutsideQuestion } from './types';

const FILE = 'LEval-data/Open-ended-tasks/natural_question.jsonl';

const loader: Omit<SetLoader, 'load'> = {
  name: 'nq-long',
  domain: 'long-articles',
  source: {
    ...LEVAL,
    files: [{ path: FILE, sha256: '0daf58b082041c3e384d8ef990981c9e9cb5de7c49e9219ab9f8c1edb2dea568' }],
    licence: 'repository GPL-3.0 (LICENSE); the data is Natural Questions (Google, CC BY-SA 3.0), Wikipedia text (CC BY-SA)',
    citation:
      'An et al. L-Eval: Instituting Standardized Evaluation for Long Context Language Models. ACL 2024; Kwiatkowski et al. Natural Questions: a Benchmark for Question Answering Research. TACL 2019.',
  },
};

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** The page's title and its body markup, NQ's `<Tag_attr="v">` written as `<Tag attr="v">`. */
export function splitNqPage(input: string): { title: string; body: string } {
  const at = input.indexOf('<H1>');
  const head = at >= 0 ? input.slice(0, at) : '';
  const title =
    head
      .replace(/\s+-\s+wikipedia\s*$/i, '')
      .replace(/\s+/g, ' ')
      .trim() || 'Untitled';
  const body = (at >= 0 ? input.slice(at) : input).replace(/<(\w+)_(\w+=)/g, '<$1 $2').trim();
  return { title, body };
}

export const nqLong: SetLoader = {
  ...loader,
  load(from) {
    const rows = readVerifiedJsonl<LevalRow>(from, loader.source, FILE);
    const documents = new Map<string, OutsideDocument>();
    const questions: OutsideQuestion[] = [];
    for (const row of rows) {
      const { title, body } = splitNqPage(row.input);
      const id = `nq-long-${slug(title)}`;
      if (!documents.has(id)) {
        const html = `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>${escapeHtml(title)}</title>\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
        documents.set(id, { id, fileName: fileNameOf(title, 'html'), text: html });
      }
      row.instructions.forEach((question, i) => {
        const seen = questions.some((q) => q.documentId === id && q.question === question.trim());
        if (seen) return;
        questions.push({
          id: `${id}-${questions.filter((q) => q.documentId === id).length + 1}`,
          question: question.trim(),
          answers: distinct([row.outputs[i] ?? '']),
          evidence: [],
          documentId: id,
          answerable: true,
        });
      });
    }
    return assemble(
      loader,
      [...documents.values()],
      questions,
      `every question of the file (${rows.length} rows, ${documents.size} distinct pages); a page given twice is one document and its repeated questions are asked once`,
    );
  },
};

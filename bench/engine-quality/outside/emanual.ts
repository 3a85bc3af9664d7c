/**
 * E-Manual QA (Nandy et al., EMNLP 2021 Findings): questions that annotators wrote about two Samsung e-manuals, the
 * Galaxy S10 phone and the Smart TV with its Smart Remote, each marked with the manual section that answers it.
 * Technical manuals / product documentation.
 *
 * A document is one manual (`data/*_manual_corpus.json`, the sections as the authors extracted them from the HTML
 * manual): its name as the `# ` heading, each section's title as `## ` and its text (the extracted fragments joined
 * with spaces, none before punctuation). The set gives no manual titles; they are named after the README's
 * description. Questions: the public ones, `data/s10_50_questions.csv`, `data/smart_tv_remote_50_questions.csv` and the
 * JSON files of `data/smart_remote_QA.zip` (normal, paraphrased, compound and yes/no questions; those files are not
 * valid JSON, so their "Section Hierarchy" and "Question" fields are read by pattern). Gold: the text of the section
 * the question's section path ends in (evidence); a question whose section title names no section, or several, is
 * left out and counted in the description. The written answers are not spans of the manual (the authors joined
 * fragments without spaces), so answers are []; the written answer is kept in `meta.answer` where the file gives one.
 */
import { capture, itemAt } from '@/lib/platform/arrays';
import { distinct, sampleByHash } from './gold';
import { parseCsv, unzip } from './formats';
import { assemble, fileNameOf, type SetLoader } from './set-loader';
import { readVerified, readVerifiedJson } from './source';
import type { OutsideDocument, OutsideQuestion } from './types';

const SAMPLE = 500;

interface Manual {
  key: 's10' | 'tv';
  title: string;
  corpus: string;
  csv: string;
}
const MANUALS: Manual[] = [
  { key: 's10', title: 'Samsung Galaxy S10 E-Manual', corpus: 'data/s10_manual_corpus.json', csv: 'data/s10_50_questions.csv' },
  {
    key: 'tv',
    title: 'Samsung Smart TV and Smart Remote E-Manual',
    corpus: 'data/smart_tv_remote_manual_corpus.json',
    csv: 'data/smart_tv_remote_50_questions.csv',
  },
];
const ZIP = 'data/smart_remote_QA.zip';

const loader: Omit<SetLoader, 'load'> = {
  name: 'emanual',
  domain: 'technical',
  source: {
    repository: 'https://github.com/abhi1nandy2/EMNLP-2021-Findings',
    commit: '2ea1edfdaf0f4fa09ed89f46d0ea1d46b136ff92',
    files: [
      { path: 'data/s10_manual_corpus.json', sha256: 'e234c085fc0f65b05e684eadd4df921d4db373386100ae49e95bd03c11a4abf3' },
      { path: 'data/smart_tv_remote_manual_corpus.json', sha256: '381b0143a4b39f7218e94a8a1dc571524f5808c497c8fdfea58ef8e6edae43d9' },
      { path: 'data/s10_50_questions.csv', sha256: '0d1bf8f724556b632d754bdc81b3af12b83598d61091c19d74bdbfb3c33b2911' },
      { path: 'data/smart_tv_remote_50_questions.csv', sha256: '0eb6df5f9a9f8d827979a895ac838f88ae2d50a9a6a2af069ea9146f75f732a4' },
      { path: ZIP, sha256: 'f11ab25533dbf293de927c1bd26c7e3f3d682082020877c091c600d0ba7b1502' },
    ],
    licence: "Apache-2.0 (LICENSE in the repository; the manual text itself is Samsung's)",
    citation:
      'Nandy, Sharma, Maddhashiya, Sachdeva, Goyal, Ganguly. Question Answering over Electronic Devices: A New Benchmark Dataset and a Multi-Task Learning based QA Framework. Findings of EMNLP 2021.',
  },
};

/** Extracted fragments as running text: one space between them, none before closing punctuation or after an opening bracket. */
export function joinFragments(fragments: readonly string[]): string {
  let text = '';
  for (const raw of fragments) {
    const f = raw.replace(/\s+/g, ' ').trim();
    if (!f) continue;
    text += !text || /^[,.;:!?)\]]/.test(f) || /[([]$/.test(text) ? f : ` ${f}`;
  }
  return text;
}

interface Section {
  title: string;
  body: string;
}

function readSections(raw: Record<string, { title: string; text: string[] }>): Section[] {
  return Object.values(raw).map((s) => {
    const title = s.title.replace(/\s+/g, ' ').trim();
    const fragments = s.text[0]?.trim() === title ? s.text.slice(1) : s.text;
    return { title, body: joinFragments(fragments) };
  });
}

interface RawQuestion {
  id: string;
  question: string;
  path: string;
  answer?: string;
  kind: string;
}

/** The zip's question files: `Section Hierarchy` and `Question` (and `Answer` when it parses) of each entry, by pattern. */
function zipQuestions(archive: Buffer): RawQuestion[] {
  const out: RawQuestion[] = [];
  for (const [name, bytes] of [...unzip(archive)].sort(([a], [b]) => a.localeCompare(b))) {
    if (!name.endsWith('.json')) continue;
    const kind = (name.split('/')[0] ?? '')
      .replace(/ Q&A$/, '')
      .toLowerCase()
      .replace(/[^a-z]+/g, '-');
    const stem = name
      .replace(/\.json$/, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .toLowerCase();
    const entries = bytes.toString('utf8').matchAll(/"Section Hierarchy":\s*"([^"]*)"[\s\S]*?"Question":\s*"([^"]*)"/g);
    let i = 0;
    for (const m of entries) out.push({ id: `tv-${stem}-${i++}`, path: capture(m, 1), question: capture(m, 2), kind });
  }
  return out;
}

export const emanual: SetLoader = {
  ...loader,
  load(from) {
    const documents: OutsideDocument[] = [];
    const candidates: OutsideQuestion[] = [];
    let unresolved = 0;
    let repeated = 0;
    for (const manual of MANUALS) {
      const sections = readSections(readVerifiedJson(from, loader.source, manual.corpus)).filter((s) => s.body);
      const id = `emanual-${manual.key}`;
      const text = [`# ${manual.title}`, ...sections.flatMap((s) => [`## ${s.title}`, s.body])].join('\n\n');
      documents.push({ id, fileName: fileNameOf(manual.title, 'md'), text: `${text}\n` });
      const byTitle = new Map<string, Section[]>();
      for (const s of sections) byTitle.set(s.title.toLowerCase(), [...(byTitle.get(s.title.toLowerCase()) ?? []), s]);
      const raw: RawQuestion[] = parseCsv(readVerified(from, loader.source, manual.csv).toString('utf8')).map((r) => ({
        id: `${manual.key}-${r.question_id}`,
        question: r.question ?? '',
        path: r.section_path ?? '',
        answer: r.answer,
        kind: 'sample',
      }));
      if (manual.key === 'tv') raw.push(...zipQuestions(readVerified(from, loader.source, ZIP)));
      const seen = new Set<string>();
      for (const q of raw) {
        const question = q.question.replace(/\s+/g, ' ').trim();
        if (!question || seen.has(question.toLowerCase())) {
          repeated++;
          continue;
        }
        seen.add(question.toLowerCase());
        const matches = byTitle.get(q.path.split('>').pop()!.replace(/\s+/g, ' ').trim().toLowerCase()) ?? [];
        if (matches.length !== 1) {
          unresolved++;
          continue;
        }
        candidates.push({
          id: `emanual-${q.id}`,
          question,
          answers: [],
          evidence: distinct([itemAt(matches, 0).body]),
          documentId: id,
          answerable: true,
          meta: { kind: q.kind, section: q.path, ...(q.answer ? { answer: q.answer } : {}) },
        });
      }
    }
    const chosen = sampleByHash(candidates, (q) => q.id, SAMPLE);
    return assemble(
      loader,
      documents,
      chosen,
      `${chosen.length} of the ${candidates.length} questions whose section path ends in exactly one section title, chosen by the SHA-256 of their id; ${unresolved} questions left out because their section title names no section or several, ${repeated} repeated questions left out`,
    );
  },
};

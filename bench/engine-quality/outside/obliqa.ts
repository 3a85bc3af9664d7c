/**
 * ObliQA (RegNLP): questions a compliance officer would ask of the Abu Dhabi Global Market's financial regulations,
 * written by GPT-4 from one or more passages of 40 rulebooks and guidance documents and kept where an NLI model found
 * the passage to entail them. Legal and regulatory text.
 *
 * A document is one rulebook or guidance document as the set structures it (`StructuredRegulatoryDocuments/N.json`):
 * its title from `scripts/DocumentMap.rtf` as the `# ` heading, then every passage in order, numbered as the document
 * numbers it; a short passage without closing punctuation is a heading (`## `). Only the documents of at most 25,000
 * words are kept (29 of 40, about a quarter of the set's 960,000 words) so that the set ingests in about a minute.
 * Questions: the test split, those whose passages all lie in kept documents; a question citing passages of two
 * documents is a set-level question (documentId null). Gold: the cited passages (evidence), no short spans.
 * Sample: 500 questions by the hash of their QuestionID.
 */
import { capture, itemAt } from '@/lib/platform/arrays';
import { distinct, sampleByHash, wordCount } from './gold';
import { assemble, fileNameOf, type SetLoader } from './set-loader';
import { readVerified, readVerifiedJson } from './source';
import type { OutsideDocument, OutsideQuestion } from './types';

const QUESTIONS = 'ObliQA_test.json';
const TITLES = 'scripts/DocumentMap.rtf';
const MAX_WORDS = 25_000;
const SAMPLE = 500;
const documentPath = (n: number) => `StructuredRegulatoryDocuments/${n}.json`;

const documentSha256: Record<number, string> = {
  1: '600f8190da91f502d26829f60f2d142b15479c049c6babbe9fb8ff51e6818f84',
  2: 'adecce23e3f85aa96308b151e3ea14cfa67f2e353accd7db0d2e3c889f420871',
  3: '51194b56d83532469bc28a0c811fab48d7b94d21232d89920060f9b7c85f8a38',
  4: '105f3558e5e44693e90c29106dbef8cdc009293f5709330d7e1a148292f8ef84',
  5: '93efe418f6696cd41b10b3460d27b20bc209c0852baf3e7fdc3dc7a92d0a41ca',
  6: '799e4ec944e32e9a1dba4f1bbb7b06d49ed50afafe664e30af6af529621a8741',
  7: 'af0ce061eae8dc387df5a71b10a9f50c7da0638745e2412afb548fdb5ff635d7',
  8: '9bbb72468818745c77a404c0184de0bf675c405f8d1e3b7ad801b94892f26915',
  9: '353ba3fbd75a03b4cd24b6b1c18046c295d066de0816405d6403773259837f3a',
  10: 'ad792dfa82da4bc4cf366a2eea6671118a3839c22557b2347d56fa9344d6b9a9',
  11: 'aba7d7915246e355069e4dae6818476550b63a5a6278fde2c66aaaaf8f524b24',
  12: '33d9d01a4e8549e5a99592320b01f69164ba0f1bb27202d47434d7e2257d1e4d',
  13: 'a5a3e306e8bba911ad40333ff226390d7429a9300c2e78d939ebec5ed8c8b5ae',
  14: '0332677d1666f5766aa3a384fc75f69ce76399f6907ec32ebdbdc482baa9df9c',
  15: '384308d3f22728b036ac3820d15d6d5435c3e2723f0264a68b7af96e51b0cab3',
  16: '2b604a992614c4dc514d042a0cecb800394055012eb8673a929fa9b9ad8b5822',
  17: '42c25dc797cc0af94bd524f43935c1a2e4c4d61b4dc3e8c91a29a560825bf8ba',
  18: 'fe531956a2c54daede351970ed06a07f40fdb57addcf29291cbc5c37eb11acaa',
  19: '6bd9d54e560a13dfedd512a5735c83f019f1a74dfac99fbbe2931293ff25765a',
  20: 'd4ad2490cd9a6f30c5436039970e210401b1df3f4973ddadd8cb0e606c57ebf4',
  21: '1f159075825ae48b49565745e7ec5984c3440755096954f2fdd19c0854749a3e',
  22: 'e54e631e969558b23e07c12decb28969db6330515c7b8a49b3f4ef25dd98965f',
  23: '9dbac9c90d851a4412cbb344279123458d1172b3ba36a0766bfda7799395fee1',
  24: 'b20e2842b26180346878337aea42e928d509d00e2d5f6b1f1f8197cf94d61145',
  25: '2ac4aef504f63c656daf004ffc0733ebdfbe9714e1fd420ddb2a130687d81ac4',
  26: 'a2d332015d1ca2cd773ebab26e468b80af5b03d138256d9fef743cfa32a4a199',
  27: 'eef31dffc96ccba5e887f45f6c2ab3f09409556e4014a2c79bfc333c5023907e',
  28: '014dced13efee200fc00d2e758a50026d2c183e1e1206926094a0246bf426f3a',
  29: '42a539ac5b454a4407286ac782b3843ca07a33629d5891ee4cdf8318dc6721e4',
  30: '8e32b1fe09bc9b03e50b373e27d3e806a85320e4f096b64dce47cfcb2b4d1edc',
  31: 'f6e579b67f24311bcba718f5037cc9b33195a57d3e2c107d99ce2d052a7e4ed0',
  32: '0b9982143c161a9920930b1219f7a81460cf5aecd48adc3906ac41333add1305',
  33: 'b11e42c8d078cc7ff700f6c0bf1769b157d073e587a777e42c428a0f13d087b9',
  34: '8a672589a0f7ff63c8cdd7a4b88c3ee924d70cb79971adb1faf959edaa481451',
  35: '64fa452c52dc71e3277a98b16e83f9fb0090527a07e231dc9f39f4d77689bf35',
  36: 'ace7f74a5e7aae416c1ff0149c6ffd70675d52177bf812593f38e8cda01603ea',
  37: '50b19b3526c96735149ac3c1be39aa7bdcd1b62c9284b84176e9c778b92ef965',
  38: '7bd721fcc710ba97700c3dc18993747850a5bd4dcb368469e6cdbf9262ca6f29',
  39: 'cb4f83e19b834af07b2948d266ad26d599d40bb834a9ddce46d7a80055814847',
  40: '2cd0ee9c2b30815c09b8ad9929eb4b5676e6bf144c485d57f78214cf1b7a192f',
};

interface Passage {
  DocumentID: number;
  PassageID: string;
  Passage: string;
}
interface Question {
  QuestionID: string;
  Question: string;
  Passages: Passage[];
  Group: number;
}

const loader: Omit<SetLoader, 'load'> = {
  name: 'obliqa',
  domain: 'legal',
  source: {
    repository: 'https://github.com/RegNLP/ObliQADataset',
    commit: 'c1b2c3c04aee1f6ce75f76106ce13af672d48e02',
    files: [
      { path: QUESTIONS, sha256: 'cdca623b02f248ca736c2c2d98e9b6bebe4a82708f7984ef8f80f9fcd797e1b1' },
      { path: TITLES, sha256: 'e0ded4b23b65af6e7252c6c8cfbd627f90ae0bbd561a75b0442f39cb3532427c' },
      ...Object.entries(documentSha256).map(([n, sha256]) => ({ path: documentPath(Number(n)), sha256 })),
    ],
    licence:
      'none stated: the repository has no LICENSE file and its README names no licence (published for the RIRAG shared task; the texts are ADGM regulations, public on its website)',
    citation: 'Gokhan, Wang, Gurevych, Briscoe. RIRAG: Regulatory Information Retrieval and Answer Generation. arXiv:2409.05677, 2024.',
  },
};

/** Each document's title: the longest name DocumentMap.rtf lists for it after its file stem (RTF escapes decoded). */
export function parseDocumentTitles(rtf: string): Map<number, string> {
  const cp1252: Record<string, string> = { '91': '\u2018', '92': '\u2019', '93': '\u201c', '94': '\u201d', '96': '\u2013', '97': '\u2014' };
  const text = rtf.replace(/\\'([0-9a-f]{2})/gi, (_, hex: string) => cp1252[hex.toLowerCase()] ?? String.fromCharCode(parseInt(hex, 16)));
  const titles = new Map<number, string>();
  for (const match of text.matchAll(/(\d+):\s*\[\\?\s*([^\]]*)\]/g)) {
    const names = [...capture(match, 2).matchAll(/"([^"]*)"/g)].map((m) => capture(m, 1).trim()).slice(1);
    if (names.length)
      titles.set(
        Number(match[1]),
        names.reduce((a, b) => (b.length > a.length ? b : a)),
      );
  }
  return titles;
}

const isHeading = (text: string) => text.length <= 100 && !/[.:;,?)]$/.test(text) && !text.includes('\n');

function toDocument(n: number, title: string, passages: Passage[]): OutsideDocument {
  const parts = [`# ${title}`];
  for (const p of passages) {
    const text = p.Passage.trim();
    if (!text) continue;
    const number = p.PassageID.trim();
    parts.push(isHeading(text) ? `## ${number} ${text}` : `${number} ${text}`);
  }
  return { id: `obliqa-${n}`, fileName: fileNameOf(title, 'md'), text: `${parts.join('\n\n')}\n` };
}

export const obliqa: SetLoader = {
  ...loader,
  load(from) {
    const titles = parseDocumentTitles(readVerified(from, loader.source, TITLES).toString('utf8'));
    const documents: OutsideDocument[] = [];
    for (const n of Object.keys(documentSha256).map(Number)) {
      const passages = readVerifiedJson<Passage[]>(from, loader.source, documentPath(n));
      if (passages.reduce((sum, p) => sum + wordCount(p.Passage), 0) > MAX_WORDS) continue;
      const title = titles.get(n);
      if (!title) throw new Error(`${TITLES} names no title for document ${n}.`);
      documents.push(toDocument(n, title, passages));
    }
    const kept = new Set(documents.map((d) => d.id));
    const questions = readVerifiedJson<Question[]>(from, loader.source, QUESTIONS);
    const candidates: OutsideQuestion[] = [];
    for (const q of questions) {
      const cited = distinct(q.Passages.map((p) => `obliqa-${p.DocumentID}`));
      if (!cited.every((id) => kept.has(id))) continue;
      candidates.push({
        id: `obliqa-${q.QuestionID}`,
        question: q.Question.trim(),
        answers: [],
        evidence: distinct(q.Passages.map((p) => p.Passage)),
        documentId: cited.length === 1 ? itemAt(cited, 0) : null,
        answerable: true,
        meta: { group: String(q.Group), passages: q.Passages.map((p) => `${p.DocumentID}:${p.PassageID}`).join(' ') },
      });
    }
    const chosen = sampleByHash(candidates, (q) => q.id, SAMPLE);
    return assemble(
      loader,
      documents,
      chosen,
      `the ${documents.length} documents of at most ${MAX_WORDS} words; ${SAMPLE} of the ${candidates.length} test-split questions citing only them, chosen by the SHA-256 of their id`,
    );
  },
};

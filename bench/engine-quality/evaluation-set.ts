import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { OFF_TOPIC_QUESTIONS, type OffTopicQuestion } from '@/lib/engine/off-topic-questions';

/** The labelled evaluation questions (hosted-kbs.md), shared by run.ts and the citation-verification test. */
export interface EvalQuestion {
  id: string;
  kb: string;
  question: string;
  gold_document: string;
  gold_page: number | null;
  gold_fact: string;
}

export const QUESTIONS_DIR = path.join(process.cwd(), 'bench', 'engine-quality', 'questions');

/** The hand-written off-topic list (lib/engine/off-topic-questions.ts): questions no seeded knowledge base answers. */
export function loadOffTopicSet(): OffTopicQuestion[] {
  return [...OFF_TOPIC_QUESTIONS];
}

/**
 * The held-out part, never looked at while tuning: evaluation questions whose number is a multiple of four
 * (`…-04`, `…-08`, …) and off-topic questions numbered 3 (`ot-…-3`). Fixed before any tuning, by id alone.
 */
export function isHeldOut(id: string): boolean {
  if (id.startsWith('ot-')) return id.endsWith('-3');
  const n = Number(/(\d+)$/.exec(id)?.[1] ?? NaN);
  return Number.isInteger(n) && n % 4 === 0;
}

/**
 * Questions written blind (ids `<kb>-b01`…) after the second round of issue 14 by an engineer who saw neither the engine nor its
 * answers, from the documents of the twelve original knowledge bases: never tuned on, the plainest measure of
 * how the engine generalises.
 */
export const BLIND_QUESTIONS_DIR = path.join(process.cwd(), 'bench', 'engine-quality', 'questions-blind');

function loadDirectory(dir: string): EvalQuestion[] {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  return files.flatMap((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as EvalQuestion[]);
}

/** Every evaluation question: the labelled set and the blind set. */
export function loadEvaluationSet(dirs = [QUESTIONS_DIR, BLIND_QUESTIONS_DIR]): EvalQuestion[] {
  return dirs.flatMap(loadDirectory);
}

export function isBlindQuestion(id: string): boolean {
  return /-b\d+$/.test(id);
}

/** The source name a gold document is ingested under (`x.pdf.txt` sources become the PDF `x.pdf`). */
export function goldSourceName(goldDocument: string): string {
  return goldDocument.endsWith('.pdf.txt') ? goldDocument.slice(0, -'.txt'.length) : goldDocument;
}

/** Case, whitespace and Markdown emphasis do not matter when looking for the gold fact in an answer. */
export function normaliseForFact(text: string): string {
  return text.replace(/[*_`]/g, '').replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, ' ').toLowerCase().trim();
}

export function containsFact(text: string, fact: string): boolean {
  return normaliseForFact(text).includes(normaliseForFact(fact));
}

const contentWords = (text: string) => new Set(normaliseForFact(text).match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/** A statement answers when it holds a gold span or, for sets that give gold sentences, mostly repeats one. */
export function answers(text: string, ask: { answers: readonly string[]; evidence: readonly string[] }): boolean {
  if (ask.answers.length) return ask.answers.some((a) => containsFact(text, a));
  const words = contentWords(text);
  if (words.size < 3) return false;
  return ask.evidence.some((e) => {
    if (containsFact(e, text) || containsFact(text, e)) return true;
    const gold = contentWords(e);
    let shared = 0;
    for (const w of words) if (gold.has(w)) shared++;
    return shared / words.size >= 0.7 && shared >= Math.min(4, gold.size);
  });
}

/** The twelve knowledge bases of the original evaluation set; questions of any other were added for issue 14. */
const ORIGINAL_KBS = new Set([
  'algebra-foundations',
  'childhood-immunization-handbook',
  'climate-policy-briefings',
  'employment-law-basics',
  'gdpr-practitioner-guide',
  'hypertension-care-guidelines',
  'nutrition-science-digest',
  'research-data-management',
  'research-methods-primer',
  'urban-housing-policy',
  'us-constitution-companion',
  'world-history-essentials',
]);

/**
 * Questions written from the documents added for issue 14 (one per sample question of the 53 knowledge bases that
 * held only an "About" page). They were written after the sentence ranker was fitted and are reported apart: they
 * are easier than the original set (written together with their documents).
 */
export function isAddedQuestion(id: string): boolean {
  return ![...ORIGINAL_KBS].some((kb) => id.startsWith(`${kb}-`));
}

/** The part of the evaluation set a question belongs to (one source for run.ts, replay.ts and train-ranker.ts). */
export type EvaluationPart = 'tune' | 'holdout' | 'added' | 'blind';
export function partOf(id: string): EvaluationPart {
  if (isBlindQuestion(id)) return 'blind';
  if (isAddedQuestion(id)) return 'added';
  return isHeldOut(id) ? 'holdout' : 'tune';
}

/** Answer-level outcomes of one part of the set (all, tuning, held out, added, blind). */
export interface AnswerMetrics {
  n: number;
  answered: number;
  factFirst: number;
  factAnywhere: number;
  wrong: number;
  withFiller: number;
  citations: number;
  fillerCitations: number;
}
export const emptyAnswerMetrics = (): AnswerMetrics => ({
  n: 0,
  answered: 0,
  factFirst: 0,
  factAnywhere: 0,
  wrong: 0,
  withFiller: 0,
  citations: 0,
  fillerCitations: 0,
});

export type AnswerParts = Record<'all' | EvaluationPart, AnswerMetrics>;
export const emptyAnswerParts = (): AnswerParts => ({
  all: emptyAnswerMetrics(),
  tune: emptyAnswerMetrics(),
  holdout: emptyAnswerMetrics(),
  added: emptyAnswerMetrics(),
  blind: emptyAnswerMetrics(),
});

const percent = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);

/** The answer metrics per part as the Markdown table of the README (run.ts and replay.ts print the same one). */
export function printAnswerTable(parts: AnswerParts): void {
  const row = (label: string, key: keyof AnswerMetrics, of: keyof AnswerMetrics) =>
    console.log(`| ${label} | ${(['all', 'tune', 'holdout', 'blind', 'added'] as const).map((p) => percent(parts[p][key], parts[p][of])).join(' | ')} |`);
  console.log('| metric | all | original set: tuning part | original set: held out | blind (original knowledge bases) | added |');
  console.log('|---|---|---|---|---|---|');
  console.log(`| questions | ${parts.all.n} | ${parts.tune.n} | ${parts.holdout.n} | ${parts.blind.n} | ${parts.added.n} |`);
  row('gold fact in the FIRST sentence (of answerable questions)', 'factFirst', 'n');
  row('gold fact anywhere in the answer', 'factAnywhere', 'n');
  row('answered (at least one citation)', 'answered', 'n');
  row('wrong: answered, gold fact in none of its sentences (of answered)', 'wrong', 'answered');
  row('answers citing a filler document (of answered)', 'withFiller', 'answered');
  row('filler citations (of all citations)', 'fillerCitations', 'citations');
}

/** The statements of an extractive answer: the text before each citation marker. */
export function answerUnits(answer: string): string[] {
  return answer
    .split(/\s*\[\d+(?:,\s*\d+)*\]/)
    .map((u) => u.trim())
    .filter(Boolean);
}

/** How one answer fares against its gold fact: answered at all, the fact first or anywhere, and filler citations. */
export interface AnswerOutcome {
  answered: boolean;
  factFirst: boolean;
  factAnywhere: boolean;
  citations: number;
  /** Titles of the cited documents other than the gold one whose excerpt lacks the fact. */
  fillers: string[];
}

export function answerOutcome(
  answer: { answer: string; citations: Array<{ document_id: string; title: string; excerpt: string }> },
  fact: string,
  goldDocument: string | null,
): AnswerOutcome {
  const units = answerUnits(answer.answer);
  const answered = answer.citations.length > 0;
  return {
    answered,
    factFirst: answered && units[0] !== undefined && containsFact(units[0], fact),
    factAnywhere: answered && containsFact(answer.answer, fact),
    citations: answer.citations.length,
    fillers: answer.citations.filter((c) => c.document_id !== goldDocument && !containsFact(c.excerpt, fact)).map((c) => c.title),
  };
}

export function countOutcome(m: AnswerMetrics, o: AnswerOutcome): void {
  m.n++;
  if (!o.answered) return;
  m.answered++;
  if (o.factFirst) m.factFirst++;
  if (o.factAnywhere) m.factAnywhere++;
  else m.wrong++;
  if (o.fillers.length > 0) m.withFiller++;
  m.citations += o.citations;
  m.fillerCitations += o.fillers.length;
}

export const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);

/** A Markdown table of named columns (one tally each) and rows (one figure per tally), as the outside sets print. */
export function columnTable<T>(title: string, columns: Map<string, T>, rows: Array<[string, (t: T) => string]>): string[] {
  const names = [...columns.keys()];
  return [
    `| ${title} | ${names.join(' | ')} |`,
    `|---|${names.map(() => '---|').join('')}`,
    ...rows.map(([name, figure]) => `| ${name} | ${names.map((c) => figure(columns.get(c)!)).join(' | ')} |`),
  ];
}

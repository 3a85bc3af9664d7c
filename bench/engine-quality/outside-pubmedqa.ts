/**
 * The engine on text nobody here wrote: PubMedQA's 1,000 expert-labelled questions asked of their 1,000 abstracts
 * (pubmedqa.ts), extractively, in both document forms. Prints retrieval (the gold abstract cited first / at all,
 * another abstract cited too) and where each answer's FIRST statement comes from in its abstract: the conclusion or
 * the results (an answer), the methods, or the background and aim (issue 14's "restates the study's aim"). The
 * questions are often the article's title put as a question, so a background sentence shares many of their words.
 * Then the 75 off-topic questions of lib/engine/off-topic-questions.ts are asked of the same knowledge base: a thousand abstracts share
 * words with them by chance (a place name, "proof", "replaced"), and each should still be refused.
 *
 *   npx tsx bench/engine-quality/outside-pubmedqa.ts path/to/ori_pqal.json [--verbose N] [--limit N]
 *
 * Figures are given for the held-out part (800) and the tuning part (200) apart.
 */
import { openPglite } from '@/db/client';
import { prepareDatabase } from '@/lib/platform/db';
import { answerHostedQuery } from '@/lib/engine';
import { columnTable, loadOffTopicSet, pct } from './evaluation-set';
import { answersQuestion, ingestPubMedQa, isPubMedQaTuning, loadPubMedQa, partOfAbstract, type AbstractPart, type PubMedQaForm } from './pubmedqa';

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && !['--verbose', '--limit'].includes(args[i - 1] ?? ''));
if (!file) {
  console.error('usage: outside-pubmedqa.ts path/to/ori_pqal.json [--verbose N] [--limit N]');
  process.exit(2);
}
const option = (name: string) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : 0);
const verboseCount = option('--verbose');
const limit = option('--limit');

const PARTS: AbstractPart[] = ['conclusion', 'results', 'methods', 'background/aim', 'elsewhere'];

interface Tally {
  n: number;
  answered: number;
  goldFirst: number;
  otherCited: number;
  answering: number;
  parts: Map<AbstractPart, number>;
}
const emptyTally = (): Tally => ({ n: 0, answered: 0, goldFirst: 0, otherCited: 0, answering: 0, parts: new Map() });

async function main() {
  let items = loadPubMedQa(file!);
  if (limit) items = items.slice(0, limit);
  const handle = await openPglite();
  try {
    await prepareDatabase(handle, {});
    const db = handle.db;
    const rows: string[] = [];
    const shown: string[] = [];
    const tallies = new Map<string, Tally>();
    const offTopic = loadOffTopicSet();
    const refused = new Map<PubMedQaForm, number>();
    for (const form of ['sections', 'plain'] as PubMedQaForm[]) {
      const { kbId, pmidOf } = await ingestPubMedQa(db, items, form);
      for (const q of offTopic) {
        const answer = await answerHostedQuery({ kbId, query: q.question, requestId: 'outside' }, db, { llm: null, embeddings: null });
        if (answer.citations.length === 0) refused.set(form, (refused.get(form) ?? 0) + 1);
        else if (verboseCount) shown.push(`${form} off-topic answered: ${q.question}\n    A: ${answer.answer.slice(0, 200)}`);
      }
      for (const item of items) {
        const answer = await answerHostedQuery({ kbId, query: item.QUESTION, requestId: 'outside' }, db, { llm: null, embeddings: null });
        const column = `${form}/${isPubMedQaTuning(item) ? 'tune' : 'held out'}`;
        const t = tallies.get(column) ?? emptyTally();
        tallies.set(column, t);
        t.n++;
        if (answer.citations.length === 0) continue;
        t.answered++;
        const cited = answer.citations.map((c) => pmidOf.get(c.document_id));
        if (cited[0] === item.pmid) t.goldFirst++;
        if (cited.some((c) => c !== item.pmid)) t.otherCited++;
        const part = cited[0] === item.pmid ? partOfAbstract(answer.answer.split(/\s*\[1\]/)[0] ?? '', item) : 'elsewhere';
        t.parts.set(part, (t.parts.get(part) ?? 0) + 1);
        if (answersQuestion(part)) t.answering++;
        if (shown.length < verboseCount && isPubMedQaTuning(item) && !answersQuestion(part)) {
          shown.push(`${form} ${item.pmid} [${part}] Q: ${item.QUESTION}\n    A: ${answer.answer.slice(0, 300)}\n    C: ${item.LONG_ANSWER.slice(0, 200)}`);
        }
      }
    }
    rows.push(
      ...columnTable(`PubMedQA (${items.length} questions and abstracts)`, tallies, [
        ['questions', (t) => String(t.n)],
        ['answered (at least one citation)', (t) => pct(t.answered, t.n)],
        ['gold abstract cited first', (t) => pct(t.goldFirst, t.n)],
        ['answers citing another abstract too (of answered)', (t) => pct(t.otherCited, t.answered)],
        ['**first statement answers** (from the results or the conclusion; of answered)', (t) => `**${pct(t.answering, t.answered)}**`],
        ...PARTS.map((part): [string, (t: Tally) => string] => [
          `first statement from ${part === 'elsewhere' ? 'another abstract, or not found' : `the ${part}`}`,
          (t) => pct(t.parts.get(part) ?? 0, t.answered),
        ]),
      ]),
    );
    rows.push(
      '',
      `off-topic questions refused (${offTopic.length}, 5 domains, 4 languages): sections ${pct(refused.get('sections') ?? 0, offTopic.length)}, plain ${pct(refused.get('plain') ?? 0, offTopic.length)}`,
    );
    if (shown.length) console.log(`${shown.join('\n')}\n`);
    console.log(rows.join('\n'));
  } finally {
    await handle.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

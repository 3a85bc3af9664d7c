/**
 * The engine on factoid questions nobody here wrote: SQuAD's questions (squad.ts) asked, extractively, of one
 * knowledge base holding all their Wikipedia articles. Prints whether the asked article is cited first, whether the
 * answer's FIRST statement holds a marked answer (the figure issue 14 sets at 90% for our own set), whether any of its
 * statements does, and how often a second article is cited too. Then the 75 off-topic questions of lib/engine/off-topic-questions.ts
 * are asked of the same knowledge base, and each should be refused.
 *
 *   npx tsx bench/engine-quality/outside-squad.ts path/to/dev-v1.1.json [--verbose N] [--limit N]
 *
 * Figures are given for the tuning part (every fifth question) and the held-out part apart; --verbose shows tuning
 * misses only.
 */
import { openPglite } from '@/db/client';
import { prepareDatabase } from '@/lib/platform/db';
import { answerHostedQuery } from '@/lib/engine';
import { columnTable, loadOffTopicSet, pct } from './evaluation-set';
import { answersSquad, ingestSquad, isSquadTuning, loadSquad } from './squad';

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && !['--verbose', '--limit'].includes(args[i - 1] ?? ''));
if (!file) {
  console.error('usage: outside-squad.ts path/to/dev-v1.1.json [--verbose N] [--limit N]');
  process.exit(2);
}
const option = (name: string) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : 0);
const verboseCount = option('--verbose');
const limit = option('--limit');

interface Tally {
  n: number;
  answered: number;
  articleFirst: number;
  otherCited: number;
  first: number;
  anywhere: number;
}
const emptyTally = (): Tally => ({ n: 0, answered: 0, articleFirst: 0, otherCited: 0, first: 0, anywhere: 0 });

async function main() {
  const set = loadSquad(file!);
  const items = limit ? set.items.slice(0, limit) : set.items;
  const handle = await openPglite();
  try {
    await prepareDatabase(handle, {});
    const { kbId, articleOf } = await ingestSquad(handle.db, set);
    const ask = (query: string) => answerHostedQuery({ kbId, query, requestId: 'outside' }, handle.db, { llm: null, embeddings: null });
    const shown: string[] = [];
    const tallies = new Map([
      ['tune', emptyTally()],
      ['held out', emptyTally()],
    ]);
    for (const item of items) {
      const answer = await ask(item.question);
      const t = tallies.get(isSquadTuning(item) ? 'tune' : 'held out')!;
      t.n++;
      if (answer.citations.length === 0) continue;
      t.answered++;
      const cited = answer.citations.map((c) => articleOf.get(c.document_id));
      if (cited[0] === item.article) t.articleFirst++;
      if (cited.some((c) => c !== item.article)) t.otherCited++;
      const firstStatement = answer.answer.split(/\s*\[1\]/)[0] ?? '';
      const first = answersSquad(firstStatement, item);
      if (first) t.first++;
      if (answersSquad(answer.answer, item)) t.anywhere++;
      if (!first && shown.length < verboseCount && isSquadTuning(item)) {
        shown.push(`${item.article} Q: ${item.question}\n    gold: ${item.answers.join(' | ')}\n    A: ${answer.answer.slice(0, 300)}`);
      }
    }
    let refused = 0;
    const offTopic = loadOffTopicSet();
    for (const q of offTopic) {
      const answer = await ask(q.question);
      if (answer.citations.length === 0) refused++;
      else if (verboseCount) shown.push(`off-topic answered: ${q.question}\n    A: ${answer.answer.slice(0, 200)}`);
    }
    const rows = columnTable(`SQuAD (${items.length} questions, ${set.articles.length} articles)`, tallies, [
      ['questions', (t) => String(t.n)],
      ['answered (at least one citation)', (t) => pct(t.answered, t.n)],
      ['asked article cited first', (t) => pct(t.articleFirst, t.n)],
      ['answers citing another article too (of answered)', (t) => pct(t.otherCited, t.answered)],
      ['**first statement holds the answer** (of answered)', (t) => `**${pct(t.first, t.answered)}**`],
      ['any statement holds the answer (of answered)', (t) => pct(t.anywhere, t.answered)],
    ]);
    rows.push('', `off-topic questions refused (${offTopic.length}, 5 domains, 4 languages): ${pct(refused, offTopic.length)}`);
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

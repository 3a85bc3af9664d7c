/**
 * For the TUNING questions whose answer does not open with the gold fact: the top candidate statements with their
 * scores, and the rank of the first candidate holding the gold fact. A tool for tuning answer selection; held-out
 * questions are never shown.
 *
 *   npx tsx bench/engine-quality/diagnose.ts [question-id…]
 */
import { answerHostedQuery, searchChunks } from '@/lib/engine';
import { lexemesOf } from '@/lib/engine/retrieval';
import { analyseQuestion, mapLexicon } from '@/lib/engine/question';
import { rankSentences, PASSAGES_READ } from '@/lib/engine/sentence-ranker';
import { tokenize } from '@/lib/engine/text';
import { containsFact, isAddedQuestion, isHeldOut, loadEvaluationSet } from './evaluation-set';
import { openSeededMarketplace } from './snapshot';

const only = new Set(process.argv.slice(2));
const { handle, db, kbId } = await openSeededMarketplace();
for (const question of loadEvaluationSet()) {
  if (isHeldOut(question.id) || isAddedQuestion(question.id) || (only.size && !only.has(question.id))) continue;
  const kb = kbId.get(question.kb);
  if (!kb) continue;
  const answer = await answerHostedQuery({ kbId: kb, query: question.question, requestId: 'diagnose' }, db, { llm: null });
  const first = answer.answer.split(/\s*\[\d+(?:,\s*\d+)*\]/)[0] ?? '';
  if (!only.size && containsFact(first, question.gold_fact)) continue;
  const r = await searchChunks(db, kb, question.question, { limit: PASSAGES_READ });
  const map = await lexemesOf(
    db,
    r.config,
    r.chunks.flatMap((c) => tokenize(`${c.heading ?? ''} ${c.content}`)),
  );
  const q = analyseQuestion(question.question, r.terms, mapLexicon(map, r.terms));
  const ranked = rankSentences(q, r.chunks);
  const goldRank = ranked.findIndex((c) => containsFact(c.text, question.gold_fact) || containsFact(`${c.context ?? ''} ${c.text}`, question.gold_fact));
  console.log(
    `\n${question.id} [type ${q.type}] gold "${question.gold_fact}" at rank ${goldRank}${goldRank < 0 ? (r.chunks.some((c) => containsFact(c.content, question.gold_fact)) ? ' (in passages, not a candidate)' : ' (not in passages)') : ''}`,
  );
  console.log(`  Q: ${question.question}`);
  console.log(`  weights: ${[...q.weights].map(([w, x]) => `${w}=${x.toFixed(2)}`).join(' ')}`);
  ranked
    .slice(0, 4)
    .forEach((c, i) =>
      console.log(`  ${i}. ${c.score.toFixed(3)} p${c.passage} ${c.context ? `<${c.context}> ` : ''}${c.text.replace(/\n+/g, ' / ').slice(0, 170)}`),
    );
  const gold = ranked[goldRank];
  if (gold && goldRank >= 4) console.log(`  ${goldRank}. ${gold.score.toFixed(3)} p${gold.passage} ${gold.text.replace(/\n+/g, ' / ').slice(0, 170)}`);
}
await handle.close();

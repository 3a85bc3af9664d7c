/**
 * The relevance gate's evidence (lib/engine/relevance-gate.ts passageEvidence) for the TUNING part of the evaluation
 * set and of the off-topic set, so that MIN_COVERAGE, MIN_SENTENCE_COVERAGE and the rule for questions mostly unknown
 * to the knowledge base (ABSENT_SHARE, MIN_SCATTERED_SENTENCE_COVERAGE) are chosen from the two distributions. The
 * grids judge the best of the top three passages alone; replay.ts gives the figures of the whole answer path.
 * Held-out questions are never read here.
 *
 *   npx tsx bench/engine-quality/calibrate-gate.ts [--outside path/to/ori_pqal.json] [--squad path/to/dev-v1.1.json]
 *
 * --outside adds PubMedQA's tuning part (pubmedqa.ts) in both document forms as on-topic questions, and the off-topic
 * tuning questions asked of those two knowledge bases of a thousand abstracts each (where chance matches abound).
 * --squad path/to/dev-v1.1.json does the same with SQuAD's tuning part (squad.ts) and its one broad knowledge base of
 * Wikipedia articles.
 */
import { sql } from 'drizzle-orm';
import { openPglite } from '@/db/client';
import { prepareDatabase } from '@/lib/platform/db';
import { seedMarketplace } from '@/lib/seed';
import { searchChunks } from '@/lib/engine';
import { lexemesOf } from '@/lib/engine/lexemes';
import { analyseQuestion, mapLexicon } from '@/lib/engine/question';
import {
  absentShare,
  passageEvidence,
  ABSENT_SHARE,
  MIN_COVERAGE,
  MIN_SCATTERED_SENTENCE_COVERAGE,
  MIN_SENTENCE_COVERAGE,
  type PassageEvidence,
} from '@/lib/engine/relevance-gate';
import { tokenize } from '@/lib/engine/text';
import { isAddedQuestion, isHeldOut, loadEvaluationSet, loadOffTopicSet } from './evaluation-set';
import { ingestPubMedQa, isPubMedQaTuning, loadPubMedQa } from './pubmedqa';
import { ingestSquad, isSquadTuning, loadSquad } from './squad';

const handle = await openPglite();
await prepareDatabase(handle, { seed: seedMarketplace });
const db = handle.db;
const kbs = (await db.execute(sql`select distinct k.id, k.slug from knowledge_bases k join chunks c on c.kb_id = k.id`)).rows as Array<{
  id: string;
  slug: string;
}>;
const kbId = new Map(kbs.map((k) => [k.slug, k.id]));

/** The best of the top three passages' evidence, and the share of the question's weight absent from the knowledge base. */
type Evidence = PassageEvidence & { n: number; absent: number };

async function evidence(kb: string, question: string): Promise<Evidence> {
  const r = await searchChunks(db, kb, question, { limit: 5 });
  const map = await lexemesOf(
    db,
    r.config,
    r.chunks.flatMap((c) => tokenize(`${c.heading ?? ''} ${c.content}`)),
  );
  const q = analyseQuestion(question, r.terms, mapLexicon(map, r.terms));
  let best: PassageEvidence = { coverage: 0, words: 0, topical: 0, sentenceCoverage: 0, phrase: false, generalSentenceCoverage: 0, sentenceWords: 0 };
  for (const p of r.chunks.slice(0, 3)) {
    const e = passageEvidence(q, p);
    if (e.coverage + e.sentenceCoverage > best.coverage + best.sentenceCoverage) best = e;
  }
  return { ...best, n: q.weights.size, absent: absentShare(q) };
}

const fmt = (e: Evidence) =>
  `cov ${e.coverage.toFixed(2)} sent ${e.sentenceCoverage.toFixed(2)} words ${e.words}/${e.n} absent ${e.absent.toFixed(2)}${e.phrase ? ' phrase' : ''}`;
const on: Array<{ id: string; e: Evidence; q: string }> = [];
for (const q of loadEvaluationSet().filter((x) => !isHeldOut(x.id) && !isAddedQuestion(x.id))) {
  const kb = kbId.get(q.kb);
  if (kb) on.push({ id: q.id, e: await evidence(kb, q.question), q: q.question });
}
const off: Array<{ id: string; e: Evidence; q: string }> = [];
for (const q of loadOffTopicSet().filter((x) => !isHeldOut(x.id))) {
  for (const { id, slug } of kbs) {
    const e = await evidence(id, q.question);
    if (e.words > 0) off.push({ id: `${q.id}@${slug}`, e, q: q.question });
  }
}
const outsideFile = process.argv.includes('--outside') ? process.argv[process.argv.indexOf('--outside') + 1] : null;
if (outsideFile) {
  const items = loadPubMedQa(outsideFile);
  for (const form of ['sections', 'plain'] as const) {
    const { kbId: outsideKb } = await ingestPubMedQa(db, items, form);
    for (const item of items.filter(isPubMedQaTuning))
      on.push({ id: `pubmedqa-${form}-${item.pmid}`, e: await evidence(outsideKb, item.QUESTION), q: item.QUESTION });
    for (const q of loadOffTopicSet().filter((x) => !isHeldOut(x.id))) {
      const e = await evidence(outsideKb, q.question);
      if (e.words > 0) off.push({ id: `${q.id}@pubmedqa-${form}`, e, q: q.question });
    }
  }
}
const squadFile = process.argv.includes('--squad') ? process.argv[process.argv.indexOf('--squad') + 1] : null;
if (squadFile) {
  const set = loadSquad(squadFile);
  const { kbId: squadKb } = await ingestSquad(db, set);
  for (const item of set.items.filter(isSquadTuning)) on.push({ id: `squad-${item.index}`, e: await evidence(squadKb, item.question), q: item.question });
  for (const q of loadOffTopicSet().filter((x) => !isHeldOut(x.id))) {
    const e = await evidence(squadKb, q.question);
    if (e.words > 0) off.push({ id: `${q.id}@squad`, e, q: q.question });
  }
}
const passes = (e: Evidence, c: number, s: number) =>
  e.topical >= 1 && e.words >= (e.n >= 3 ? 2 : 1) && e.coverage >= c && (e.sentenceCoverage >= s || e.phrase);
console.log(`on-topic (tuning) ${on.length}, off-topic pairs sharing a word (tuning) ${off.length}`);
console.log('coverage\\sentence: on-topic passed / off-topic passed');
for (const c of [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]) {
  const cells = [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5].map(
    (s) => `${on.filter((x) => passes(x.e, c, s)).length}/${off.filter((x) => passes(x.e, c, s)).length}`,
  );
  console.log(`${c.toFixed(2)}: ${cells.join('  ')}`);
}
// The rule for questions mostly unknown to the knowledge base: from an absent share of a, the sentence must hold s.
const passesScattered = (e: Evidence, a: number, s: number) => passes(e, MIN_COVERAGE, e.absent >= a ? s : MIN_SENTENCE_COVERAGE);
console.log(`\nabsent share from \\ sentence then 0.25 0.3 0.35 (now ${ABSENT_SHARE}, ${MIN_SCATTERED_SENTENCE_COVERAGE}): on-topic passed / off-topic passed`);
for (const a of [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7]) {
  const cells = [0.25, 0.3, 0.35].map((s) => `${on.filter((x) => passesScattered(x.e, a, s)).length}/${off.filter((x) => passesScattered(x.e, a, s)).length}`);
  console.log(`${a.toFixed(2)}: ${cells.join('  ')}`);
}
console.log(`\non-topic with an absent share of ${ABSENT_SHARE} or more (held to the stricter rule):`);
for (const x of on.filter((x) => x.e.absent >= ABSENT_SHARE).sort((a, b) => b.e.absent - a.e.absent)) console.log(`  ${x.id} ${fmt(x.e)}  ${x.q}`);
console.log(`\ncurrent (${MIN_COVERAGE}, ${MIN_SENTENCE_COVERAGE}) on-topic refused:`);
for (const x of on.filter((x) => !passes(x.e, MIN_COVERAGE, MIN_SENTENCE_COVERAGE)).sort((a, b) => a.e.coverage - b.e.coverage))
  console.log(`  ${x.id} ${fmt(x.e)}  ${x.q}`);
console.log('off-topic passed:');
for (const x of off.filter((x) => passes(x.e, MIN_COVERAGE, MIN_SENTENCE_COVERAGE))) console.log(`  ${x.id} ${fmt(x.e)}  ${x.q}`);
console.log('highest off-topic:');
for (const x of [...off].sort((a, b) => b.e.coverage - a.e.coverage).slice(0, 15)) console.log(`  ${x.id} ${fmt(x.e)}  ${x.q}`);
await handle.close();

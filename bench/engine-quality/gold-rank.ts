/**
 * Why a gold fact never reaches the composer: for every TUNING question of the original set (or the ids given), the
 * retrieval rank of the first chunk holding the gold fact (searched to 60 chunks), the question's terms with their
 * document frequencies, which of them the gold chunk holds, and whether the gold chunk is the neighbour (same
 * document, ordinal ± 1) of a passage read. Held-out questions are never shown.
 *
 *   npx tsx bench/engine-quality/gold-rank.ts [--all] [question-id…]
 *
 * Without ids it lists the questions whose gold fact is in none of the PASSAGES_READ passages (--all: every one),
 * then a histogram of gold ranks over the tuning part.
 */
import { sql } from 'drizzle-orm';
import { searchChunks } from '@/lib/engine';
import { PASSAGES_READ } from '@/lib/engine/sentence-ranker';
import { containsFact, isAddedQuestion, isHeldOut, loadEvaluationSet } from './evaluation-set';
import { openSeededMarketplace } from './snapshot';

const args = process.argv.slice(2);
const all = args.includes('--all');
const only = new Set(args.filter((a) => !a.startsWith('--')));
const DEPTH = 60;

const { handle, db, kbId } = await openSeededMarketplace();
const histogram = new Map<string, number>();
const bump = (k: string) => histogram.set(k, (histogram.get(k) ?? 0) + 1);
try {
  for (const question of loadEvaluationSet()) {
    if (isHeldOut(question.id) || isAddedQuestion(question.id) || (only.size && !only.has(question.id))) continue;
    const kb = kbId.get(question.kb);
    if (!kb) continue;
    const r = await searchChunks(db, kb, question.question, { limit: DEPTH });
    const rank = r.chunks.findIndex((c) => containsFact(c.content, question.gold_fact));
    bump(
      rank < 0
        ? `>${DEPTH} or absent`
        : rank < PASSAGES_READ
          ? `0-${PASSAGES_READ - 1}`
          : rank < 8
            ? `${PASSAGES_READ}-7`
            : rank < 15
              ? '8-14'
              : `15-${DEPTH - 1}`,
    );
    if (!only.size && !all && rank >= 0 && rank < PASSAGES_READ) continue;
    // Every chunk of the knowledge base holding the fact, with its neighbours' relation to the passages read.
    const holders = (
      await db.execute(sql`
      select c.id, c.document_id, c.ordinal, c.heading, c.content, c.lexeme_count,
             array(select unnest(tsvector_to_array(c.search_vector))) as lexemes
      from chunks c where c.kb_id = ${kb}`)
    ).rows as Array<{ id: number; document_id: string; ordinal: number; heading: string | null; content: string; lexeme_count: number; lexemes: string[] }>;
    const read = r.chunks.slice(0, PASSAGES_READ);
    const ordinals = new Map(holders.map((h) => [Number(h.id), h]));
    console.log(`\n${question.id}: gold "${question.gold_fact}" first at retrieval rank ${rank}`);
    console.log(`  Q: ${question.question}`);
    console.log(`  terms: ${r.terms.map((t) => `${t.word}→${t.lexeme}(df ${t.docFreq}, idf ${t.idf.toFixed(2)})`).join(' ')}`);
    console.log(
      `  read: ${read.map((c) => `#${c.chunkId}[${ordinals.get(c.chunkId)?.ordinal}] ${c.score.toFixed(2)} ${(c.heading ?? '').slice(0, 40)}`).join(' | ')}`,
    );
    for (const h of holders.filter((x) => containsFact(x.content, question.gold_fact))) {
      const lex = new Set(h.lexemes);
      const matched = r.terms.filter((t) => lex.has(t.lexeme)).map((t) => t.lexeme);
      const at = r.chunks.findIndex((c) => c.chunkId === Number(h.id));
      const neighbourOf = read
        .map((c, i) => ({ c, i }))
        .filter(({ c }) => {
          const o = ordinals.get(c.chunkId);
          return o && o.document_id === h.document_id && Math.abs(o.ordinal - h.ordinal) === 1;
        })
        .map(({ i }) => `p${i}`);
      console.log(
        `  holder #${h.id}[${h.ordinal}] rank ${at} len ${h.lexeme_count} matches {${matched.join(', ')}}${neighbourOf.length ? ` NEIGHBOUR of ${neighbourOf.join(',')}` : ''} heading "${h.heading ?? ''}"`,
      );
      const i = h.content.toLowerCase().indexOf(question.gold_fact.toLowerCase());
      console.log(`    …${h.content.slice(Math.max(0, i - 220), i + 120).replace(/\s+/g, ' ')}…`);
    }
  }
  console.log('\ngold rank histogram (tuning part):', [...histogram.entries()].map(([k, v]) => `${k}: ${v}`).join(', '));
} finally {
  await handle.close();
}

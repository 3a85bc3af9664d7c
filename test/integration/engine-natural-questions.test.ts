import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@/test/support/db';
import type { Database } from '@/lib/platform/db';
import { answerHostedQuery } from '@/lib/engine';

/**
 * The seeded marketplace asked as its buyers ask (issue 27 item 6): db/seed/natural-questions.json holds, for every
 * hosted demo knowledge base, questions written in a buyer's words rather than the documents' (each with a short
 * verbatim fact a correct answer must contain) and questions it must refuse (plausible for a buyer, off-topic for
 * that knowledge base). An answer passes when it holds the fact and cites, or when it is refused (nothing cited, which
 * makes it free: lib/gateway/pipeline.ts meters an answer without citations as an abstention); a wrong answer fails.
 * A question to refuse passes only when refused. A floor keeps the share answered correctly from sliding.
 *
 * One seeded database for the file, one test per knowledge base so a failure names the knowledge base and lists each
 * question with what came back. It also prints the tally; NATURAL_QUESTIONS_REPORT=<file> writes the tally and every
 * failure to that file:
 *
 *   NATURAL_QUESTIONS_REPORT=/tmp/natural.txt npx vitest run --project postgres test/integration/engine-natural-questions.test.ts
 */
interface NaturalQuestion {
  kb: string;
  question: string;
  expect?: string;
  refuse?: true;
}

/** The share of answerable questions that must be answered correctly (measured: see the README's engine section). */
const MIN_ANSWERED_SHARE = 0.7;

const QUESTIONS = JSON.parse(readFileSync(path.join(process.cwd(), 'db', 'seed', 'natural-questions.json'), 'utf8')) as NaturalQuestion[];
const SLUGS = [...new Set(QUESTIONS.map((q) => q.kb))].sort();
const normalise = (text: string) => text.replace(/[*_`]/g, '').replace(/[‘’]/g, "'").replace(/\s+/g, ' ').toLowerCase();

type Outcome = 'correct' | 'wrong' | 'refused wrongly' | 'refused' | 'answered off-topic';
const tally: Record<Outcome, number> = { correct: 0, wrong: 0, 'refused wrongly': 0, refused: 0, 'answered off-topic': 0 };
const failures: string[] = [];

let db: Database;
let kbIds: Map<string, string>;

beforeAll(async () => {
  db = (await createTestDatabase({ seed: true })).db;
  const rows = (await db.execute(sql`select id, slug from knowledge_bases where status = 'published'`)).rows as Array<{ id: string; slug: string }>;
  kbIds = new Map(rows.map((r) => [r.slug, r.id]));
});

afterAll(() => {
  const answerable = tally.correct + tally.wrong + tally['refused wrongly'];
  const offTopic = tally.refused + tally['answered off-topic'];
  const summary = [
    `answerable ${answerable}: correct ${tally.correct}, wrong ${tally.wrong}, refused wrongly ${tally['refused wrongly']}`,
    `off-topic ${offTopic}: refused ${tally.refused}, answered ${tally['answered off-topic']}`,
  ];
  console.log(`natural questions: ${summary.join('; ')}`);
  const report = process.env.NATURAL_QUESTIONS_REPORT;
  if (report) writeFileSync(report, [...summary, '', ...failures, ''].join('\n'));
});

describe('the seeded marketplace answers and refuses questions asked in a buyer\'s words', () => {
  it('every hosted demo knowledge base has at least five answerable questions and two it must refuse', () => {
    expect(SLUGS.filter((slug) => !kbIds.has(slug)), 'questions for a knowledge base that is not published').toEqual([]);
    expect([...kbIds.keys()].filter((slug) => !SLUGS.includes(slug)), 'published knowledge bases without natural questions').toEqual([]);
    for (const slug of SLUGS) {
      const mine = QUESTIONS.filter((q) => q.kb === slug);
      expect(mine.filter((q) => q.expect).length, slug).toBeGreaterThanOrEqual(5);
      expect(mine.filter((q) => q.refuse).length, slug).toBeGreaterThanOrEqual(2);
      for (const q of mine) expect(Boolean(q.expect) !== Boolean(q.refuse), `${slug}: "${q.question}" needs exactly one of expect or refuse`).toBe(true);
    }
  });

  it.each(SLUGS)('%s', async (slug) => {
    const mine: string[] = [];
    for (const q of QUESTIONS.filter((x) => x.kb === slug)) {
      const answer = await answerHostedQuery({ kbId: kbIds.get(slug)!, query: q.question, requestId: 'req_natural' }, db, { llm: null });
      const cited = answer.citations.length > 0;
      let outcome: Outcome;
      if (q.refuse) outcome = cited ? 'answered off-topic' : 'refused';
      else if (!cited) outcome = 'refused wrongly';
      else outcome = normalise(answer.answer).includes(normalise(q.expect!)) ? 'correct' : 'wrong';
      tally[outcome]++;
      // A refusal is free and says so; a wrong answer is billed and misleads. Every question is answered right or refused.
      if (outcome === 'correct' || outcome === 'refused' || outcome === 'refused wrongly') continue;
      const wanted = q.refuse ? 'a refusal' : `"${q.expect}"`;
      mine.push(`${slug}: "${q.question}" [${outcome}] expected ${wanted}, got: ${answer.answer.replace(/\s+/g, ' ').slice(0, 240)}`);
    }
    failures.push(...mine);
    expect(mine).toEqual([]);
  });

  // Refusing everything would pass the cases above: most questions a buyer asks must be answered.
  it('answers most of the answerable questions', () => {
    const answerable = tally.correct + tally.wrong + tally['refused wrongly'];
    expect(answerable).toBeGreaterThan(0);
    expect(tally.correct / answerable).toBeGreaterThanOrEqual(MIN_ANSWERED_SHARE);
  });
});

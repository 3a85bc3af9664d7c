import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@/test/support/db';
import type { Database } from '@/lib/platform/db';
import { answerHostedQuery } from '@/lib/engine';
import { resetEnvForTesting } from '@/lib/platform/env';

/**
 * The seeded marketplace asked as its buyers ask: db/seed/natural-questions.json holds, for every
 * hosted demo knowledge base, questions written in a buyer's words rather than the documents' (each with a short
 * verbatim fact a correct answer must contain) and questions it must refuse (plausible for a buyer, off-topic for
 * that knowledge base). An answer is right when it holds the fact and cites; a refusal cites nothing, which makes it
 * free (lib/gateway/pipeline.ts meters an answer without citations as an abstention).
 *
 * One seeded database for the file; a failure lists each miss with its knowledge base and what came back. It also
 * prints the tally; NATURAL_QUESTIONS_REPORT=<file> writes the tally and every failure to that file:
 *
 *   NATURAL_QUESTIONS_REPORT=/tmp/natural.txt npx vitest run --project 'postgres*' test/integration/engine-natural-questions.test.ts
 */
interface NaturalQuestion {
  kb: string;
  question: string;
  expect?: string;
  refuse?: true;
}

/**
 * Bounds from the figures measured on this tree (see the test below): 347 correct, 22 wrong, 125 of 130 refused. Each
 * seeded knowledge base answers with its own calibrated threshold (db/seed/gate-thresholds.json), lower for most: before
 * that (stop 38) 283 correct, 23 wrong, 129 of 130 refused (bench/engine-quality/README.md, stop 39). Since stop 44
 * the Spanish, German and French ones are judged by the language-neutral gate, calibrated in their language, and
 * German compounds are read by their parts (before: the hand-written rule, 329 correct). Since stop 45 an irregular
 * past form or plural is also looked up as its base ("Where was the Constitution written?" finds "write"; 335 before).
 * Since stop 47 a hyphenated compound is a unit: "How do I set up two-factor authentication on Gmail?" no longer meets
 * the GDPR guide's "sets out two … factors" as a phrase, and is refused (124 of 130 refused before). Since stop 49 a
 * few more everyday paraphrases ("ill" / "sick", "test" / "check", "answer" / "respond", "earn" / "paid") are read
 * (30 wrong before). Since stop 50 "I'm" and "aren't" ask nothing about "m" or "aren", and a British or American
 * spelling finds the other ("randomisation" / "random", 26 wrong and 342 correct before). Since stop 51 retrieval looks
 * up everyday paraphrases too: "How long do we have to tell the regulator about a data breach?" reaches the passage
 * that says "notify … not later than 72 hours" (24 wrong and 345 correct before). Since stop 52 a study's verdict
 * cues are read only under a study's headings or in text without any: "What blood pressure should I aim for on
 * treatment?" is answered with the target, "Can I clean my raw data files directly?" loses "never edit raw data", two
 * yes/no questions are refused (346 correct before). Since stop 53 a request is searched for what it asks about:
 * "Could you outline the rights a data subject has?" (added then) opens with the chapter that lists them, no longer with a
 * recital from the consent manual, whose passages the rare word "could" had pulled in. Since stop 54 the verb closing a
 * question of how long, how much or how often, "worth it" and "actually" frame a question: "Do soda taxes actually
 * work?" is answered, where "actually", which the knowledge base never uses, had it refused (345 correct before).
 * Since stop 55 a Roman numeral after a name is looked up as its number: "What started World War I?" finds the causes
 * of "the First World War" (Franz Ferdinand), where the stop word "I" had left only the Second's passages (23 wrong).
 */
const MIN_ANSWERED_SHARE = 0.85;
const MAX_WRONG = 22;
const MAX_ANSWERED_OFF_TOPIC = 5;

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

describe("the seeded marketplace answers and refuses questions asked in a buyer's words", () => {
  it('every hosted demo knowledge base has at least five answerable questions and two it must refuse', () => {
    expect(
      SLUGS.filter((slug) => !kbIds.has(slug)),
      'questions for a knowledge base that is not published',
    ).toEqual([]);
    expect(
      [...kbIds.keys()].filter((slug) => !SLUGS.includes(slug)),
      'published knowledge bases without natural questions',
    ).toEqual([]);
    for (const slug of SLUGS) {
      const mine = QUESTIONS.filter((q) => q.kb === slug);
      expect(mine.filter((q) => q.expect).length, slug).toBeGreaterThanOrEqual(5);
      expect(mine.filter((q) => q.refuse).length, slug).toBeGreaterThanOrEqual(2);
      for (const q of mine) expect(Boolean(q.expect) !== Boolean(q.refuse), `${slug}: "${q.question}" needs exactly one of expect or refuse`).toBe(true);
    }
  });

  /**
   * The figures of this tree are in the comment on the bounds above. The target is no wrong answer at all;
   * these bounds keep the engine from sliding back while it gets there, and the failure message lists every miss.
   */
  it('answers most questions right, refuses the off-topic ones, and answers few wrongly', async () => {
    for (const slug of SLUGS) {
      for (const q of QUESTIONS.filter((x) => x.kb === slug)) {
        const answer = await answerHostedQuery({ kbId: kbIds.get(slug)!, query: q.question, requestId: 'req_natural' }, db, { llm: null });
        const cited = answer.citations.length > 0;
        let outcome: Outcome;
        if (q.refuse) outcome = cited ? 'answered off-topic' : 'refused';
        else if (!cited) outcome = 'refused wrongly';
        else outcome = normalise(answer.answer).includes(normalise(q.expect!)) ? 'correct' : 'wrong';
        tally[outcome]++;
        if (outcome === 'correct' || outcome === 'refused') continue;
        const wanted = q.refuse ? 'a refusal' : `"${q.expect}"`;
        failures.push(`${slug}: "${q.question}" [${outcome}] expected ${wanted}, got: ${answer.answer.replace(/\s+/g, ' ').slice(0, 240)}`);
      }
    }
    const answerable = tally.correct + tally.wrong + tally['refused wrongly'];
    const listing = failures.join('\n');
    expect(tally.correct / answerable, listing).toBeGreaterThanOrEqual(MIN_ANSWERED_SHARE);
    expect(tally.wrong, listing).toBeLessThanOrEqual(MAX_WRONG);
    expect(tally['answered off-topic'], listing).toBeLessThanOrEqual(MAX_ANSWERED_OFF_TOPIC);
  });

  it('with ENGINE_ENCODER_READER=on, re-reads close statements with the encoder and quotes first the one asked about', async () => {
    const ask = () =>
      answerHostedQuery(
        {
          kbId: kbIds.get('us-constitution-companion')!,
          query: 'Who presides when a president is put on trial in the Senate?',
          requestId: 'req_reread',
        },
        db,
        { llm: null },
      );
    const lexical = await ask();
    process.env.ENGINE_ENCODER_READER = 'on';
    resetEnvForTesting();
    try {
      const reread = await ask();
      // The lexical reader leads with the presidents impeached; who presides at the trial is the Chief Justice.
      expect(lexical.answer).toMatch(/^Three Presidents have been impeached/);
      expect(reread.answer).toMatch(/^The Senate has the sole power to try impeachments; when the President is tried, the Chief Justice presides\./);
      expect(reread.answer).toContain('Three Presidents have been impeached');
      expect(reread.citations.map((c) => c.excerpt).sort()).toEqual(lexical.citations.map((c) => c.excerpt).sort());
    } finally {
      delete process.env.ENGINE_ENCODER_READER;
      resetEnvForTesting();
    }
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@/test/support/db';
import type { Database } from '@/lib/platform/db';
import { answerHostedQuery } from '@/lib/engine';

/**
 * An honest demo: every published knowledge base of the seeded marketplace answers each sample
 * question its page lists, with a citation, and the answer holds the expected fact (db/seed/sample-answers.json).
 * One seeded database for all 216 questions (about ten seconds); it runs on both databases because the stemming
 * and ranking SQL is the part that could differ between them.
 */
const EXPECTED = JSON.parse(readFileSync(path.join(process.cwd(), 'db', 'seed', 'sample-answers.json'), 'utf8')) as Record<string, Record<string, string>>;
const normalise = (text: string) => text.replace(/[*_`]/g, '').replace(/[‘’]/g, "'").replace(/\s+/g, ' ').toLowerCase();

let db: Database;
let kbs: Array<{ id: string; slug: string; sample_questions: string[] }>;

beforeAll(async () => {
  db = (await createTestDatabase({ seed: true })).db;
  kbs = (await db.execute(sql`select id, slug, sample_questions from knowledge_bases where status = 'published' order by slug`)).rows as typeof kbs;
});

describe('the seeded marketplace answers its own sample questions', () => {
  it('every published knowledge base lists sample questions with an expected fact for each', () => {
    expect(kbs.length).toBe(65);
    for (const kb of kbs) {
      expect(kb.sample_questions.length, kb.slug).toBeGreaterThanOrEqual(3);
      for (const q of kb.sample_questions) expect(EXPECTED[kb.slug]?.[q], `${kb.slug}: no expected fact for "${q}"`).toBeTruthy();
    }
  });

  it('each sample question is answered, with a citation, and the answer holds the expected fact', async () => {
    const failures: string[] = [];
    let asked = 0;
    for (const kb of kbs) {
      for (const question of kb.sample_questions) {
        const fact = EXPECTED[kb.slug]?.[question];
        if (!fact) continue;
        asked++;
        const answer = await answerHostedQuery({ kbId: kb.id, query: question, requestId: 'req_sample' }, db, { llm: null });
        if (answer.citations.length === 0 || !normalise(answer.answer).includes(normalise(fact))) {
          failures.push(`${kb.slug}: "${question}" expected "${fact}", got: ${answer.answer.slice(0, 200)}`);
        }
      }
    }
    expect(asked).toBeGreaterThanOrEqual(200);
    expect(failures).toEqual([]);
  }, 120_000);

  it('the issue 14 examples: Marbury v. Madison, six years, and the Spanish amparo question', async () => {
    const bySlug = new Map(kbs.map((k) => [k.slug, k.id]));
    const ask = (slug: string, query: string) => answerHostedQuery({ kbId: bySlug.get(slug)!, query, requestId: 'req_issue14' }, db, { llm: null });
    const marbury = await ask('us-constitution-companion', 'Which Supreme Court case established judicial review?');
    expect(marbury.answer.split(' [1]')[0]).toContain('Marbury v. Madison');
    const senator = await ask('us-constitution-companion', "How long is a senator's term of office?");
    expect(senator.answer.split(' [1]')[0]).toContain('six years');
    // …and never the House's or the President's term after it.
    expect(senator.answer).not.toMatch(/Term of (two|four) years/);
    const amparo = await ask('constitucion-espanola-comentada', '¿Qué derechos protege el recurso de amparo?');
    expect(amparo.citations.length).toBeGreaterThan(0);
    expect(amparo.answer).toContain('artículos 14 a 29');
  });
});

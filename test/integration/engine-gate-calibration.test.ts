import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@/test/support/db';
import type { Database } from '@/lib/platform/db';
import { answerHostedQuery, searchChunks } from '@/lib/engine';
import { NO_ANSWER_TEXT } from '@/lib/engine/answer';
import { GATE_MODEL } from '@/lib/engine/gate-weights';
import { CALIBRATION_BOUNDS } from '@/lib/engine/calibration-bounds';
import { CALIBRATION_QUESTIONS, calibrationQuestionsIn } from '@/lib/engine/calibration-questions';
import { CALIBRATE_QUEUE, calibrateGate, recalibrateStale, thresholdFromScores, type CalibrationScore } from '@/lib/engine/gate-calibration';
import { GATE_VERSION } from '@/lib/engine/gate-version';
import { registerContentJobs } from '@/lib/engine/uploads';
import { runDueJobs } from '@/lib/platform/jobs';
import { ingestDocument } from '@/lib/engine/ingest';
import { findPassages } from '@/lib/engine/passages';
import { createHostedKnowledgeBase } from '@/lib/publishing/knowledge-bases';
import { itemAt } from '@/lib/platform/arrays';

const shipped = GATE_MODEL.threshold;
const { rise: CALIBRATION_RISE, floor: CALIBRATION_FLOOR } = CALIBRATION_BOUNDS;
/** Fifteen questions per topic, each scoring `score(topic, k)`. */
const scores = (score: (topic: string, k: number) => number): CalibrationScore[] =>
  ['cooking', 'sport', 'vehicles', 'astronomy', 'entertainment'].flatMap((domain) =>
    Array.from({ length: 15 }, (_, k) => ({ domain, score: score(domain, k) })),
  );

describe('a knowledge base’s own gate threshold, from the calibration questions', () => {
  it('goes down for a narrow knowledge base, just above its foreign question at the 95th percentile', () => {
    const narrow = scores((topic, k) => shipped - 2.5 + k * 0.01);
    const threshold = thresholdFromScores(narrow, shipped)!;
    const all = narrow.map((s) => s.score).sort((a, b) => a - b);
    expect(threshold).toBeLessThan(shipped - 2);
    expect(threshold).toBeGreaterThan(itemAt(all, 71));
    expect(threshold).toBeLessThanOrEqual(itemAt(all, 72) + 1e-4);
  });

  it('never goes further down than the floor, even when nothing is found for any of them', () => {
    expect(
      thresholdFromScores(
        scores(() => shipped - 10),
        shipped,
      ),
    ).toBe(shipped - CALIBRATION_FLOOR);
    expect(
      thresholdFromScores(
        scores(() => -Infinity),
        shipped,
      ),
    ).toBe(shipped - CALIBRATION_FLOOR);
  });

  it('is the shipped one when the 95th percentile is the shipped threshold', () => {
    expect(
      thresholdFromScores(
        scores(() => shipped - 1e-6),
        shipped,
      ),
    ).toBeNull();
  });

  it('rises just above the question at the 95th percentile, so that 95% of them are refused', () => {
    // Every topic's questions score shipped-1 … shipped+0.12 (two of each pass the shipped threshold: no topic is the
    // knowledge base's own); the 72nd lowest of 75 (index 71) decides.
    const ranked = scores((topic, k) => shipped - 1 + k * 0.08 + ['cooking', 'sport', 'vehicles', 'astronomy', 'entertainment'].indexOf(topic) * 0.001);
    const threshold = thresholdFromScores(ranked, shipped)!;
    const all = ranked.map((s) => s.score).sort((a, b) => a - b);
    expect(threshold).toBeGreaterThan(itemAt(all, 71));
    expect(threshold).toBeLessThanOrEqual(itemAt(all, 72));
    expect(all.filter((s) => s < threshold).length / all.length).toBeGreaterThanOrEqual(0.95);
  });

  it('never rises further than its bound above the shipped one, however broad the knowledge base', () => {
    expect(
      thresholdFromScores(
        scores((topic, k) => (k < 7 ? shipped + 5 : shipped - 1)),
        shipped,
      ),
    ).toBe(shipped + CALIBRATION_RISE);
  });

  it('leaves out the topic the knowledge base is about: a cookbook is not made stricter by recipe questions', () => {
    const cookbook = scores((topic, k) => (topic === 'cooking' ? shipped + 3 : k === 0 ? shipped + 0.05 : shipped - 2));
    const threshold = thresholdFromScores(cookbook, shipped);
    // Without the cooking questions, the other topics' 95th percentile is one of the four at shipped + 0.05.
    expect(threshold).not.toBeNull();
    expect(threshold!).toBeLessThan(shipped + 0.1);
  });

  it('asks questions of many subjects, each several times, in English and in each other indexed language', () => {
    const subjects = new Set(CALIBRATION_QUESTIONS.map((q) => q.domain));
    expect(subjects.size).toBeGreaterThanOrEqual(30);
    for (const subject of subjects) expect(CALIBRATION_QUESTIONS.filter((q) => q.domain === subject).length).toBeGreaterThanOrEqual(5);
    expect(new Set(CALIBRATION_QUESTIONS.map((q) => q.question)).size).toBe(CALIBRATION_QUESTIONS.length);
    expect(CALIBRATION_QUESTIONS.every((q) => q.language === 'en')).toBe(true);
    // Every other indexed language asks the same questions, in its own words.
    for (const language of ['es', 'de', 'fr'] as const) {
      const translated = calibrationQuestionsIn(language);
      expect(translated.map((q) => q.id)).toEqual(CALIBRATION_QUESTIONS.map((q) => `${q.id}-${language}`));
      expect(translated.map((q) => q.domain)).toEqual(CALIBRATION_QUESTIONS.map((q) => q.domain));
      expect(translated.every((q) => q.language === language)).toBe(true);
      expect(new Set(translated.map((q) => q.question)).size).toBe(translated.length);
    }
  });
});

describe('the stored threshold on the answer path', () => {
  let db: Database;
  let kbId: string;
  const question = 'How soon after symptom onset must thrombolysis start?';

  beforeAll(async () => {
    db = (await createTestDatabase()).db;
    const kb = await createHostedKnowledgeBase(db, {
      title: 'Stroke Care',
      publisher: 'Calibration Test Press',
      category: 'health',
      tags: [],
      summary: 'Acute stroke care.',
    });
    if (!kb.ok) throw new Error(kb.message);
    kbId = kb.id;
    const result = await ingestDocument(db, kbId, {
      sourceName: 'stroke.md',
      bytes: new TextEncoder().encode(
        '# Acute Stroke\n\nThrombolysis dissolves the clot. Thrombolysis must start within 4.5 hours of symptom onset. Thrombolysis is contraindicated after recent surgery.\n',
      ),
    });
    if (!result.ok) throw new Error(result.message);
  });

  it('a narrow knowledge base gets a lower threshold, and still refuses what it does not hold', async () => {
    const threshold = await calibrateGate(db, kbId);
    expect(threshold).not.toBeNull();
    expect(threshold!).toBeLessThan(shipped);
    expect(threshold!).toBeGreaterThanOrEqual(shipped - CALIBRATION_FLOOR);
    const row = (await db.execute(sql`select gate_threshold from kb_index_stats where kb_id = ${kbId}`)).rows[0] as { gate_threshold: number | null };
    expect(Number(row.gate_threshold)).toBe(threshold);
    expect((await searchChunks(db, kbId, question, { limit: 5 })).gateThreshold).toBe(threshold);
    const answer = await answerHostedQuery({ kbId, query: question, requestId: 'req_test' }, db, { llm: null, embeddings: null });
    expect(answer.answer).toContain('4.5 hours');
    const offTopic = await answerHostedQuery({ kbId, query: 'How many calories does a surgeon burn in a long day?', requestId: 'req_test' }, db, {
      llm: null,
      embeddings: null,
    });
    expect(offTopic.citations).toEqual([]);
  });

  it('a stored threshold is read with the index statistics and decides answers and searches alike', async () => {
    await db.execute(sql`update kb_index_stats set gate_threshold = 100, gate_model = ${GATE_VERSION} where kb_id = ${kbId}`);
    try {
      expect((await searchChunks(db, kbId, question, { limit: 5 })).gateThreshold).toBe(100);
      const refused = await answerHostedQuery({ kbId, query: question, requestId: 'req_test' }, db, { llm: null, embeddings: null });
      expect(refused.answer).toBe(NO_ANSWER_TEXT);
      expect(refused.citations).toEqual([]);
      expect(await findPassages(db, kbId, question, 3, undefined, null)).toEqual([]);
    } finally {
      await db.execute(sql`update kb_index_stats set gate_threshold = null where kb_id = ${kbId}`);
    }
    expect((await findPassages(db, kbId, question, 3, undefined, null)).length).toBeGreaterThan(0);
  });

  it('calibrates a knowledge base in another language with the questions in its language, judged by the language-neutral model', async () => {
    const kb = await createHostedKnowledgeBase(db, {
      title: 'Schlaganfallversorgung',
      publisher: 'Calibration Test Press',
      category: 'health',
      tags: [],
      summary: 'Akutversorgung des Schlaganfalls.',
    });
    if (!kb.ok) throw new Error(kb.message);
    await db.execute(sql`update knowledge_bases set language = 'de' where id = ${kb.id}`);
    const result = await ingestDocument(db, kb.id, {
      sourceName: 'schlaganfall.md',
      bytes: new TextEncoder().encode(
        '# Akuter Schlaganfall\n\nDie Thrombolyse löst das Gerinnsel auf. Die Thrombolyse muss innerhalb von 4,5 Stunden nach Symptombeginn beginnen.\n',
      ),
    });
    if (!result.ok) throw new Error(result.message);
    // A narrow knowledge base: every foreign German question scores far below the shipped threshold.
    const threshold = await calibrateGate(db, kb.id);
    expect(threshold).not.toBeNull();
    expect(threshold!).toBeLessThan(shipped);
    expect((await searchChunks(db, kb.id, 'Wann muss die Thrombolyse beginnen?', { limit: 5 })).gateThreshold).toBe(threshold);
    const asked = (query: string) => answerHostedQuery({ kbId: kb.id, query, requestId: 'req_test' }, db, { llm: null, embeddings: null });
    // The language-neutral model judges it: its own question answered, another subject's refused.
    expect((await asked('Wann muss die Thrombolyse beginnen?')).answer).toContain('4,5 Stunden');
    expect((await asked('Wer wurde 1974 Fußballweltmeister?')).citations).toEqual([]);
  });

  it('ignores a threshold calibrated for other gate weights until the sweep has measured it again', async () => {
    await db.execute(sql`update kb_index_stats set gate_threshold = 100, gate_model = 'older-weights' where kb_id = ${kbId}`);
    expect((await searchChunks(db, kbId, question, { limit: 5 })).gateThreshold).toBeNull();
    const answer = await answerHostedQuery({ kbId, query: question, requestId: 'req_test' }, db, { llm: null, embeddings: null });
    expect(answer.answer).toContain('4.5 hours');

    registerContentJobs(async () => db);
    expect(await recalibrateStale(db)).toBe(1);
    expect(await runDueJobs({ queues: [CALIBRATE_QUEUE] })).toBe(1);
    const row = (await db.execute(sql`select gate_threshold, gate_model from kb_index_stats where kb_id = ${kbId}`)).rows[0] as {
      gate_threshold: number | null;
      gate_model: string;
    };
    expect(row.gate_model).toBe(GATE_VERSION);
    expect(Number(row.gate_threshold)).toBeLessThan(shipped);
    expect(await recalibrateStale(db)).toBe(0);
  });
});

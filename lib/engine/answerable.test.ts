import { describe, expect, it, vi } from 'vitest';
import { judgeAnswerable, judgeLexically, READER_MODEL, statementText, type ReaderModel } from './answerable';
import { analyseQuestion } from './question';
import { combinedScore, GATE_FEATURES, undecided } from './relevance-gate';
import type { QueryTerm, RetrievedChunk } from './types';

/**
 * The gate in two stages (relevance-gate.ts): the lexical model decides outside a band around its threshold, and
 * inside it the second model with the sentence encoder's similarity, on the lexical scale. Models are set by hand here
 * so that a question's lexical score lands where each case needs it.
 */

const term = (word: string, idf: number): QueryTerm => ({ word, lexeme: word, idf, docFreq: 1 });
const terms = [term('glacier', 3), term('retreat', 2.5), term('rate', 1)];
const passages: RetrievedChunk[] = [
  {
    chunkId: 1,
    documentId: 'doc_1',
    documentTitle: 'Glaciers',
    page: null,
    heading: 'Alpine glaciers',
    content: 'The glacier retreat rate doubled between 1990 and 2020. Meltwater feeds the valley.',
    tokenCount: 20,
    score: 5,
  },
];
const question = () => analyseQuestion('How fast is the glacier retreat rate?', terms);
const zeros = GATE_FEATURES.map(() => 0);

/** Lexical log-odds = bias; second model: similarity × 10 - 5. */
const model = (bias: number): ReaderModel => ({
  ...READER_MODEL,
  gate: { bias, weights: zeros, threshold: 0 },
  semantic: { below: 1, above: 1, model: { bias: -5, weights: [...zeros, 10], threshold: 0 } },
});

describe('the two-stage relevance gate', () => {
  it('leaves the band to the encoder, on the lexical scale', () => {
    const semantic = model(0).semantic!;
    const gate = model(0).gate;
    expect(undecided(-1.01, gate, semantic)).toBe(false);
    expect(undecided(-1, gate, semantic)).toBe(true);
    expect(undecided(0.99, gate, semantic)).toBe(true);
    expect(undecided(1, gate, semantic)).toBe(false);
    const features = [...zeros];
    expect(combinedScore(0.5, features, 0.9, gate, semantic)).toBeCloseTo(4);
    expect(combinedScore(0.5, features, 0.1, gate, semantic)).toBeCloseTo(-4);
    expect(combinedScore(0.5, features, null, gate, semantic)).toBe(0.5);
    expect(combinedScore(3, features, 0.1, gate, semantic)).toBe(3);
    expect(combinedScore(0.5, features, 0.1, gate, null)).toBe(0.5);
  });

  it('asks the encoder about the best statement only inside the band', async () => {
    const similarity = vi.fn(async () => 0.9);
    expect((await judgeAnswerable(question(), passages, model(5), null, similarity)).answerable).toBe(true);
    expect((await judgeAnswerable(question(), passages, model(-5), null, similarity)).answerable).toBe(false);
    expect(similarity).not.toHaveBeenCalled();

    const inside = await judgeAnswerable(question(), passages, model(-0.5), null, similarity);
    expect(inside.answerable).toBe(true);
    expect(similarity).toHaveBeenCalledTimes(1);
    expect(similarity).toHaveBeenCalledWith('How fast is the glacier retreat rate?', statementText(inside.ranked[0]!));
    expect(judgeLexically(question(), passages, model(-0.5)).answerable).toBe(false);
  });

  it('refuses inside the band when the statement is not about the question, and decides lexically without the encoder', async () => {
    expect((await judgeAnswerable(question(), passages, model(0.5), null, async () => 0.1)).answerable).toBe(false);
    expect((await judgeAnswerable(question(), passages, model(0.5), null, async () => null)).answerable).toBe(true);
    expect((await judgeAnswerable(question(), passages, model(-0.5), null, async () => null)).answerable).toBe(false);
  });

  it("applies a knowledge base's calibrated threshold to both models", async () => {
    // Second model: 0.55 × 10 - 5 = 0.5 over its threshold, so answered under a threshold of 0.4 and refused under 0.6.
    expect((await judgeAnswerable(question(), passages, model(0.2), 0.4, async () => 0.55)).answerable).toBe(true);
    expect((await judgeAnswerable(question(), passages, model(0.2), 0.6, async () => 0.55)).answerable).toBe(false);
  });

  it("lays the band around a knowledge base's own threshold, not the shipped one", async () => {
    const { gate, semantic } = model(0);
    expect(undecided(-2.5, gate, semantic!, -2)).toBe(true);
    expect(undecided(-2.5, gate, semantic!)).toBe(false);
    expect(undecided(0.5, gate, semantic!, -2)).toBe(false);
    // Lexical log-odds -1.5 pass a threshold of -2 lexically; inside its band an unrelated statement (second model
    // -4 below its own threshold, -4 on the lexical scale) is refused, and the shipped band would not have asked.
    const similarity = vi.fn(async () => 0.1);
    expect((await judgeAnswerable(question(), passages, model(-1.5), -2, similarity)).answerable).toBe(false);
    expect(similarity).toHaveBeenCalledTimes(1);
    // Lexical log-odds 0.5 lie in the shipped band but far above a threshold of -2: answered without the encoder.
    expect((await judgeAnswerable(question(), passages, model(0.5), -2, similarity)).answerable).toBe(true);
    expect(similarity).toHaveBeenCalledTimes(1);
  });

  it('never asks the encoder about a question in another language: the rule decides', async () => {
    const similarity = vi.fn(async () => 0.9);
    const q = analyseQuestion('¿Qué tan rápido retrocede el glaciar?', terms, undefined, 'es');
    await judgeAnswerable(q, passages, model(0), null, similarity);
    expect(similarity).not.toHaveBeenCalled();
  });
});

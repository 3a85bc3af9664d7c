import { describe, expect, it, vi } from 'vitest';
import { ENCODER_READER, judgeAnswerable, judgeLexically, READER_MODEL, rereadWithEncoder, statementText, type ReaderModel } from './answerable';
import { analyseQuestion } from './question';
import { combinedScore, GATE_FEATURES, GENERAL_ENGLISH_FEATURES, languageNeutral, undecided } from './relevance-gate';
import { LANGUAGE_NEUTRAL_GATE } from './gate-weights';
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

  it('judges a question in another language with the language-neutral model, never asking the encoder', async () => {
    const similarity = vi.fn(async () => 0.9);
    const q = analyseQuestion('¿Qué tan rápido retrocede el glaciar?', terms, undefined, 'es');
    const neutral = (bias: number): ReaderModel => ({ ...model(0), neutral: { bias, weights: zeros, threshold: 1 } });
    // Its margin over its own threshold (1) counts on the English model's scale (threshold 0), whose band the score
    // lies in: the encoder would decide there for an English question.
    expect((await judgeAnswerable(q, passages, neutral(1.5), null, similarity)).answerable).toBe(true);
    expect((await judgeAnswerable(q, passages, neutral(0.5), null, similarity)).answerable).toBe(false);
    expect(judgeLexically(q, passages, neutral(1.5)).answerable).toBe(true);
    expect(judgeLexically(q, passages, neutral(0.5)).answerable).toBe(false);
    expect(similarity).not.toHaveBeenCalled();
  });

  it('reads no general-English frequency in the language-neutral features', () => {
    const features = GATE_FEATURES.map((_, k) => k + 1);
    const neutral = languageNeutral(features);
    GATE_FEATURES.forEach((name, k) => expect(neutral[k]).toBe(GENERAL_ENGLISH_FEATURES.has(name) ? 0 : k + 1));
    expect(GENERAL_ENGLISH_FEATURES.size).toBe(6);
    // The shipped model has no weight on them either.
    GATE_FEATURES.forEach((name, k) => GENERAL_ENGLISH_FEATURES.has(name) && expect(LANGUAGE_NEUTRAL_GATE.weights[k]).toBe(0));
  });
});

describe('the encoder re-reading close statements', () => {
  const ranked = (...scores: number[]) => scores.map((score, k) => ({ ...candidate, text: `Statement ${k}.`, score }));
  const candidate = { passage: 0, span: { start: 0, end: 1 }, context: null, excerpt: { start: 0, end: 1 }, terms: new Set<string>(), features: [] };
  const english = question();

  it('re-orders the first statements by reader score plus the weighted cosine when the first two are close', async () => {
    const judgement = { answerable: true, ranked: ranked(5, 4.5, 4, 3, 1) };
    const similarities = vi.fn(async (_q: string, texts: string[]) => texts.map((t) => (t === 'Statement 2.' ? 0.9 : 0.3)));
    const reread = await rereadWithEncoder(english, judgement, similarities);
    expect(similarities).toHaveBeenCalledWith(english.text, ['Statement 0.', 'Statement 1.', 'Statement 2.', 'Statement 3.'].slice(0, ENCODER_READER.top));
    expect(reread.answerable).toBe(true);
    expect(reread.ranked.map((c) => c.text)).toEqual(['Statement 2.', 'Statement 0.', 'Statement 1.', 'Statement 3.', 'Statement 4.']);
    // Scores are the reader's own: the answer's follow-up margins stay on its scale.
    expect(reread.ranked[0]!.score).toBe(4);
  });

  it('leaves a clear first statement, a refusal, another language and an encoder that does not answer alone', async () => {
    const similarities = vi.fn(async (_q: string, texts: string[]) => texts.map(() => 0.5));
    const clear = { answerable: true, ranked: ranked(5 + ENCODER_READER.margin, 5, 1) };
    expect(await rereadWithEncoder(english, clear, similarities)).toBe(clear);
    const refused = { answerable: false, ranked: ranked(5, 4.9) };
    expect(await rereadWithEncoder(english, refused, similarities)).toBe(refused);
    const spanish = analyseQuestion('¿Qué tan rápido retrocede el glaciar?', terms, undefined, 'es');
    expect(await rereadWithEncoder(spanish, { answerable: true, ranked: ranked(5, 4.9) }, similarities)).toEqual({ answerable: true, ranked: ranked(5, 4.9) });
    expect(similarities).not.toHaveBeenCalled();
    const close = { answerable: true, ranked: ranked(5, 4.9) };
    expect(await rereadWithEncoder(english, close, async () => null)).toBe(close);
  });
});

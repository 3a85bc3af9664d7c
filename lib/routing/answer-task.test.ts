import { describe, expect, it } from 'vitest';
import { decodePublisherAnswer } from './answer-task';
import { withEventLoopLag } from '@/test/support/event-loop-lag';
import { decodeAnswer, INLINE_ANSWER_BYTES } from './http-connector';

const answer = {
  answer: 'Spring tides follow the new and full moon. [1]',
  citations: [{ document_id: 'tides', title: 'Tides', excerpt: 'Spring tides follow the new and full moon.', page: null }],
  tokens_used: 12,
};

/** About 1 MiB of answer, most of it a deeply nested extra field: the probe's hostile publisher. */
function nestedAnswer(depth: number): Buffer {
  return Buffer.from(JSON.stringify({ ...answer, meta: 0 }).replace('"meta":0', `"meta":${'['.repeat(depth)}1${']'.repeat(depth)}`));
}

describe('decodeAnswer', { timeout: 60_000 }, () => {
  it('decodes a small answer inline and a large one in a worker, to the same answer', async () => {
    const small = Buffer.from(JSON.stringify(answer));
    expect(small.length).toBeLessThanOrEqual(INLINE_ANSWER_BYTES);
    expect(await decodeAnswer(small)).toEqual({
      ok: true,
      answer: decodePublisherAnswer(small).ok ? (decodePublisherAnswer(small) as { answer: unknown }).answer : null,
    });
    const large = Buffer.from(JSON.stringify({ ...answer, answer: `${answer.answer} ${'More words. '.repeat(2_000)}` }));
    expect(large.length).toBeGreaterThan(INLINE_ANSWER_BYTES);
    expect(await decodeAnswer(large)).toEqual(decodePublisherAnswer(large));
    expect(await decodeAnswer(Buffer.from(`${'x'.repeat(10_000)}`))).toEqual({ ok: false, reason: 'answer is not JSON' });
  });

  it('keeps the event loop free while a 1 MiB nested answer is decoded', async () => {
    const hostile = nestedAnswer(500_000);
    expect(hostile.length).toBeGreaterThan(900_000);
    await decodeAnswer(Buffer.from(JSON.stringify({ ...answer, answer: 'x'.repeat(10_000) }))); // a warm worker
    const { result: decoded, worstMs } = await withEventLoopLag(() => decodeAnswer(hostile));
    expect(decoded.ok).toBe(true);
    // Decoded on the main thread, this answer holds the loop for 300 ms to 1.4 s; a loaded machine adds up to about
    // 200 ms of lag of its own.
    expect(worstMs).toBeLessThan(250);
  });
});

import { describe, expect, it } from 'vitest';
import { rankScores } from './passages';

describe('rankScores', () => {
  it('scores a lexical ranking in proportion to the first', () => {
    expect(rankScores([8, 6, 2])).toEqual([1, 0.75, 0.25]);
  });

  it('never scores a passage above the one ranked before it (a fused order: BM25 8 ranked after 6)', () => {
    expect(rankScores([6, 8, 3])).toEqual([1, 1, 0.5]);
    expect(rankScores([6, 3, 4.5])).toEqual([1, 0.5, 0.5]);
  });

  it('never scores 0: the smallest score is 0.0001', () => {
    expect(rankScores([10, 0.0001])).toEqual([1, 0.0001]);
    expect(rankScores([0, 0])).toEqual([0.0001, 0.0001]);
  });
});

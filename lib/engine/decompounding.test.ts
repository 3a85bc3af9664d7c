import { describe, expect, it } from 'vitest';
import { compoundSplits } from './decompounding';

describe('German compound splits', () => {
  it('reads a compound as two parts, with or without a joint, longest first part first', () => {
    const splits = compoundSplits('kündigungsfrist');
    expect(splits).toContainEqual({ head: 'kündigung', tail: 'frist' });
    expect(splits).toContainEqual({ head: 'kündigungs', tail: 'frist' });
    expect(splits[0]!.head.length).toBeGreaterThanOrEqual(splits.at(-1)!.head.length);
    expect(compoundSplits('fußballweltmeister')).toContainEqual({ head: 'fußball', tail: 'weltmeister' });
    expect(compoundSplits('kindergarten')).toContainEqual({ head: 'kind', tail: 'garten' });
  });

  it('never makes a part shorter than four letters, and leaves short words, numbers and hyphenated tokens alone', () => {
    for (const { head, tail } of compoundSplits('arbeitsvertrag')) {
      expect(head.length).toBeGreaterThanOrEqual(4);
      expect(tail.length).toBeGreaterThanOrEqual(4);
    }
    expect(compoundSplits('vertrag')).toEqual([]);
    expect(compoundSplits('covid19abc')).toEqual([]);
    expect(compoundSplits('e-mail-adresse')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { capture, itemAt } from './arrays';

describe('itemAt', () => {
  it('returns the item at an index in range, including a falsy one', () => {
    expect(itemAt(['a', 'b'], 1)).toBe('b');
    expect(itemAt([0, 1], 0)).toBe(0);
  });

  it('throws on an index outside the array rather than returning undefined', () => {
    expect(() => itemAt(['a'], 1)).toThrow(RangeError);
    expect(() => itemAt(['a'], -1)).toThrow('index -1 is outside 0..0');
    expect(() => itemAt([], 0)).toThrow(RangeError);
    expect(() => itemAt(['a'], 0.5)).toThrow(RangeError);
    expect(() => itemAt(['a'], Number.NaN)).toThrow(RangeError);
  });
});

describe('capture', () => {
  it('returns a group that took part in the match, even an empty one', () => {
    const match = /(\d+)(x*)/.exec('42')!;
    expect(capture(match, 1)).toBe('42');
    expect(capture(match, 2)).toBe('');
  });

  it('throws on a group that did not take part', () => {
    const match = /(a)|(b)/.exec('b')!;
    expect(() => capture(match, 1)).toThrow('capture group 1 did not take part in the match');
  });
});

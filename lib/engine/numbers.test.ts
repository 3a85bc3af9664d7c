import { describe, expect, it } from 'vitest';
import { numbersIn, questionNumbers, romanValue, sharedNumbers } from './numbers';

describe('the numbers a question gives', () => {
  it('reads digits and number words', () => {
    expect(questionNumbers('What margin of error does a sample of 1,000 people give?')).toEqual([1000]);
    expect(questionNumbers('How much vitamin D should people older than seventy get?')).toEqual([70]);
    expect(numbersIn('a reading of 140/90')).toEqual([140, 90]);
    expect(numbersIn('Le bail est un contrat.')).toEqual([]);
  });

  it('a statement repeating the number or spanning it with a range speaks of the same case', () => {
    expect(sharedNumbers([1000], '- a sample of 1,000 gives about plus or minus 3.1 percentage points;')).toBe(1);
    expect(sharedNumbers([70], 'The RDA rises to 20 µg (800 IU) for adults over 70.')).toBe(1);
    expect(sharedNumbers([40], 'Arm circumference 35 to 44 cm: large adult cuff.')).toBe(1);
    expect(sharedNumbers([40], 'Arm circumference 27–34 cm: adult cuff.')).toBe(0);
    expect(sharedNumbers([], 'Anything at all.')).toBe(0);
  });
});

describe('Roman numerals', () => {
  it('reads a numeral from I to LXXXIX in capitals, and nothing else', () => {
    const read = ['I', 'IV', 'IX', 'XIV', 'XIX', 'XL', 'XLIX', 'LII', 'LXXXIX'].map(romanValue);
    expect(read).toEqual([1, 4, 9, 14, 19, 40, 49, 52, 89]);
    for (const token of ['', 'IIII', 'VX', 'IC', 'XC', 'iv', 'MIX', 'LL']) expect(romanValue(token), token).toBeNull();
  });
});

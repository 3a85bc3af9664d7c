import { describe, expect, it } from 'vitest';
import { analyseQuestion, hasAdjacentPair, matchText } from './question';
import type { QueryTerm } from './types';

const term = (word: string, idf: number): QueryTerm => ({ word, lexeme: word, idf, docFreq: 1 });

describe('the question as answer selection reads it', () => {
  it('an acronym of consecutive question words covers those words ("MMR" for "measles-mumps-rubella")', () => {
    const q = analyseQuestion('How well does the measles-mumps-rubella vaccine protect?', [
      term('measles', 3),
      term('mumps', 3),
      term('rubella', 3),
      term('vaccine', 1),
      term('protect', 1),
    ]);
    expect([...matchText(q, 'Two doses of MMR are about 97% effective.').keys()].sort()).toEqual(['measles', 'mumps', 'rubella']);
    // Two letters say too little ("BP" could be anything), and the words must follow each other in the question.
    expect(matchText(q, 'The MV schedule.').size).toBe(0);
    expect(matchText(q, 'The MRM schedule.').size).toBe(0);
  });

  it('an everyday paraphrase covers the question word for less than the word itself ("returned" for "came back")', () => {
    const q = analyseQuestion('How many men came back from the voyage, and when was the last dose given?', [
      term('men', 2),
      term('came', 1),
      term('back', 1),
      term('voyage', 2),
      term('last', 1.5),
      term('dose', 2),
    ]);
    const returned = matchText(q, 'Only one ship returned, with 18 survivors.');
    expect([...returned.keys()].sort()).toEqual(['back', 'came']);
    expect(returned.get('came')).toBeCloseTo(0.8);
    expect([...matchText(q, 'The final dose.').keys()].sort()).toEqual(['dose', 'last']);
    // The words of a phrase do not paraphrase each other: "back" alone is not "came".
    expect([...matchText(q, 'They went back.').keys()]).toEqual(['back']);
    // A paraphrase next to a question word is phrase evidence too ("final dose" for "last dose").
    expect(hasAdjacentPair(q, ['the', 'final', 'dose'])).toBe(true);
    expect(hasAdjacentPair(q, ['the', 'fourth', 'dose'])).toBe(false);
  });

  it('a hyphenated compound of the question is a unit: the word before it makes no adjacent pair with its first part', () => {
    const q = analyseQuestion('How do I set up two-factor authentication on Gmail?', [
      term('set', 1),
      term('two', 2),
      term('factor', 2),
      term('authentication', 4),
      term('gmail', 4),
    ]);
    expect(hasAdjacentPair(q, ['article', '3', 'sets', 'out', 'two', 'main', 'connecting', 'factors'])).toBe(false);
    expect(hasAdjacentPair(q, ['use', 'two', 'factor', 'authentication'])).toBe(true);
    expect(hasAdjacentPair(q, ['multi', 'factor', 'authentication'])).toBe(true);
    // Without a hyphen the same words are a phrase.
    const plain = analyseQuestion('How do I set two factors?', [term('set', 1), term('two', 2), term('factors', 2)]);
    expect(hasAdjacentPair(plain, ['sets', 'out', 'two'])).toBe(true);
  });
});

describe('German compounds in the text', () => {
  const german = (...terms: QueryTerm[]) => analyseQuestion('?', terms, (w) => [w], 'de');

  it("count a question word that is a compound's head or first part, for most of the word", () => {
    const q = german(term('frist', 2), term('kundigungsschutz', 3));
    const hit = matchText(q, 'Die Kündigungsfrist beträgt vier Wochen, das Kündigungsschutzgesetz gilt.');
    expect([...hit.keys()].sort()).toEqual(['frist', 'kundigungsschutz']);
    expect(hit.get('frist')).toBeGreaterThan(1);
    expect(hit.get('frist')).toBeLessThan(2);
  });

  it('need five letters of head and six of first part, and only in German', () => {
    expect(matchText(german(term('amt', 2)), 'Das Finanzamt prüft.').size).toBe(0);
    expect(matchText(german(term('recht', 2)), 'Ein rechtzeitiger Antrag.').size).toBe(0);
    const english = analyseQuestion('?', [term('frist', 2)], (w) => [w], 'en');
    expect(matchText(english, 'Die Kündigungsfrist beträgt vier Wochen.').size).toBe(0);
  });
});

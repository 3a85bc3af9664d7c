import { describe, expect, it } from 'vitest';
import { analyseQuestion, matchText } from './question';
import type { QueryTerm } from './retrieval';

const term = (word: string, idf: number): QueryTerm => ({ word, lexeme: word, idf, docFreq: 1 });

describe('the question as answer selection reads it', () => {
  it('an acronym of consecutive question words covers those words ("MMR" for "measles-mumps-rubella")', () => {
    const q = analyseQuestion('How well does the measles-mumps-rubella vaccine protect?', [term('measles', 3), term('mumps', 3), term('rubella', 3), term('vaccine', 1), term('protect', 1)]);
    expect([...matchText(q, 'Two doses of MMR are about 97% effective.').keys()].sort()).toEqual(['measles', 'mumps', 'rubella']);
    // Two letters say too little ("BP" could be anything), and the words must follow each other in the question.
    expect(matchText(q, 'The MV schedule.').size).toBe(0);
    expect(matchText(q, 'The MRM schedule.').size).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { analyseQuestion, hasAdjacentPair, matchText } from './question';
import { paraphraseSpellings } from './paraphrases';
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

  it('everyday words find the ones documents use: "test my sugar when I\'m ill" finds "check blood glucose when sick"', () => {
    const q = analyseQuestion("How often should I test my sugar when I'm ill?", [term('test', 1), term('sugar', 2), term('ill', 2)]);
    const hit = matchText(q, 'When sick, check blood glucose every 2 to 4 hours.');
    expect([...hit.keys()].sort()).toEqual(['ill', 'sugar', 'test']);
    expect(hit.get('sugar')).toBeCloseTo(1.6);
    const age = analyseQuestion('What is the minimum age to be a senator?', [term('minimum', 3), term('age', 2), term('senator', 2)]);
    expect([...matchText(age, 'Senator: at least 30 years old.').keys()].sort()).toEqual(['age', 'senator']);
  });

  it('a modal verb or "whether" frames the question, as "still" or "often" does: it weighs less than what is asked about', () => {
    const q = analyseQuestion('Why would a factory move abroad, and whether it could?', [
      term('would', 3),
      term('factory', 2),
      term('whether', 3),
      term('could', 3),
    ]);
    expect(q.weights.get('factory')).toBe(2);
    for (const w of ['would', 'whether', 'could']) {
      expect(q.framing.has(w)).toBe(true);
      expect(q.weights.get(w)).toBeCloseTo(1.2);
    }
    // "must" and "may" are not framing: in rules and contracts the answer says them ("must notify within 72 hours").
    const must = analyseQuestion('When must we notify?', [term('must', 2), term('notify', 2)]);
    expect(must.framing.has('must')).toBe(false);
  });

  it('the verb closing a question of how long or how often frames it, and so does "worth it" or "actually"', () => {
    const loading = analyseQuestion('How long should carb loading last?', [term('carb', 2), term('loading', 2), term('last', 2)]);
    expect(loading.framing.has('last')).toBe(true);
    expect(loading.weights.get('last')).toBeCloseTo(0.8);
    expect(loading.weights.get('loading')).toBe(2);
    expect(analyseQuestion('How often does the filter run?', [term('filter', 2), term('run', 2)]).framing.has('run')).toBe(true);
    expect(analyseQuestion('Do soda taxes actually work?', [term('soda', 2), term('actually', 2)]).framing.has('actually')).toBe(true);
    // Elsewhere the same words are what is asked about: the last season, the cost of a licence, what a share is worth.
    expect(analyseQuestion('When did the last season air?', [term('last', 2), term('season', 2)]).framing.has('last')).toBe(false);
    expect(analyseQuestion('How much does a licence cost?', [term('licence', 2), term('cost', 2)]).framing.has('cost')).toBe(false);
    expect(analyseQuestion('What is a share worth?', [term('share', 2), term('worth', 2)]).framing.has('worth')).toBe(false);
  });

  it("a question word's one-word paraphrases are given as written for retrieval, never the word itself or a phrase", () => {
    expect(paraphraseSpellings('tell').sort()).toEqual(['inform', 'notify']);
    expect(paraphraseSpellings('told')).toEqual([]);
    expect(paraphraseSpellings('vomiting')).toEqual([]);
    expect(paraphraseSpellings('throw')).toEqual(['vomit']);
  });

  it('"biggest" finds "largest", and "bigger" "larger", as "big" finds "large"', () => {
    const q = analyseQuestion('What is the biggest fine, and is a bigger sample better?', [
      term('biggest', 3),
      term('fine', 2),
      term('bigger', 3),
      term('sample', 2),
    ]);
    expect([...matchText(q, 'The largest fine so far was 1.2 billion euros.').keys()].sort()).toEqual(['biggest', 'fine']);
    expect([...matchText(q, 'A larger sample narrows the interval.').keys()].sort()).toEqual(['bigger', 'sample']);
  });

  it('words the English stemmer joins but that mean different things stay apart ("senator" is not "Senate")', () => {
    const senat = (word: string) => (/^senat/.test(word) ? ['senat'] : [word]);
    const q = analyseQuestion('What is the minimum age to be a senator?', [{ ...term('senator', 2), lexeme: 'senat' }, term('age', 2)], senat);
    expect([...matchText(q, 'Those choices are left to the President and the Senate.').keys()]).toEqual([]);
    expect([...matchText(q, 'Senators serve six-year terms.').keys()]).toEqual(['senator']);
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

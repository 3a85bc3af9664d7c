import { describe, expect, it } from 'vitest';
import { wordFormAliases } from './query-expansion';
import { irregularForms } from './word-forms';

describe('irregular word forms', () => {
  it('gives the base and other forms of an irregular past form, which the stemmer cannot reach', async () => {
    expect((await irregularForms('wrote')).sort()).toEqual(['write', 'written']);
    expect((await irregularForms('Written')).sort()).toEqual(['write', 'wrote']);
    expect(await irregularForms('taught')).toEqual(['teach']);
  });

  it('gives the singular of an irregular plural', async () => {
    expect(await irregularForms('children')).toEqual(['child']);
    expect(await irregularForms('criteria')).toEqual(['criterion']);
    expect(await irregularForms('teeth')).toEqual(['tooth']);
  });

  it('does not widen a base form: "keep" is not looked up as "kept", nor "child" as "children"', async () => {
    for (const base of ['write', 'keep', 'eat', 'child', 'writing']) expect(await irregularForms(base)).toEqual([]);
  });

  it('leaves regular words, stop words, light verbs and forms that are mostly another word alone', async () => {
    for (const word of ['constitution', 'the', 'did', 'done', 'been', 'stepped', 'gave', 'took', 'made', 'came'])
      expect(await irregularForms(word)).toEqual([]);
    for (const homograph of ['found', 'left', 'saw', 'rose', 'felt', 'born', 'data', 'media']) expect(await irregularForms(homograph)).toEqual([]);
  });

  it('are looked up as aliases of the question word', async () => {
    expect(await wordFormAliases(['who', 'wrote', 'constitution'])).toEqual([
      { word: 'wrote', spelled: 'write' },
      { word: 'wrote', spelled: 'written' },
    ]);
  });
});

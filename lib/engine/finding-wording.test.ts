import { describe, expect, it } from 'vitest';
import { findingLikelihood, wordingFeatures } from './finding-wording';

// Sentences written for this test (none is from the abstracts the model was fitted on).
describe('finding wording', () => {
  it.each([
    'Mortality was significantly lower in the treated group (12% vs 20%, p = 0.01).',
    'There was no difference in length of stay between the two groups.',
    'These findings suggest that early mobilisation is safe after hip surgery.',
    'Early mobilisation did not increase the rate of falls.',
  ])('reads a finding as one: %s', (sentence) => {
    expect(findingLikelihood(sentence)).toBeGreaterThan(0.5);
  });

  it.each([
    'The aim of this study was to evaluate whether early mobilisation reduces length of stay.',
    'We conducted a retrospective review of all patients admitted between 2010 and 2015.',
    'Pressure ulcers are a common complication in elderly patients.',
    'Data were collected from hospital records and analysed with logistic regression.',
    'Whether early mobilisation is safe after hip surgery has not been established.',
  ])('reads a background, aim or method as none: %s', (sentence) => {
    expect(findingLikelihood(sentence)).toBeLessThan(0.5);
  });

  it('does not judge a statement in another language', () => {
    expect(findingLikelihood('En 2019, el 45% de los recursos fueron admitidos.')).toBeNull();
    expect(findingLikelihood('Der Bundestag wird auf vier Jahre gewählt.')).toBeNull();
  });

  it('describes a sentence by its stems, word pairs and marks', () => {
    expect(wordingFeatures('Rates were 12% lower (p < 0.05).')).toEqual(expect.arrayContaining(['#first:rat', 'wer_#num', '#p-value', '#percent']));
  });
});

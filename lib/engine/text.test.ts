import { describe, expect, it } from 'vitest';
import { countWords, lightStem, normalizeWhitespace, splitSentences, tokenize } from './text';

const sentences = (text: string) => splitSentences(text).map((s) => text.slice(s.start, s.end));

describe('splitSentences', () => {
  it('reads a long run of abbreviations as one sentence, and still ends the next one', () => {
    const run = 'Mr. '.repeat(50_000);
    expect(sentences(`${run}Then it ends. Next one.`)).toEqual([`${run}Then it ends.`, 'Next one.']);
  });

  it('tells a German date from a sentence end after a long sentence', () => {
    const long = `Die Frist ${'lang '.repeat(20)}endet am 31. März. Danach nicht.`;
    expect(sentences(long)).toEqual([`Die Frist ${'lang '.repeat(20)}endet am 31. März.`, 'Danach nicht.']);
  });

  it.each([
    ['One. Two! Three?', ['One.', 'Two!', 'Three?']],
    ['Dr. Smith met Mr. Jones. They talked.', ['Dr. Smith met Mr. Jones.', 'They talked.']],
    ['See e.g. the annex. Then stop.', ['See e.g. the annex.', 'Then stop.']],
    ['The U.S. Senate votes. It ended.', ['The U.S. Senate votes.', 'It ended.']],
    ['Er verfällt am 31. März des Folgejahres. Danach nicht.', ['Er verfällt am 31. März des Folgejahres.', 'Danach nicht.']],
    ['Sales rose 12. March was slower.', ['Sales rose 12.', 'March was slower.']],
    ['Pay 3.5 percent. Done.', ['Pay 3.5 percent.', 'Done.']],
    ['J. R. Tolkien wrote it. Yes.', ['J. R. Tolkien wrote it.', 'Yes.']],
    ['He said "stop." Then left.', ['He said "stop."', 'Then left.']],
    ['Brandenburg v. Ohio (1969) set the test. Next.', ['Brandenburg v. Ohio (1969) set the test.', 'Next.']],
    ['no final punctuation', ['no final punctuation']],
    ['Items follow: one, two. 2024 was busy.', ['Items follow: one, two.', '2024 was busy.']],
    [
      'Gekündigt wird mit einer Frist von zwei Wochen (§ 622 Abs. 3 BGB). Danach nicht.',
      ['Gekündigt wird mit einer Frist von zwei Wochen (§ 622 Abs. 3 BGB).', 'Danach nicht.'],
    ],
    ['Der Fonds hat 5 Mio. Euro, vgl. Nr. 4 der Liste. Ende.', ['Der Fonds hat 5 Mio. Euro, vgl. Nr. 4 der Liste.', 'Ende.']],
    ['Véase la pág. 12 del informe. Fin.', ['Véase la pág. 12 del informe.', 'Fin.']],
    ['Il fut construit vers 300 av. J.-C. par Mme Dupont. Fin.', ['Il fut construit vers 300 av. J.-C. par Mme Dupont.', 'Fin.']],
  ])('%s', (text, expected) => {
    expect(sentences(text)).toEqual(expected);
  });

  it('spans are verbatim slices and cover the text in order', () => {
    const text = 'Alpha beta. Gamma delta!  Epsilon?';
    const spans = splitSentences(text);
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThan(spans[i - 1]!.end);
    expect(spans.map((s) => text.slice(s.start, s.end)).join(' ')).toBe('Alpha beta. Gamma delta! Epsilon?');
  });
});

describe('helpers', () => {
  it('normalizeWhitespace collapses every kind of space', () => {
    expect(normalizeWhitespace('  a\n\tb\u00a0 c  ')).toBe('a b c');
  });
  it('countWords', () => {
    expect(countWords(' one two  three ')).toBe(3);
    expect(countWords('')).toBe(0);
  });
  it('tokenize folds case and accents', () => {
    expect(tokenize('Société GÉNÉRALE, 2024!')).toEqual(['societe', 'generale', '2024']);
  });
  it('tokenize keeps a "non-" compound as one word (a non-vertical line is no vertical line)', () => {
    expect(tokenize('Two non-vertical lines')).toEqual(['two', 'nonvertical', 'lines']);
  });
  it('lightStem conflates simple inflections', () => {
    expect(lightStem('policies')).toBe(lightStem('policy'));
    expect(lightStem('ratified')).toBe(lightStem('ratify'));
    expect(lightStem('votes')).toBe(lightStem('vote'));
    expect(lightStem('run')).toBe('run');
  });
});

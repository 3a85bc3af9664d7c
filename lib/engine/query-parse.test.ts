import { describe, expect, it } from 'vitest';
import { parseQuery } from './query-parse';

describe('parseQuery', () => {
  it('words are folded and deduplicated; the last word is the prefix candidate', () => {
    expect(parseQuery('What did the Société say about the société?')).toEqual({
      words: ['what', 'did', 'the', 'societe', 'say', 'about'],
      spelled: ['what', 'did', 'the', 'société', 'say', 'about'],
      phrases: [],
      prefixWord: 'societe',
      negations: [],
    });
  });
  it('keeps the typed spelling beside each folded word, so stop words are recognised as typed', () => {
    const q = parseQuery('Wofür gilt die Frist für Anträge?');
    expect(q.words).toContain('fur');
    expect(q.spelled[q.words.indexOf('fur')]).toBe('für');
  });
  it('quoted phrases (straight or curly) of two or more words', () => {
    expect(parseQuery('"freedom of speech" and “due process” "single"').phrases).toEqual([
      ['freedom', 'of', 'speech'],
      ['due', 'process'],
    ]);
  });
  it('no prefix after a closing quote or for very short words', () => {
    expect(parseQuery('cases about "due process"').prefixWord).toBeNull();
    expect(parseQuery('vitamin d').prefixWord).toBeNull();
  });
  it('tsquery syntax never survives', () => {
    const q = parseQuery("a & b | !c <-> d:* ' \\ (e)");
    expect(q.words.every((w) => /^[\p{L}\p{N}]+$/u.test(w))).toBe(true);
  });
  it('English contractions typed without their apostrophe are function words, as they are with it', () => {
    expect(parseQuery('whats the song cant get you out of my head').words).toEqual(['the', 'song', 'get', 'you', 'out', 'of', 'my', 'head']);
    expect(parseQuery("what's the song can't get").words).toEqual(['what', 's', 'the', 'song', 'can', 'get']);
    // Spellings that are words of their own stay.
    expect(parseQuery('were you ill').words).toEqual(['were', 'you', 'ill']);
  });
  it('a contraction\'s clitic is no word of its own: "I\'m" asks nothing about "m", "won\'t" nothing about winning', () => {
    expect(parseQuery("Should I stop metformin if I'm throwing up?").words).toEqual(['should', 'i', 'stop', 'metformin', 'if', 'throwing', 'up']);
    expect(parseQuery('If the vaccines aren’t given, we’re told they’ll wait').words).toEqual([
      'if',
      'the',
      'vaccines',
      'are',
      'given',
      'we',
      'told',
      'they',
      'wait',
    ]);
    expect(parseQuery("Why won't it start? I'd say it can't, shan't or isn't").words).toEqual([
      'why',
      'will',
      'it',
      'start',
      'i',
      'say',
      'can',
      'shall',
      'or',
      'is',
    ]);
    // What the index holds of a negation ("isn" of "isn't") is kept apart, to be looked up only where it occurs.
    expect(parseQuery("Why isn't it on? It wasn't, won't and can't be").negations).toEqual(['isn', 'wasn']);
    // Names with an apostrophe keep their letters.
    expect(parseQuery("O'Donnell and O'Neill's ruling").words).toEqual(['o', 'donnell', 'and', 'neill', 's', 'ruling']);
  });
  it('a request worded as a question is searched for what it asks about, not for its wording about asking', () => {
    expect(parseQuery('Could you outline the rights a data subject has?').words).toEqual(['you', 'rights', 'a', 'data', 'subject', 'has']);
    expect(parseQuery('Can the FSRA provide specific examples of material changes?').words).toEqual(['the', 'fsra', 'material', 'changes']);
    expect(parseQuery('Could you please elaborate on the waiver conditions?').words).toEqual(['you', 'the', 'waiver', 'conditions']);
    // A yes/no question with "provide" asks about providing; a request with nothing else keeps its words.
    expect(parseQuery('Can an employer provide housing instead of wages?').words).toContain('provide');
    expect(parseQuery('Could you explain?').words).toEqual(['could', 'you', 'explain']);
  });
  it('phrasal prepositions frame a question and are not searched for', () => {
    expect(parseQuery('In the context of fund management, how is a material change defined?').words.join(' ')).toBe(
      'fund management how is a material change defined',
    );
    expect(parseQuery('What duties apply with regard to client money?').words).toEqual(['what', 'duties', 'apply', 'client', 'money']);
    // The context asked about is a word like any other; a question of nothing but framing keeps it.
    expect(parseQuery('What is the context of the ruling?').words).toContain('context');
    expect(parseQuery('In terms of?').words).toEqual(['in', 'terms', 'of']);
  });
  it('empty input', () => {
    expect(parseQuery('?!').words).toEqual([]);
  });
});

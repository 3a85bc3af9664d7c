import { describe, expect, it } from 'vitest';
import { composeExtractiveAnswer, isRelevant, NO_ANSWER_TEXT, selectSentences } from './answer';
import type { QueryTerm, RetrievedChunk } from './retrieval';

const term = (word: string, lexeme: string, idf: number, docFreq = 1): QueryTerm => ({ word, lexeme, idf, docFreq });
const chunk = (id: number, content: string, score: number, extra: Partial<RetrievedChunk> = {}): RetrievedChunk => ({
  chunkId: id, documentId: `doc_${id}`, documentTitle: `Doc ${id}`, page: null, heading: null, content, tokenCount: 10, score, ...extra,
});

describe('extractive answers', () => {
  const terms = [term('glacier', 'glacier', 3), term('retreat', 'retreat', 2.5), term('rate', 'rate', 1)];

  it('picks the sentences carrying the query terms, cites each, and cuts nothing out of its excerpt', () => {
    const passages = [
      chunk(1, 'Unrelated opening sentence about budgets. Glaciers retreat at a rate of 30 metres a year. Closing remark on staffing levels.', 9),
      chunk(2, 'The retreat rate of the glacier doubled after 1990.', 6, { page: 3 }),
    ];
    const answer = composeExtractiveAnswer('How fast do glaciers retreat?', terms, passages);
    expect(answer.answer).toBe('Glaciers retreat at a rate of 30 metres a year. [1] The retreat rate of the glacier doubled after 1990. [2]');
    expect(answer.citations).toEqual([
      { document_id: 'doc_1', title: 'Doc 1', excerpt: 'Glaciers retreat at a rate of 30 metres a year.', page: null },
      { document_id: 'doc_2', title: 'Doc 2', excerpt: 'The retreat rate of the glacier doubled after 1990.', page: 3 },
    ]);
  });

  it('drops near-duplicate sentences', () => {
    const passages = [
      chunk(1, 'Glaciers retreat at a measured rate each year in the Alps.', 9),
      chunk(2, 'Glaciers retreat at a measured rate each year in the Alps!', 8),
    ];
    expect(selectSentences(terms, passages)).toHaveLength(1);
  });

  it('a sentence introducing a list brings the list items', () => {
    const passages = [chunk(1, 'Glacier retreat is measured in three ways:\n\nRepeat photography.\n\nGPS stakes drilled into the ice.\n\nSatellite altimetry.', 5)];
    const [first] = selectSentences(terms, passages);
    expect(first.text).toBe('Glacier retreat is measured in three ways:\n\nRepeat photography.\n\nGPS stakes drilled into the ice.\n\nSatellite altimetry.');
  });

  it('quantity questions prefer the sentence with a number', () => {
    const passages = [chunk(1, 'The glacier retreat rate is monitored by the survey team using stakes. The glacier retreat reached 30 metres in 2022.', 5)];
    const [first] = selectSentences(terms, passages, 'How many metres did the glacier retreat?');
    expect(first.text).toBe('The glacier retreat reached 30 metres in 2022.');
  });

  it('refuses when the passages hold too little of the question', () => {
    const wide = [term('glacier', 'glacier', 1), term('football', 'footbal', 6, 0), term('cup', 'cup', 6, 0)];
    const passages = [chunk(1, 'The glacier is large.', 3)];
    expect(isRelevant(wide, passages)).toBe(false);
    expect(composeExtractiveAnswer('glacier football cup', wide, passages)).toMatchObject({ answer: NO_ANSWER_TEXT, citations: [] });
    expect(isRelevant(terms, [chunk(1, 'Glaciers retreat quickly.', 3)])).toBe(true);
  });
});

import type { Citation, QueryAnswer } from '@/lib/query-answer';
import { fallbackLexicon, analyseQuestion, type Lexicon } from './question';
import { SENTENCE_WEIGHTS } from './answer-weights';
import { GATE_MODEL } from './gate-weights';
import type { SearchLanguage } from './language';
import { isRelevant, type GateModel } from './relevance-gate';
import type { QueryTerm, RetrievedChunk } from './retrieval';
import { MAX_EXCERPT_CHARS, PASSAGES_READ, selectSentences } from './sentence-ranker';
import { countTokens } from './tokens';

/**
 * Extractive answers: the sentences of the top passages most likely to answer the question, each followed by a
 * marker of the citation whose excerpt is that very text (a verbatim slice of the chunk, hence of the document's
 * page text).
 *
 * A sentence is scored by the share of the question's weight (IDF per question word) it covers, its section
 * heading and its paragraph's label ("Senator:", "Marbury v. Madison (1803).") counting as context; by whether it
 * carries the kind of answer asked for (answer-type.ts); and against restating the question or stating an aim or
 * background. A second document is cited only when its own passage would pass the relevance gate.
 */
export const NO_ANSWER_TEXT = 'No relevant information was found in this knowledge base for that question.';

/** Cuts an over-long excerpt at a word boundary; the result is still a verbatim prefix. */
function clipExcerpt(text: string): string {
  if (text.length <= MAX_EXCERPT_CHARS) return text;
  const cut = text.lastIndexOf(' ', MAX_EXCERPT_CHARS);
  return text.slice(0, cut > 200 ? cut : MAX_EXCERPT_CHARS);
}

export function noAnswer(query: string, passagesRead: RetrievedChunk[] = []): QueryAnswer {
  const read = passagesRead.reduce((n, p) => n + p.tokenCount, 0);
  return { answer: NO_ANSWER_TEXT, citations: [], tokens_used: countTokens(query) + read + countTokens(NO_ANSWER_TEXT) };
}

/** "Senator" + "Term of six years…" → "Senator: Term of six years…". */
function withContext(context: string | null, text: string): string {
  if (!context) return text;
  const name = context.replace(/[\s.:;,]+$/, '');
  // A statement that opens with its own label ("By state legislatures: ratification…") names it already.
  return text.startsWith(name) ? text : `${name}: ${text}`;
}

/** The learned parts of answer selection; the shipped ones unless a benchmark fits others (bench/engine-quality/lodo.ts). */
export interface ReaderModel {
  sentenceWeights: readonly number[];
  gate: GateModel;
}

export const READER_MODEL: ReaderModel = { sentenceWeights: SENTENCE_WEIGHTS, gate: GATE_MODEL };

export function composeExtractiveAnswer(query: string, terms: QueryTerm[], passages: RetrievedChunk[], lexicon?: Lexicon, options: { language?: SearchLanguage; model?: ReaderModel } = {}): QueryAnswer {
  const read = passages.slice(0, PASSAGES_READ);
  const model = options.model ?? READER_MODEL;
  const q = analyseQuestion(query, terms, lexicon ?? fallbackLexicon(terms), options.language);
  if (!isRelevant(terms, read, q, model.gate)) return noAnswer(query, read);
  const sentences = selectSentences(terms, read, query, q, model.sentenceWeights);
  if (sentences.length === 0) return noAnswer(query, read);
  const citations: Citation[] = [];
  const parts: string[] = [];
  let shownContext: string | null = null;
  for (const s of sentences) {
    const p = read[s.passage];
    const excerpt = clipExcerpt(p.content.slice(s.excerpt.start, s.excerpt.end));
    let index = citations.findIndex((c) => c.document_id === p.documentId && c.page === p.page && c.excerpt === excerpt);
    if (index < 0) {
      citations.push({ document_id: p.documentId, title: p.documentTitle, excerpt, page: p.page });
      index = citations.length - 1;
    }
    // Two items of one list, or two sentences under one label, name their context once.
    parts.push(`${withContext(s.context === shownContext ? null : s.context, s.shown ?? s.text)} [${index + 1}]`);
    shownContext = s.context;
  }
  const answer = parts.join(' ');
  const tokens = countTokens(query) + read.reduce((n, p) => n + p.tokenCount, 0) + countTokens(answer);
  return { answer, citations, tokens_used: tokens };
}

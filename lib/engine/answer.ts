import type { Citation, QueryAnswer } from '@/lib/query-answer';
import { itemAt } from '@/lib/platform/arrays';
import { fallbackLexicon, analyseQuestion, type Lexicon, type Question } from './question';
import { judgeAnswerable, type ReaderModel } from './answerable';
import type { SearchLanguage } from './language';
import type { QueryTerm, RetrievedChunk } from './types';
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

/** The abstention in the knowledge base's language (docs/api.md §8.1). */
export const NO_ANSWER_TEXTS: Record<SearchLanguage, string> = {
  en: NO_ANSWER_TEXT,
  es: 'No se encontró información relevante sobre esa pregunta en esta base de conocimiento.',
  de: 'In dieser Wissensdatenbank wurden zu dieser Frage keine relevanten Informationen gefunden.',
  fr: 'Aucune information pertinente n’a été trouvée dans cette base de connaissances pour cette question.',
};

/** Cuts an over-long excerpt at a word boundary; the result is still a verbatim prefix. */
function clipExcerpt(text: string): string {
  if (text.length <= MAX_EXCERPT_CHARS) return text;
  const cut = text.lastIndexOf(' ', MAX_EXCERPT_CHARS);
  return text.slice(0, cut > 200 ? cut : MAX_EXCERPT_CHARS);
}

export function noAnswer(query: string, passagesRead: RetrievedChunk[] = [], language: SearchLanguage = 'en'): QueryAnswer {
  const read = passagesRead.reduce((n, p) => n + p.tokenCount, 0);
  const answer = NO_ANSWER_TEXTS[language];
  return { answer, citations: [], tokens_used: countTokens(query) + read + countTokens(answer) };
}

/** "Senator" + "Term of six years…" → "Senator: Term of six years…". */
function withContext(context: string | null, text: string): string {
  if (!context) return text;
  const name = context.replace(/[\s.:;,]+$/, '');
  // A statement that opens with its own label ("By state legislatures: ratification…") names it already.
  return text.startsWith(name) ? text : `${name}: ${text}`;
}

export function composeExtractiveAnswer(
  query: string,
  terms: QueryTerm[],
  passages: RetrievedChunk[],
  lexicon?: Lexicon,
  options: { language?: SearchLanguage; model?: ReaderModel; question?: Question; gateThreshold?: number | null } = {},
): QueryAnswer {
  const read = passages.slice(0, PASSAGES_READ);
  const q = options.question ?? analyseQuestion(query, terms, lexicon ?? fallbackLexicon(terms), options.language);
  const judgement = judgeAnswerable(q, read, options.model, options.gateThreshold);
  if (!judgement.answerable) return noAnswer(query, read, q.language);
  const sentences = selectSentences(q, read, judgement.ranked);
  if (sentences.length === 0) return noAnswer(query, read, q.language);
  const citations: Citation[] = [];
  const parts: string[] = [];
  let shownContext: string | null = null;
  for (const s of sentences) {
    const p = itemAt(read, s.passage);
    const excerpt = clipExcerpt(p.content.slice(s.excerpt.start, s.excerpt.end));
    // One passage is cited once: a statement whose excerpt lies within another's (or holds it) shares its citation,
    // which keeps the longer excerpt.
    let index = citations.findIndex((c) => c.document_id === p.documentId && c.page === p.page && (c.excerpt.includes(excerpt) || excerpt.includes(c.excerpt)));
    const shared = citations[index];
    if (shared && excerpt.length > shared.excerpt.length) citations[index] = { ...shared, excerpt };
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

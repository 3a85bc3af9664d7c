import type { Citation, QueryAnswer } from '@/lib/query-answer';
import { itemAt } from '@/lib/platform/arrays';
import { fallbackLexicon, analyseQuestion, type Lexicon, type Question } from './question';
import { judgeLexically, type Judgement, type ReaderModel } from './answerable';
import type { SearchLanguage } from './language';
import type { QueryTerm, RetrievedChunk } from './types';
import { MAX_EXCERPT_CHARS, PASSAGES_READ } from './sentence-ranker';
import { selectSentences } from './sentence-selection';
import { countTokens } from './tokens';

/**
 * Extractive answers: the statements of the top passages most likely to answer the question, each followed by a
 * marker of the citation whose excerpt is that very text (a verbatim slice of the document's page text).
 */
export const NO_ANSWER_TEXT = 'No relevant information was found in this knowledge base for that question.';

export const NO_ANSWER_TEXTS: Record<SearchLanguage, string> = {
  en: NO_ANSWER_TEXT,
  es: 'No se encontró información relevante sobre esa pregunta en esta base de conocimiento.',
  de: 'In dieser Wissensdatenbank wurden zu dieser Frage keine relevanten Informationen gefunden.',
  fr: 'Aucune information pertinente n’a été trouvée dans cette base de connaissances pour cette question.',
};

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
  /** judgement: the gate's decision taken already (judgeAnswerable, with the encoder); without it the lexical gate decides. */
  options: { language?: SearchLanguage; model?: ReaderModel; question?: Question; gateThreshold?: number | null; judgement?: Judgement } = {},
): QueryAnswer {
  const read = passages.slice(0, PASSAGES_READ);
  const q = options.question ?? analyseQuestion(query, terms, lexicon ?? fallbackLexicon(terms), options.language);
  const judgement = options.judgement ?? judgeLexically(q, read, options.model, options.gateThreshold);
  if (!judgement.answerable) return noAnswer(query, read, q.language);
  const sentences = selectSentences(q, read, judgement.ranked);
  if (sentences.length === 0) return noAnswer(query, read, q.language);
  const citations: Citation[] = [];
  const parts: string[] = [];
  let shownContext: string | null = null;
  for (const s of sentences) {
    const p = itemAt(read, s.passage);
    const excerpt = clipExcerpt(p.content.slice(s.excerpt.start, s.excerpt.end));
    // One passage is cited once: a statement whose excerpt lies within another's shares its citation.
    let index = citations.findIndex((c) => c.document_id === p.documentId && c.page === p.page && (c.excerpt.includes(excerpt) || excerpt.includes(c.excerpt)));
    const shared = citations[index];
    if (shared && excerpt.length > shared.excerpt.length) citations[index] = { ...shared, excerpt };
    if (index < 0) {
      citations.push({ document_id: p.documentId, title: p.documentTitle, excerpt, page: p.page });
      index = citations.length - 1;
    }
    parts.push(`${withContext(s.context === shownContext ? null : s.context, s.shown ?? s.text)} [${index + 1}]`);
    shownContext = s.context;
  }
  const answer = parts.join(' ');
  const tokens = countTokens(query) + read.reduce((n, p) => n + p.tokenCount, 0) + countTokens(answer);
  return { answer, citations, tokens_used: tokens };
}

import type { Citation, QueryAnswer } from '@/lib/query-answer';
import type { RetrievedChunk } from './retrieval';
import { countTokens } from './tokens';

export const NO_ANSWER_TEXT = 'No relevant information was found in this knowledge base for that question.';

/** Extractive answer: first version takes the leading sentence of each top passage. */
export function composeAnswer(query: string, passages: RetrievedChunk[]): QueryAnswer {
  if (passages.length === 0) {
    return { answer: NO_ANSWER_TEXT, citations: [], tokens_used: countTokens(query) + countTokens(NO_ANSWER_TEXT) };
  }
  const top = passages.slice(0, 3);
  const citations: Citation[] = top.map((p) => ({
    document_id: p.documentId,
    title: p.documentTitle,
    excerpt: p.content.slice(0, 300),
    page: p.page,
  }));
  const answer = citations.map((c, i) => `${c.excerpt} [${i + 1}]`).join('\n\n');
  const tokens = countTokens(query) + top.reduce((n, p) => n + countTokens(p.content), 0) + countTokens(answer);
  return { answer, citations, tokens_used: tokens };
}

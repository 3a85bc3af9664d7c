import type { Citation, QueryAnswer } from '@/lib/query-answer';
import type { QueryTerm, RetrievedChunk } from './retrieval';
import { contentTerms, countWords, lightStem, splitSentences, tokenize, type Span } from './text';
import { countTokens } from './tokens';

/**
 * Extractive answers: the sentences of the top passages that cover the most query weight, de-duplicated, each
 * followed by a marker of the citation whose excerpt is that very sentence (a verbatim slice of the chunk, hence of
 * the document's page text).
 */
export const NO_ANSWER_TEXT = 'No relevant information was found in this knowledge base for that question.';
/** Passages whose sentences are considered (and whose tokens count as read). */
export const PASSAGES_READ = 5;
export const MAX_ANSWER_SENTENCES = 3;
/** Share of the query's IDF weight the best passage must cover for the knowledge base to be said to answer. */
export const MIN_COVERAGE = 0.2;
const MAX_EXCERPT_CHARS = 600;

export interface SentenceCandidate {
  passage: number;
  text: string;
  span: Span;
  score: number;
  terms: Set<string>;
}

/** Which query terms a word list contains (Snowball lexeme as prefix, or the same light stem as the query word). */
function matchedTerms(words: string[], terms: QueryTerm[]): Set<string> {
  const found = new Set<string>();
  const stems = new Set(words.map(lightStem));
  for (const t of terms) {
    if (found.has(t.lexeme)) continue;
    if (stems.has(lightStem(t.word)) || words.some((w) => w === t.lexeme || (t.lexeme.length >= 4 && w.startsWith(t.lexeme)))) found.add(t.lexeme);
  }
  return found;
}

function weight(terms: QueryTerm[], matched: Set<string>): number {
  let sum = 0;
  for (const t of terms) if (matched.has(t.lexeme)) sum += t.idf;
  return sum;
}

/** Query weight: every term, those absent from the knowledge base included (they are what the buyer asked about). */
export function queryWeight(terms: QueryTerm[]): number {
  const byWord = new Map<string, number>();
  for (const t of terms) byWord.set(t.word, Math.max(byWord.get(t.word) ?? 0, t.idf));
  return [...byWord.values()].reduce((a, b) => a + b, 0);
}

/** Sentence spans of a chunk, paragraph by paragraph (chunks keep blank lines between paragraphs). */
export function chunkSentences(content: string): Span[] {
  const spans: Span[] = [];
  const para = /[^\n]+/g;
  for (let m = para.exec(content); m; m = para.exec(content)) {
    for (const s of splitSentences(m[0])) spans.push({ start: m.index + s.start, end: m.index + s.end });
  }
  return spans;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / Math.max(1, a.size + b.size - inter);
}

/**
 * Does a top passage cover enough of the question to count as an answer? It must hold at least two of the
 * question's words (one for a one-word question) and a share of the question's IDF weight, words absent from the
 * knowledge base weighing most. Measured on the evaluation set (bench/engine-quality): every on-topic question
 * passes, almost every off-topic one is refused.
 */
export function isRelevant(terms: QueryTerm[], passages: RetrievedChunk[]): boolean {
  if (passages.length === 0) return false;
  const total = queryWeight(terms);
  if (total <= 0) return false;
  const words = new Set(terms.map((t) => t.word));
  const needWords = Math.min(2, words.size);
  return passages.slice(0, 3).some((p) => {
    const matched = matchedTerms(tokenize(`${p.heading ?? ''} ${p.content}`), terms);
    const byWord = new Map<string, number>();
    for (const t of terms) if (matched.has(t.lexeme)) byWord.set(t.word, Math.max(byWord.get(t.word) ?? 0, t.idf));
    const covered = [...byWord.values()].reduce((a, b) => a + b, 0);
    return byWord.size >= needWords && covered / total >= MIN_COVERAGE;
  });
}

const QUANTITY_QUESTION =
  /\b(how (many|much|long|far|often|old|soon|fast|quickly|large|big|high|low|early|late)|what (age|year|date|percentage|proportion|share|amount|dose|size|length|number|level|threshold|deadline|period|minimum|maximum|limit|rate)|when|which year|by how much|what is the (minimum|maximum|limit|deadline|threshold|top|highest|lowest))\b/i;
const NUMBER = /\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|thousand|million|billion|half|quarter|third|first|second|once|twice|annually|monthly|weekly|daily)\b/i;

export function selectSentences(terms: QueryTerm[], passages: RetrievedChunk[], query = ''): SentenceCandidate[] {
  const wantsNumber = QUANTITY_QUESTION.test(query);
  const read = passages.slice(0, PASSAGES_READ);
  const topScore = read[0]?.score || 1;
  const candidates: SentenceCandidate[] = [];
  read.forEach((p, index) => {
    const headingTerms = matchedTerms(tokenize(p.heading ?? ''), terms);
    const spans = chunkSentences(p.content);
    spans.forEach((sentence, i) => {
      const own = p.content.slice(sentence.start, sentence.end);
      // Only a sentence that itself holds a query term is a candidate (its extension below is context).
      if (matchedTerms(tokenize(own), terms).size === 0) return;
      let span = sentence;
      if (/:$/.test(own)) {
        // "…are as follows:" introduces a list: bring the items along (a few, up to ~70 words).
        let j = i + 1;
        let added = 0;
        while (j < spans.length && j <= i + 5 && added < 70) {
          added += countWords(p.content.slice(spans[j].start, spans[j].end));
          span = { start: sentence.start, end: spans[j].end };
          j++;
        }
      } else if (spans[i + 1] && countWords(own) < 10) {
        // A very short sentence says little alone: keep its successor with it.
        span = { start: sentence.start, end: spans[i + 1].end };
      }
      const text = p.content.slice(span.start, span.end);
      if (countWords(text) < 4) return;
      const matched = matchedTerms(tokenize(text), terms);
      if (matched.size === 0) return;
      // Sentence weight, a little credit for terms only in the section heading, scaled by the passage's rank.
      let headingOnly = 0;
      for (const t of terms) if (headingTerms.has(t.lexeme) && !matched.has(t.lexeme)) headingOnly += t.idf * 0.3;
      let score = (weight(terms, matched) + headingOnly) * (0.55 + 0.45 * (p.score / topScore));
      // A question asking for a quantity, a date or an age is answered by a sentence with a number in it.
      if (wantsNumber && NUMBER.test(text)) score *= 1.35;
      candidates.push({ passage: index, text, span, score, terms: new Set(contentTerms(text)) });
    });
  });
  candidates.sort((a, b) => b.score - a.score || a.passage - b.passage || a.span.start - b.span.start);
  const chosen: SentenceCandidate[] = [];
  const perPassage = new Map<number, number>();
  const best = candidates[0]?.score ?? 0;
  // The best passage leads: its best sentence comes first even when another passage has a wordier match.
  const lead = candidates.find((c) => c.passage === 0);
  const ordered = lead && lead.score >= best * 0.6 ? [lead, ...candidates.filter((c) => c !== lead)] : candidates;
  for (const c of ordered) {
    if (chosen.length >= MAX_ANSWER_SENTENCES) break;
    if (c.score < best * 0.45) break;
    if ((perPassage.get(c.passage) ?? 0) >= 2) continue;
    if (chosen.some((x) => x.text === c.text || jaccard(x.terms, c.terms) >= 0.6)) continue;
    if (chosen.some((x) => x.passage === c.passage && x.span.start < c.span.end && c.span.start < x.span.end)) continue;
    chosen.push(c);
    perPassage.set(c.passage, (perPassage.get(c.passage) ?? 0) + 1);
  }
  return chosen;
}

/** Cuts an over-long sentence at a word boundary; the result is still a verbatim prefix. */
function clipExcerpt(text: string): string {
  if (text.length <= MAX_EXCERPT_CHARS) return text;
  const cut = text.lastIndexOf(' ', MAX_EXCERPT_CHARS);
  return text.slice(0, cut > 200 ? cut : MAX_EXCERPT_CHARS);
}

export function noAnswer(query: string, passagesRead: RetrievedChunk[] = []): QueryAnswer {
  const read = passagesRead.reduce((n, p) => n + p.tokenCount, 0);
  return { answer: NO_ANSWER_TEXT, citations: [], tokens_used: countTokens(query) + read + countTokens(NO_ANSWER_TEXT) };
}

export function composeExtractiveAnswer(query: string, terms: QueryTerm[], passages: RetrievedChunk[]): QueryAnswer {
  const read = passages.slice(0, PASSAGES_READ);
  if (!isRelevant(terms, read)) return noAnswer(query, read);
  const sentences = selectSentences(terms, read, query);
  if (sentences.length === 0) return noAnswer(query, read);
  const citations: Citation[] = [];
  const parts: string[] = [];
  for (const s of sentences) {
    const p = read[s.passage];
    const excerpt = clipExcerpt(s.text);
    let index = citations.findIndex((c) => c.document_id === p.documentId && c.page === p.page && c.excerpt === excerpt);
    if (index < 0) {
      citations.push({ document_id: p.documentId, title: p.documentTitle, excerpt, page: p.page });
      index = citations.length - 1;
    }
    parts.push(`${s.text} [${index + 1}]`);
  }
  const answer = parts.join(' ');
  const tokens = countTokens(query) + read.reduce((n, p) => n + p.tokenCount, 0) + countTokens(answer);
  return { answer, citations, tokens_used: tokens };
}

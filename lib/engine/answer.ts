import type { Citation, QueryAnswer } from '@/lib/query-answer';
import { carriesAnswerType, describesMethod, isAimOrBackground, questionAnswerType, statesFinding, STRONG_TYPES, type AnswerType } from './answer-type';
import type { QueryTerm, RetrievedChunk } from './retrieval';
import { countWords, lightStem, splitSentences, STOP_WORDS, tokenize, type Span } from './text';
import { countTokens } from './tokens';
import { SENTENCE_WEIGHTS } from './answer-weights';

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
/** Passages whose sentences are considered (and whose tokens count as read). */
export const PASSAGES_READ = 5;
export const MAX_ANSWER_SENTENCES = 3;
const MAX_EXCERPT_CHARS = 600;

/**
 * The relevance gate, calibrated on the tuning part of bench/engine-quality (on-topic questions against the 75
 * off-topic ones in five domains and four languages). One of the top three passages must hold at least two of the
 * question's words (one for a question of one or two words) and MIN_COVERAGE of its weight, and show them together: one
 * sentence (with its heading and label) holding MIN_SENTENCE_COVERAGE of the weight, or two question words in a row.
 */
export const MIN_COVERAGE = 0.2;
export const MIN_SENTENCE_COVERAGE = 0.2;

/** Folded word → the lexemes the knowledge base's stemmer gives it (empty for a stop word). */
export type Lexicon = (word: string) => readonly string[];

/**
 * A lexicon without the database (unit tests, and words the database was not asked about): the English light
 * stemmer, a lexeme as a prefix of the word, or the word itself.
 */
export function fallbackLexicon(terms: QueryTerm[]): Lexicon {
  return (word) => {
    if (STOP_WORDS.has(word)) return [];
    const stem = lightStem(word);
    const out = terms.filter((t) => lightStem(t.word) === stem || word === t.lexeme || (t.lexeme.length >= 4 && word.startsWith(t.lexeme))).map((t) => t.lexeme);
    return out.length ? out : [stem];
  };
}

/** A lexicon from the database's answer (lexemesOf), falling back for words it was not asked about. */
export function mapLexicon(map: Map<string, string[]>, terms: QueryTerm[]): Lexicon {
  const fallback = fallbackLexicon(terms);
  return (word) => map.get(word) ?? fallback(word);
}

/** The question as answer selection sees it: its words with their weights and lexemes, and the answer type. */
export interface Question {
  text: string;
  type: AnswerType | null;
  /** Question word → its weight (the highest IDF of its lexemes; words absent from the knowledge base weigh most). */
  weights: Map<string, number>;
  total: number;
  /** Lexeme → question word and the lexeme's IDF. */
  byLexeme: Map<string, { word: string; idf: number }>;
  /** Question words in question order (for adjacency). */
  order: string[];
  /** Question words that occur in the knowledge base. */
  present: Set<string>;
  /** Text → the question words it holds (matchText's memory for this question). */
  matched: Map<string, Map<string, number>>;
  /** Question words that only frame the question ("still", "often", "keep"). */
  framing: Set<string>;
  lexicon: Lexicon;
}

/**
 * Words that frame a question rather than name its topic ("how often", "keep", "made", "change"): they count for
 * less, so that a shared "often" or "set" does not make a question about timing belts or tennis look answered.
 */
const FRAMING_WORDS = new Set(
  (
    'keep add make made set often many much change use need get take give best way work happen long first new good kind type thing ' +
    'usual typical mean call tell find know show help want like right go come put look start begin end stop try happen possible ' +
    'still also just ever even yet already really please thank thanks hello hi okay ok anyone anything something ' +
    'hacer tener mejor manera forma cosa bueno nuevo primero mucho saber ' +
    'machen haben gut besser beste art weise sache neu erste viel oft konnen sollen mussen wissen ' +
    'faire avoir meilleur maniere facon chose bon nouveau premier beaucoup souvent savoir'
  ).split(' '),
);
const FRAMING_WEIGHT = 0.4;

export function analyseQuestion(text: string, terms: QueryTerm[], lexicon: Lexicon = fallbackLexicon(terms)): Question {
  const weights = new Map<string, number>();
  const byLexeme = new Map<string, { word: string; idf: number }>();
  const framing = new Set<string>();
  for (const t of terms) {
    const framed = FRAMING_WORDS.has(t.word) || FRAMING_WORDS.has(lightStem(t.word));
    if (framed) framing.add(t.word);
    const idf = framed ? t.idf * FRAMING_WEIGHT : t.idf;
    weights.set(t.word, Math.max(weights.get(t.word) ?? 0, idf));
    if (!byLexeme.has(t.lexeme)) byLexeme.set(t.lexeme, { word: t.word, idf });
  }
  const total = [...weights.values()].reduce((a, b) => a + b, 0);
  const present = new Set(terms.filter((t) => t.docFreq > 0).map((t) => t.word));
  return { text, type: questionAnswerType(text), weights, total, byLexeme, order: [...weights.keys()], present, lexicon, matched: new Map(), framing };
}

/** Query weight: every term, those absent from the knowledge base included (they are what the buyer asked about). */
export function queryWeight(terms: QueryTerm[]): number {
  return analyseQuestion('', terms).total;
}

/** Question word → the weight covered (the highest IDF among the lexemes found), for the words of a text. */
function matchWords(q: Question, words: string[]): Map<string, number> {
  const found = new Map<string, number>();
  for (const w of words) {
    for (const lexeme of q.lexicon(w)) {
      const hit = q.byLexeme.get(lexeme);
      if (hit) found.set(hit.word, Math.max(found.get(hit.word) ?? 0, hit.idf));
    }
  }
  return found;
}

/** matchWords over a text's words, remembered per question (the same sentences are read several times). */
function matchText(q: Question, text: string): Map<string, number> {
  let hit = q.matched.get(text);
  if (!hit) {
    hit = matchWords(q, tokenize(text));
    q.matched.set(text, hit);
  }
  return hit;
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/** Two question words in a row in the text (a stop word between them allowed): phrase evidence. */
function hasAdjacentPair(q: Question, words: string[]): boolean {
  if (q.order.length < 2) return false;
  const next = new Map<string, Set<string>>();
  for (let i = 0; i + 1 < q.order.length; i++) {
    if (!next.has(q.order[i])) next.set(q.order[i], new Set());
    next.get(q.order[i])!.add(q.order[i + 1]);
  }
  let previous: Set<string> = new Set();
  let gap = 0;
  for (const w of words) {
    const lexemes = q.lexicon(w);
    if (lexemes.length === 0) {
      if (++gap > 1) previous = new Set();
      continue;
    }
    const current = new Set<string>();
    for (const l of lexemes) {
      const hit = q.byLexeme.get(l);
      if (hit) current.add(hit.word);
    }
    for (const p of previous) for (const c of current) if (next.get(p)?.has(c)) return true;
    previous = current;
    gap = 0;
  }
  return false;
}

/** Sentence spans of a chunk, paragraph by paragraph (chunks keep blank lines between paragraphs). */
export function chunkSentences(content: string): Span[] {
  return chunkParagraphs(content).flatMap((p) => p.sentences);
}

interface Paragraph {
  start: number;
  end: number;
  sentences: Span[];
  /** A leading label ("Senator", "Marbury v. Madison (1803)"), the context of the paragraph's other sentences. */
  label: { text: string; end: number } | null;
  /** A table row ("a; b; c", as the parsers flatten tables): the header row above it is its context. */
  row: boolean;
  header: string | null;
}

/** Inline list items flattened into one paragraph ("…5 degrees C. - Frozen vaccines: …") are sentences of their own. */
function splitBullets(text: string, spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of spans) {
    let start = s.start;
    const piece = text.slice(s.start, s.end);
    for (const m of piece.matchAll(/[.;:!?]\s+(?=[-–•]\s+\S)/g)) {
      const end = s.start + m.index + 1;
      if (end > start) out.push({ start, end });
      start = s.start + m.index + m[0].length;
    }
    if (s.end > start) out.push({ start, end: s.end });
  }
  return out;
}

const isTableRow = (text: string) => (text.match(/; /g)?.length ?? 0) >= 1 && !/[.!?]$/.test(text.trim()) && text.length < 400;

const LABEL_CONNECTORS = new Set(['v', 'v.', 'vs', 'vs.', 'of', 'the', 'and', 'for', 'on', 'in', 'de', 'del', 'la', 'el', 'y', 'der', 'die', 'das', 'und', 'von', 'le', 'les', 'des', 'et', 'du']);

/** "Senator: at least 30…" → "Senator"; "Marbury v. Madison (1803). William…" → "Marbury v. Madison (1803)". */
function paragraphLabel(text: string, first: Span | undefined, sentenceCount: number): { text: string; end: number } | null {
  const colon = /^([^:.!?\n]{2,60}):\s+\S/.exec(text);
  if (colon && countWords(colon[1]) <= 6) return { text: colon[1].trim(), end: colon[1].length + 1 };
  if (!first || sentenceCount < 2) return null;
  const sentence = text.slice(first.start, first.end);
  const words = sentence.replace(/[.!?]+$/, '').split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 8) return null;
  const titled = words.filter((w) => /^[\p{Lu}\p{N}(§]/u.test(w) || LABEL_CONNECTORS.has(w.toLowerCase())).length;
  if (titled < words.length || !/^\p{Lu}/u.test(words[0])) return null;
  return { text: sentence.replace(/[.:]+$/, '').trim(), end: first.end };
}

function chunkParagraphs(content: string): Paragraph[] {
  const out: Paragraph[] = [];
  const para = /[^\n]+/g;
  let header: string | null = null;
  for (let m = para.exec(content); m; m = para.exec(content)) {
    const local = splitBullets(m[0], splitSentences(m[0]));
    const row = isTableRow(m[0]);
    const label = row ? null : paragraphLabel(m[0], local[0], local.length);
    out.push({
      start: m.index,
      end: m.index + m[0].length,
      sentences: local.map((s) => ({ start: m!.index + s.start, end: m!.index + s.end })),
      label: label ? { text: label.text, end: m.index + label.end } : null,
      row,
      header: row ? header : null,
    });
    // The first row of a run of rows is the table's header.
    header = row ? (header ?? m[0]) : null;
  }
  return out;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / Math.max(1, a.size + b.size - inter);
}

/** What a passage holds of the question: the evidence the relevance gate weighs. */
export interface PassageEvidence {
  /** Share of the question's weight found anywhere in the passage (heading included). */
  coverage: number;
  /** Question words found. */
  words: number;
  /** Question words found that name something (not only framing words such as "still" or "often"). */
  topical: number;
  /** The best share held by one sentence with its section heading and paragraph label. */
  sentenceCoverage: number;
  /** Two question words in a row somewhere in the passage. */
  phrase: boolean;
}

function headingParts(p: RetrievedChunk): { section: string; upper: string } {
  const parts = (p.heading ?? '').split(' > ').filter(Boolean);
  if (parts.length <= 1) return { section: '', upper: parts.join(' ') };
  return { section: parts[parts.length - 1], upper: parts.slice(0, -1).join(' ') };
}

export function passageEvidence(q: Question, p: RetrievedChunk): PassageEvidence {
  if (q.total <= 0) return { coverage: 0, words: 0, topical: 0, sentenceCoverage: 0, phrase: false };
  const { section, upper } = headingParts(p);
  const all = matchText(q, `${p.heading ?? ''} ${p.content}`);
  const sectionWords = matchText(q, section);
  let best = 0;
  let phrase = hasAdjacentPair(q, tokenize(section)) || hasAdjacentPair(q, tokenize(upper));
  for (const para of chunkParagraphs(p.content)) {
    const label = para.label ? matchText(q, para.label.text) : new Map<string, number>();
    for (const s of para.sentences) {
      const words = tokenize(p.content.slice(s.start, s.end));
      const own = matchWords(q, words);
      const merged = new Map([...sectionWords, ...label, ...own]);
      best = Math.max(best, sum(merged) / q.total);
      if (!phrase && hasAdjacentPair(q, words)) phrase = true;
    }
  }
  const topical = [...all.keys()].filter((w) => !q.framing.has(w)).length;
  return { coverage: sum(all) / q.total, words: all.size, topical, sentenceCoverage: best, phrase };
}

function passesGate(q: Question, e: PassageEvidence): boolean {
  // Two of the question's words, unless it has only two ("Was gehört in einen Datenmanagementplan?"): then coverage decides.
  const needWords = q.weights.size >= 3 ? 2 : 1;
  // "Still there?" names nothing: framing words alone never make an answer.
  return e.topical >= 1 && e.words >= needWords && e.coverage >= MIN_COVERAGE && (e.sentenceCoverage >= MIN_SENTENCE_COVERAGE || e.phrase);
}

/** Does one of the top passages answer enough of the question for the knowledge base to be said to answer? */
export function isRelevant(terms: QueryTerm[], passages: RetrievedChunk[], question?: Question): boolean {
  const q = question ?? analyseQuestion('', terms);
  if (passages.length === 0 || q.total <= 0) return false;
  return passages.slice(0, 3).some((p) => passesGate(q, passageEvidence(q, p)));
}

export interface SentenceCandidate {
  passage: number;
  /** The verbatim text of the statement (one sentence, or a short one with its successor, or a list intro with items). */
  text: string;
  span: Span;
  /** Context shown before the statement when it needs it ("Senator", "Marbury v. Madison (1803)"). */
  context: string | null;
  /** The excerpt's span: the statement, or its paragraph from the label on when that is short enough. */
  excerpt: Span;
  score: number;
  terms: Set<string>;
}

/** How far below the best statement (in log-odds) another may follow it, from its own document or from another. */
const FOLLOW_MARGIN = 2.5;
const OTHER_DOCUMENT_MARGIN = 0.3;

const REFERS_BACK = /^(the|this|these|that|those|it|they|such|el|la|los|las|este|esta|dieser|diese|dieses|der|die|das|es|ce|cette|ces|il|elle)\b/i;
/** A sentence that leans on the one before it ("It killed…", "They ate…", "Between 1347 and 1351 it killed…"). */
const LEANS_BACK = /^(\S+\s+){0,4}(it|they|he|she|its|their|this|these|those|them|such|ello|ellos|ellas|er|sie|es|il|ils|elle|elles)\b/i;

/** The text without the numbers the question itself gives ("1347", "12"): an answer is a number the question lacks. */
function withoutQuestionNumbers(text: string, question: string): string {
  const own = new Set(question.match(/\d[\d.,/]*/g) ?? []);
  return own.size ? text.replace(/\d[\d.,/]*/g, (n) => (own.has(n) ? ' ' : n)) : text;
}

export function selectSentences(terms: QueryTerm[], passages: RetrievedChunk[], query = '', question?: Question): SentenceCandidate[] {
  const q = question ?? analyseQuestion(query, terms);
  if (q.total <= 0) return [];
  const read = passages.slice(0, PASSAGES_READ);
  const evidence = read.map((p) => passageEvidence(q, p));
  return chooseSentences(q, read, evidence, rankSentences(q, read));
}

/**
 * What answer selection knows about a candidate statement, each scaled to about 0..1. The score is their weighted
 * sum with SENTENCE_WEIGHTS (answer-weights.ts), fitted by bench/engine-quality/train-ranker.ts on the tuning part of
 * the evaluation set: the log-odds, among the statements of the passages read, that this one carries the answer.
 */
export const SENTENCE_FEATURES = [
  'own coverage', // share of the question's weight in the statement itself
  'context coverage', // ... only in its paragraph label, table header, section heading or lead-in sentence
  'window coverage', // ... only in the sentence before it
  'upper heading coverage', // ... only in the document title or higher headings
  'passage score', // retrieval score of its passage relative to the best
  'passage rank', // 0 for the first passage, 1 for the fifth
  'strong type carried', // a case name, provision, duration or number when one is asked for
  'strong type missing',
  'weak type carried', // a date or condition, definition, person, reason when one is asked for
  'type in label', // the label supplies the answer type ("Marbury v. Madison (1803).")
  'restates the question', // at most two words not in the question
  'fresh words', // log of words not in the question
  'aim or background',
  'question mark',
  'length', // log of its words
  'first in paragraph',
  'other label', // under a label that does not name what was asked while another label does
  'table header',
  'table row',
  'question words share', // distinct question words in the statement / question words
  'rarest word', // holds the question's heaviest word that occurs in the knowledge base
  'adjacent pair', // two question words in a row
  'new number', // a number the question does not give
  'lead-in', // brings the sentence before it
  'list', // a list introduction with its items
  'finding', // states a result or a comparison
  'method or example', // describes how a study or an example was set up
  'topic as subject', // share of the question's weight in its first six words
] as const;

export interface RankedCandidate extends SentenceCandidate {
  features: number[];
}

/** Every candidate statement of the passages read, best first, with its features. */
export function rankSentences(q: Question, passages: RetrievedChunk[], weights: readonly number[] = SENTENCE_WEIGHTS): RankedCandidate[] {
  if (q.total <= 0) return [];
  const read = passages.slice(0, PASSAGES_READ);
  const topScore = read[0]?.score || 1;
  const strong = q.type !== null && STRONG_TYPES.has(q.type);
  const questionLexemes = new Set(q.byLexeme.keys());
  const candidates: RankedCandidate[] = [];
  let rarest: string | null = null;
  for (const [w, weight] of q.weights) if (q.total > 0 && (rarest === null || weight > q.weights.get(rarest)!) && presentWords(q).has(w)) rarest = w;

  read.forEach((p, index) => {
    const { section, upper } = headingParts(p);
    const sectionWords = matchText(q, section);
    const upperWords = matchText(q, upper);
    const paragraphs = chunkParagraphs(p.content);
    // Labelled paragraphs side by side ("Representative: …", "Senator: …"): when one label names what was asked,
    // the others are about something else.
    const labelMatched = paragraphs.some((para) => para.label && matchText(q, para.label.text).size > 0);
    const allSpans = paragraphs.flatMap((para) => para.sentences.map((s) => ({ s, para })));
    allSpans.forEach(({ s: sentence, para }, i) => {
      const own = p.content.slice(sentence.start, sentence.end);
      // Only a sentence that itself holds a question word is a candidate (its extension below is context).
      if (matchText(q, own).size === 0) return;
      let span = sentence;
      let list = false;
      if (/:$/.test(own)) {
        // "…are as follows:" introduces a list: bring the items along (a few, up to ~70 words).
        let j = i + 1;
        let added = 0;
        while (j < allSpans.length && j <= i + 5 && added < 70) {
          added += countWords(p.content.slice(allSpans[j].s.start, allSpans[j].s.end));
          span = { start: sentence.start, end: allSpans[j].s.end };
          list = true;
          j++;
        }
      } else if (allSpans[i + 1]?.para === para && countWords(own) < 10 && !(para.label && para.label.end >= sentence.end)) {
        // A very short sentence says little alone: keep its successor in the same paragraph with it.
        span = { start: sentence.start, end: allSpans[i + 1].s.end };
      }
      // A sentence that leans on its predecessor ("Between 1347 and 1351 it killed…") brings it along as its lead-in;
      // any other takes the question words of the sentence before it in its paragraph as weaker context: a topic is
      // often set up by one sentence and answered by the next.
      const previous = allSpans[i - 1];
      let leadIn: Map<string, number> = new Map();
      const window = previous?.para === para ? matchText(q, p.content.slice(previous.s.start, previous.s.end)) : new Map<string, number>();
      if (previous?.para === para && LEANS_BACK.test(own) && !(para.label && para.label.end >= previous.s.end)) {
        const prevText = p.content.slice(previous.s.start, previous.s.end);
        if (countWords(prevText) + countWords(p.content.slice(span.start, span.end)) <= 70) {
          leadIn = matchText(q, prevText);
          span = { start: previous.s.start, end: span.end };
        }
      }
      const text = p.content.slice(span.start, span.end);
      if (countWords(text) < 3) return;
      const words = tokenize(text);
      const ownWords = matchWords(q, words);
      // The paragraph's label is context for the sentences after it (the label's own sentence already holds it).
      const label = para.label && para.label.end <= sentence.start ? para.label : null;
      const labelWords = label ? matchText(q, label.text) : para.header ? matchText(q, para.header) : new Map<string, number>();
      const contextOnly = new Map<string, number>();
      for (const [w, idf] of [...labelWords, ...sectionWords, ...leadIn]) if (!ownWords.has(w)) contextOnly.set(w, Math.max(contextOnly.get(w) ?? 0, idf));
      let upperOnly = 0;
      for (const [w, idf] of upperWords) if (!ownWords.has(w) && !contextOnly.has(w)) upperOnly += idf;
      let windowOnly = 0;
      for (const [w, idf] of window) if (!ownWords.has(w) && !contextOnly.has(w) && !upperWords.has(w)) windowOnly += idf;

      // The kind of answer asked for: in the sentence, or supplied by its label.
      let typeInLabel = false;
      let typed = false;
      if (q.type) {
        typed = carriesAnswerType(q.type, withoutQuestionNumbers(p.content.slice(sentence.start, span.end), q.text));
        if (!typed && label && carriesAnswerType(q.type, label.text)) typed = typeInLabel = true;
      }
      const fresh = new Set(words.filter((w) => !q.lexicon(w).some((l) => questionLexemes.has(l)) && q.lexicon(w).length > 0));
      const features = [
        sum(ownWords) / q.total,
        sum(contextOnly) / q.total,
        windowOnly / q.total,
        upperOnly / q.total,
        p.score / topScore,
        index / Math.max(1, PASSAGES_READ - 1),
        typed && strong ? 1 : 0,
        !typed && strong ? 1 : 0,
        typed && !strong ? 1 : 0,
        typeInLabel ? 1 : 0,
        fresh.size <= 2 ? 1 : 0,
        Math.log1p(fresh.size) / 3,
        isAimOrBackground(text) ? 1 : 0,
        /\?\s*$/.test(text) ? 1 : 0,
        Math.log1p(words.length) / 4,
        para.sentences[0]?.start === sentence.start ? 1 : 0,
        label && labelWords.size === 0 && labelMatched ? 1 : 0,
        para.row && !para.header ? 1 : 0,
        para.row ? 1 : 0,
        ownWords.size / Math.max(1, q.weights.size),
        rarest !== null && ownWords.has(rarest) ? 1 : 0,
        hasAdjacentPair(q, words) ? 1 : 0,
        /\d/.test(withoutQuestionNumbers(text, q.text)) ? 1 : 0,
        leadIn.size > 0 || span.start < sentence.start ? 1 : 0,
        list ? 1 : 0,
        statesFinding(own) ? 1 : 0,
        describesMethod(own) ? 1 : 0,
        sum(matchWords(q, tokenize(own).slice(0, 6))) / q.total,
      ];
      let score = 0;
      for (let k = 0; k < features.length; k++) score += (weights[k] ?? 0) * features[k];

      const needsContext = label && (typeInLabel || labelWords.size > 0 || REFERS_BACK.test(text));
      const sectionNeeded = !needsContext && section && [...sectionWords.keys()].some((w) => !ownWords.has(w)) && REFERS_BACK.test(text);
      const context = needsContext ? label!.text : sectionNeeded ? section : null;
      const excerpt = needsContext && span.end - para.start <= MAX_EXCERPT_CHARS ? { start: para.start, end: span.end } : span;
      candidates.push({ passage: index, text, span, context, excerpt, score, features, terms: new Set(words.map(lightStem).filter((w) => !STOP_WORDS.has(w))) });
    });
  });

  candidates.sort((a, b) => b.score - a.score || a.passage - b.passage || a.span.start - b.span.start);
  // Overlapping chunks repeat a sentence: keep its best-scored copy.
  const seen = new Set<string>();
  return candidates.filter((c) => !seen.has(c.text) && seen.add(c.text));
}

/** Question words that occur in the knowledge base (the rest weigh most but cannot be found). */
function presentWords(q: Question): Set<string> {
  return q.present;
}

function chooseSentences(q: Question, read: RetrievedChunk[], evidence: PassageEvidence[], candidates: SentenceCandidate[]): SentenceCandidate[] {
  const best = candidates[0];
  if (!best) return [];
  const leadDocument = read[best.passage].documentId;
  const leadEvidence = evidence[best.passage];
  const chosen: SentenceCandidate[] = [];
  const perPassage = new Map<number, number>();
  for (const c of candidates) {
    if (chosen.length >= MAX_ANSWER_SENTENCES) break;
    if (c.score < best.score - FOLLOW_MARGIN) break;
    const p = read[c.passage];
    // Another document is cited only when its own passage independently answers the question.
    if (p.documentId !== leadDocument) {
      const e = evidence[c.passage];
      if (c.score < best.score - OTHER_DOCUMENT_MARGIN || !passesGate(q, e) || e.coverage < leadEvidence.coverage) continue;
    }
    if ((perPassage.get(c.passage) ?? 0) >= 2) continue;
    if (chosen.some((x) => x.text === c.text || jaccard(x.terms, c.terms) >= 0.6)) continue;
    if (chosen.some((x) => x.passage === c.passage && x.span.start < c.span.end && c.span.start < x.span.end)) continue;
    chosen.push(c);
    perPassage.set(c.passage, (perPassage.get(c.passage) ?? 0) + 1);
  }
  return chosen;
}

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
  return `${context.replace(/[\s.:;,]+$/, '')}: ${text}`;
}

export function composeExtractiveAnswer(query: string, terms: QueryTerm[], passages: RetrievedChunk[], lexicon?: Lexicon): QueryAnswer {
  const read = passages.slice(0, PASSAGES_READ);
  const q = analyseQuestion(query, terms, lexicon ?? fallbackLexicon(terms));
  if (!isRelevant(terms, read, q)) return noAnswer(query, read);
  const sentences = selectSentences(terms, read, query, q);
  if (sentences.length === 0) return noAnswer(query, read);
  const citations: Citation[] = [];
  const parts: string[] = [];
  for (const s of sentences) {
    const p = read[s.passage];
    const excerpt = clipExcerpt(p.content.slice(s.excerpt.start, s.excerpt.end));
    let index = citations.findIndex((c) => c.document_id === p.documentId && c.page === p.page && c.excerpt === excerpt);
    if (index < 0) {
      citations.push({ document_id: p.documentId, title: p.documentTitle, excerpt, page: p.page });
      index = citations.length - 1;
    }
    parts.push(`${withContext(s.context, s.text)} [${index + 1}]`);
  }
  const answer = parts.join(' ');
  const tokens = countTokens(query) + read.reduce((n, p) => n + p.tokenCount, 0) + countTokens(answer);
  return { answer, citations, tokens_used: tokens };
}
